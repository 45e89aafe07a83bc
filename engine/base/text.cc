#include "engine/base/text.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace muh {

bool IsWordChar(char c) {
  unsigned char u = static_cast<unsigned char>(c);
  return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '_' ||
         u >= 0x80;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string_view LineAround(std::string_view src, std::size_t offset) {
  std::size_t from = offset == 0 ? std::string_view::npos : src.rfind('\n', offset - 1);
  from = from == std::string_view::npos ? 0 : from + 1;
  std::size_t to = src.find('\n', offset);
  return Trim(src.substr(from, to == std::string_view::npos ? to : to - from));
}

void ScanTopLevel(std::string_view text,
                  const std::function<std::size_t(std::size_t, int)>& visit) {
  int depth = 0;
  char quote = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote != 0) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
      continue;
    }
    if (c == '\'' || c == '"') quote = c;
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    i += visit(i, depth);
  }
}

std::vector<std::string_view> SplitTopLevel(std::string_view text) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  ScanTopLevel(text, [&](std::size_t i, int depth) -> std::size_t {
    if (text[i] == ',' && depth == 0) {
      out.push_back(Trim(text.substr(start, i - start)));
      start = i + 1;
    }
    return 0;
  });
  std::string_view last = Trim(text.substr(std::min(start, text.size())));
  if (!last.empty()) out.push_back(last);
  return out;
}

}  // namespace muh
