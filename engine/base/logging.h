// The program's two logs, written through spdlog:
//   - the log proper (-v and more): `muhpatch: LEVEL: message` on stderr,
//     at warn and above by default (Info, Debug and Trace below);
//   - the diagnostics stream (Diag): every `file:line:col: severity: ...`
//     line and the summaries, handed to the handler that SetUp was given
//     (app/diag_output: -q's filter and colour).
// Only log.cc includes spdlog. Its header-only build, which a statically
// linked muhpatch needs, compiles spdlog's implementation in every file
// that includes it (about 8 s of CPU each on the 2-core VM); here it is
// compiled once.
#pragma once

#include <fmt/format.h>

#include <functional>
#include <string_view>
#include <utility>

namespace muh::logging {

enum class Level { kTrace, kDebug, kInfo, kWarn };

// Receives each message logged to the diagnostics stream (possibly several
// lines) and whether it was logged as important (an error).
using DiagHandler = std::function<void(std::string_view message, bool important)>;

// Sets both logs up: the level from -v's count (0 warn, 1 info, 2 debug,
// 3 trace) or -q (warn), and the diagnostics handler. May run again (the
// fuzzers run the command line more than once in a process).
void SetUp(int verbosity, bool quiet, DiagHandler diag);

// Whether a message at `level` would be written.
bool Enabled(Level level);
void Write(Level level, std::string_view message);

// A message on the diagnostics stream; dropped before SetUp (unit tests).
void Diag(std::string_view message, bool important = false);

template <typename... Args>
void Trace(fmt::format_string<Args...> f, Args&&... args) {
  if (Enabled(Level::kTrace)) Write(Level::kTrace, fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
void Debug(fmt::format_string<Args...> f, Args&&... args) {
  if (Enabled(Level::kDebug)) Write(Level::kDebug, fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
void Info(fmt::format_string<Args...> f, Args&&... args) {
  if (Enabled(Level::kInfo)) Write(Level::kInfo, fmt::format(f, std::forward<Args>(args)...));
}
template <typename... Args>
void Warn(fmt::format_string<Args...> f, Args&&... args) {
  if (Enabled(Level::kWarn)) Write(Level::kWarn, fmt::format(f, std::forward<Args>(args)...));
}

}  // namespace muh::logging
