#include "engine/base/plural.h"

namespace muh {

std::string Counted(std::size_t n, std::string_view noun, std::string_view plural) {
  std::string out = std::to_string(n);
  out += ' ';
  if (n == 1) {
    out += noun;
  } else if (plural.empty()) {
    out += noun;
    out += 's';
  } else {
    out += plural;
  }
  return out;
}

}  // namespace muh
