#include "engine/python/prefix_cut.h"

#include "engine/base/text.h"

namespace muh {

namespace {

// Whether the line at `b` starts with `word` as a whole word.
bool StartsWithWord(std::string_view src, std::size_t b, std::string_view word) {
  if (src.substr(b, word.size()) != word) return false;
  std::size_t e = b + word.size();
  return e >= src.size() || !IsWordChar(src[e]);
}

// The start of the line before the one at `b` (b > 0, src[b - 1] == '\n').
std::size_t PreviousLineStart(std::string_view src, std::size_t b) {
  std::size_t nl = b >= 2 ? src.rfind('\n', b - 2) : std::string_view::npos;
  return nl == std::string_view::npos ? 0 : nl + 1;
}

// Whether the nearest line before `b` that holds code at column 0 (not a
// blank or comment line) is a decorator.
bool AfterDecorator(std::string_view src, std::size_t b) {
  while (b > 0) {
    b = PreviousLineStart(src, b);
    char c = src[b];
    if (c == '@') return true;
    if (c != '\n' && c != '#' && c != ' ' && c != '\t' && c != '\f') return false;
    if (c == ' ' || c == '\t' || c == '\f') {
      std::size_t i = b;
      while (i < src.size() && (src[i] == ' ' || src[i] == '\t' || src[i] == '\f')) ++i;
      if (i < src.size() && src[i] != '\n' && src[i] != '#') return false;
    }
  }
  return false;
}

bool Candidate(std::string_view src, std::size_t b) {
  char c = src[b];
  if (c == ' ' || c == '\t' || c == '\f' || c == '\n' || c == '#' || c == ')' || c == ']' ||
      c == '}') {
    return false;
  }
  for (std::string_view kw : {"else", "elif", "except", "finally"}) {
    if (StartsWithWord(src, b, kw)) return false;
  }
  // b > 0 here: the previous line ends at src[b - 1] == '\n'.
  if (b >= 2 && src[b - 2] == '\\') return false;
  return !AfterDecorator(src, b);
}

}  // namespace

std::size_t PrefixCutAfter(std::string_view src, std::size_t offset) {
  std::size_t b = src.find('\n', offset);
  while (b != std::string_view::npos && b + 1 < src.size()) {
    ++b;
    if (Candidate(src, b)) return b;
    b = src.find('\n', b);
  }
  return src.size();
}

}  // namespace muh
