#include "engine/app/diag_output.h"

#include <algorithm>
#include <cstdio>
#include <memory>
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

logging::DiagHandler DiagToStderr(bool quiet, bool colour) {
  struct State {
    State(bool q, bool c) : filter(q, c) {}
    std::mutex mutex;
    DiagFilter filter;
  };
  auto state = std::make_shared<State>(quiet, colour);
  return [state](std::string_view text, bool important) {
    std::lock_guard<std::mutex> lock(state->mutex);
    // One logged message may hold several lines; each is judged on its own.
    while (true) {
      std::size_t nl = text.find('\n');
      std::optional<std::string> out = state->filter.Line(text.substr(0, nl), important);
      if (out) {
        out->push_back('\n');
        std::fwrite(out->data(), 1, out->size(), stderr);
      }
      if (nl == std::string_view::npos) break;
      text.remove_prefix(nl + 1);
    }
    std::fflush(stderr);
  };
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
