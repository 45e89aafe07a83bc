#include "engine/app/diag_output.h"

#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <mutex>

#include "engine/base/colour.h"

namespace muh {

namespace {

enum class LineKind { kError, kWarning, kNote, kInfo, kContinued };

LineKind Classify(std::string_view line, bool important) {
  if (!line.empty() && (line.front() == ' ' || line.front() == '\t')) return LineKind::kContinued;
  std::size_t e = line.find(": error: ");
  std::size_t w = line.find(": warning: ");
  std::size_t n = line.find(": note: ");
  std::size_t first = std::min({e, w, n});
  if (first != std::string_view::npos && first > 0) {
    return first == e ? LineKind::kError : first == w ? LineKind::kWarning : LineKind::kNote;
  }
  return important ? LineKind::kError : LineKind::kInfo;
}

class DiagSink : public spdlog::sinks::base_sink<std::mutex> {
 public:
  DiagSink(bool quiet, bool colour) : filter_(quiet, colour) {}

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    std::string_view text(msg.payload.data(), msg.payload.size());
    bool important = msg.level >= spdlog::level::warn;
    // One logged message may hold several lines; each is judged on its own.
    while (true) {
      std::size_t nl = text.find('\n');
      std::optional<std::string> out = filter_.Line(text.substr(0, nl), important);
      if (out) {
        out->push_back('\n');
        std::fwrite(out->data(), 1, out->size(), stderr);
      }
      if (nl == std::string_view::npos) break;
      text.remove_prefix(nl + 1);
    }
    std::fflush(stderr);
  }
  void flush_() override { std::fflush(stderr); }

 private:
  DiagFilter filter_;
};

}  // namespace

std::optional<std::string> DiagFilter::Line(std::string_view line, bool important) {
  LineKind kind = Classify(line, important);
  if (kind != LineKind::kContinued) {
    last_kept_ = !quiet_ || kind == LineKind::kError || kind == LineKind::kWarning;
  }
  if (!last_kept_) return std::nullopt;
  if (colour_ && kind != LineKind::kContinued && kind != LineKind::kInfo) {
    return ColourDiagnosticLine(line);
  }
  return std::string(line);
}

std::shared_ptr<spdlog::logger> MakeDiagLogger(bool quiet, bool colour) {
  auto logger = std::make_shared<spdlog::logger>("diag", std::make_shared<DiagSink>(quiet, colour));
  logger->set_pattern("%v");
  spdlog::register_logger(logger);
  return logger;
}

}  // namespace muh

namespace muh {

namespace {
int verbosity_level = 0;
bool quiet_output = false;
bool explain_derivations = false;
}  // namespace

void SetExplainDerivations(bool explain) { explain_derivations = explain; }
bool ExplainDerivations() { return explain_derivations; }

void SetVerbosity(int verbosity, bool quiet) {
  verbosity_level = verbosity;
  quiet_output = quiet;
}
int Verbosity() { return verbosity_level; }
bool Quiet() { return quiet_output; }

}  // namespace muh
