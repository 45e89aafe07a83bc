#include "engine/base/one_line.h"

namespace muh {

std::string OneLine(std::string_view text, std::size_t max) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out.size() > max && max >= 3 ? out.substr(0, max - 3) + "..." : out;
}

std::string OneLineExact(std::string_view text, std::size_t max) {
  std::string out(text);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  for (char& c : out) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return out.size() > max && max >= 3 ? out.substr(0, max - 3) + "..." : out;
}

}  // namespace muh
