#include "engine/base/text.h"

#include <cctype>

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

}  // namespace muh
