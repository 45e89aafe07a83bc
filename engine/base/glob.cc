#include "engine/base/glob.h"

namespace muh {

namespace {

// Matches one character class starting at pattern[p] == '['; sets `next` to
// the index after ']'. An unterminated class matches '[' literally.
bool MatchClass(std::string_view pattern, std::size_t p, char c, std::size_t* next) {
  std::size_t i = p + 1;
  bool negate = i < pattern.size() && (pattern[i] == '!' || pattern[i] == '^');
  if (negate) ++i;
  bool hit = false;
  std::size_t start = i;
  for (; i < pattern.size() && (pattern[i] != ']' || i == start); ++i) {
    if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
      hit = hit || (pattern[i] <= c && c <= pattern[i + 2]);
      i += 2;
    } else {
      hit = hit || pattern[i] == c;
    }
  }
  if (i >= pattern.size()) {
    *next = p + 1;
    return c == '[';
  }
  *next = i + 1;
  return hit != negate && c != '/';
}

bool Match(std::string_view pat, std::size_t p, std::string_view path, std::size_t s) {
  while (p < pat.size()) {
    char pc = pat[p];
    if (pc == '*' && p + 1 < pat.size() && pat[p + 1] == '*') {
      std::size_t rest = p + 2;
      bool slash_after = rest < pat.size() && pat[rest] == '/';
      if (slash_after) ++rest;
      // `**/` may match nothing, or any run of whole segments.
      for (std::size_t k = s; k <= path.size(); ++k) {
        if (k == s || path[k - 1] == '/' || !slash_after) {
          if (Match(pat, rest, path, k)) return true;
        }
      }
      return false;
    }
    if (pc == '*') {
      for (std::size_t k = s;; ++k) {
        if (Match(pat, p + 1, path, k)) return true;
        if (k >= path.size() || path[k] == '/') return false;
      }
    }
    if (s >= path.size()) return false;
    if (pc == '?') {
      if (path[s] == '/') return false;
    } else if (pc == '[') {
      std::size_t next = 0;
      if (!MatchClass(pat, p, path[s], &next)) return false;
      p = next;
      ++s;
      continue;
    } else if (pc != path[s]) {
      return false;
    }
    ++p;
    ++s;
  }
  return s == path.size();
}

}  // namespace

bool GlobMatch(std::string_view pattern, std::string_view path) {
  return Match(pattern, 0, path, 0);
}

bool IsGlob(std::string_view pattern) {
  return pattern.find_first_of("*?[") != std::string_view::npos;
}

}  // namespace muh
