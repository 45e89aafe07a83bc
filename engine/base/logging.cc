#include "engine/base/logging.h"

#include <spdlog/sinks/base_sink.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <exception>
#include <memory>
#include <mutex>
#include <string>

namespace muh::logging {

namespace {

// The diagnostics logger's one sink: each message, as logged, to the handler.
class HandlerSink : public spdlog::sinks::base_sink<std::mutex> {
 public:
  explicit HandlerSink(DiagHandler handler) : handler_(std::move(handler)) {}

 protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    handler_(std::string_view(msg.payload.data(), msg.payload.size()),
             msg.level >= spdlog::level::warn);
  }
  void flush_() override {}

 private:
  DiagHandler handler_;
};

// The diagnostics logger SetUp made (also in spdlog's registry), held here
// so that a message need not look it up by name.
std::shared_ptr<spdlog::logger>& DiagLogger() {
  static std::shared_ptr<spdlog::logger> logger;
  return logger;
}

spdlog::level::level_enum ToSpdlog(Level level) {
  switch (level) {
    case Level::kTrace:
      return spdlog::level::trace;
    case Level::kDebug:
      return spdlog::level::debug;
    case Level::kInfo:
      return spdlog::level::info;
    case Level::kWarn:
      break;
  }
  return spdlog::level::warn;
}

}  // namespace

void SetUp(int verbosity, bool quiet, DiagHandler diag) {
  spdlog::drop("diag");
  spdlog::drop("muhpatch");
  auto diag_logger =
      std::make_shared<spdlog::logger>("diag", std::make_shared<HandlerSink>(std::move(diag)));
  diag_logger->set_pattern("%v");
  spdlog::register_logger(diag_logger);
  DiagLogger() = diag_logger;
  auto log = spdlog::stderr_logger_mt("muhpatch");
  log->set_pattern("muhpatch: %l: %v");
  log->set_level(quiet            ? spdlog::level::warn
                 : verbosity >= 3 ? spdlog::level::trace
                 : verbosity >= 2 ? spdlog::level::debug
                 : verbosity == 1 ? spdlog::level::info
                                  : spdlog::level::warn);
  spdlog::set_default_logger(log);
  // spdlog catches what a log call throws and prints "[*** LOG ERROR ***]"
  // in place of the message: out of memory while printing a diagnostic would
  // lose it and carry on. Its handler runs inside that catch block: throw
  // the exception on, to the command line (out of memory: exit 4).
  spdlog::set_error_handler([](const std::string&) {
    if (std::current_exception()) throw;
  });
}

bool Enabled(Level level) { return spdlog::should_log(ToSpdlog(level)); }

void Write(Level level, std::string_view message) { spdlog::log(ToSpdlog(level), "{}", message); }

void Diag(std::string_view message, bool important) {
  if (const std::shared_ptr<spdlog::logger>& diag = DiagLogger()) {
    if (important) {
      diag->error("{}", message);
    } else {
      diag->info("{}", message);
    }
  }
}

}  // namespace muh::logging
