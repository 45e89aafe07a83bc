#include "engine/plan/record_path.h"

#include <fmt/format.h>

namespace muh {

namespace {

bool Escaped(char c) { return c == '%' || c == ',' || c == ';' || c == '\n' || c == '\r'; }

int HexDigit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  return -1;
}

}  // namespace

std::string RecordPath(std::string_view path) {
  std::string out;
  out.reserve(path.size());
  for (char c : path) {
    if (Escaped(c)) {
      out += fmt::format("%{:02X}", static_cast<unsigned char>(c));
    } else {
      out += c;
    }
  }
  return out;
}

std::optional<std::string> ReadRecordPath(std::string_view recorded) {
  std::string out;
  out.reserve(recorded.size());
  for (std::size_t i = 0; i < recorded.size(); ++i) {
    if (recorded[i] != '%') {
      out += recorded[i];
      continue;
    }
    if (i + 2 >= recorded.size()) return std::nullopt;
    int hi = HexDigit(recorded[i + 1]);
    int lo = HexDigit(recorded[i + 2]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return out;
}

}  // namespace muh
