// Shared helpers for the libFuzzer targets in tests/fuzz/.
#pragma once

#include <cstdio>
#include <string>

namespace muh_fuzz {

[[noreturn]] inline void Fail(const char* file, int line, const char* cond,
                              const std::string& what) {
  std::fprintf(stderr, "%s:%d: invariant failed: %s\n  %s\n", file, line, cond, what.c_str());
  std::fflush(stderr);
  __builtin_trap();
}

// Printable form of a byte string for failure messages (C escapes, cut short).
inline std::string Show(const std::string& s, std::size_t max = 200) {
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size() && i < max; ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c == '\n')
      out += "\\n";
    else if (c == '\r')
      out += "\\r";
    else if (c == '\t')
      out += "\\t";
    else if (c == '"' || c == '\\')
      out += std::string("\\") + static_cast<char>(c);
    else if (c < 0x20 || c >= 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  if (s.size() > max) out += "...";
  return out + "\"";
}

}  // namespace muh_fuzz

// Checks an invariant; on failure prints `what` (a std::string expression,
// evaluated only then) and traps, so that libFuzzer records the input as a
// crash. Unlike assert(), it stays in release builds.
#define FUZZ_CHECK(cond, what)                                        \
  do {                                                                \
    if (!(cond)) ::muh_fuzz::Fail(__FILE__, __LINE__, #cond, (what)); \
  } while (0)
