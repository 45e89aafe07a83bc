#include "engine/liveness/prose.h"

#include <string_view>

#include "engine/base/text.h"

namespace muh {

namespace {

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\'; }

// The callees whose string arguments are messages.
bool IsMessageCallee(std::string_view callee) {
  std::size_t dot = callee.rfind('.');
  std::string_view last = dot == std::string_view::npos ? callee : callee.substr(dot + 1);
  if (dot == std::string_view::npos) return last == "print";
  for (std::string_view m : {"debug", "info", "warning", "warn", "error", "exception", "critical",
                             "fatal", "info_once", "warning_once", "debug_once"}) {
    if (last == m) return true;
  }
  return false;
}

}  // namespace

bool InFString(const StatementTable& lines, std::size_t offset) {
  auto str = lines.StringAt(offset);
  if (!str) return false;
  std::string_view src = lines.src();
  for (std::size_t p = str->first; p > 0 && IsWordChar(src[p - 1]); --p) {
    if (src[p - 1] == 'f' || src[p - 1] == 'F') return true;
  }
  return false;
}

bool InProse(const StatementTable& lines, std::size_t offset) {
  auto str = lines.StringAt(offset);
  if (!str) return false;
  std::string_view src = lines.src();
  // The prefix letters before the quote: an f-string is code in part.
  std::size_t p = str->first;
  while (p > 0 && IsWordChar(src[p - 1])) --p;
  for (std::size_t i = p; i < str->first; ++i) {
    if (src[i] == 'f' || src[i] == 'F') return false;
  }
  int k = lines.IndexAt(offset);
  if (k < 0) return false;
  std::size_t begin = 0;
  std::string_view stmt = lines.StatementAt(k, offset, &begin);
  std::size_t end = begin + stmt.size();
  // A statement of strings only (a docstring; adjacent literals concatenate).
  bool only_strings = true;
  for (std::size_t i = begin; i < end && only_strings; ++i) {
    if (lines.InString(i)) continue;
    char c = src[i];
    auto is_prefix = [](char x) {
      return std::string_view("rRbBuU").find(x) != std::string_view::npos;
    };
    bool prefix = is_prefix(c) && i + 1 < end && (lines.InString(i + 1) || is_prefix(src[i + 1]));
    only_strings = IsBlank(c) || c == '(' || c == ')' || prefix;
  }
  if (only_strings) return true;
  std::string_view first = stmt.substr(0, stmt.find_first_of(" \t(.+="));
  if (first == "__all__") return true;
  // `raise E("...")`, `assert cond, "..."`: the message of a failure.
  if (first == "raise") return true;
  if (first == "assert") {
    int depth = 0;
    for (std::size_t i = begin; i < p; ++i) {
      if (!lines.InCode(i)) continue;
      if (src[i] == '(' || src[i] == '[' || src[i] == '{') ++depth;
      if (src[i] == ')' || src[i] == ']' || src[i] == '}') --depth;
      if (src[i] == ',' && depth == 0) return true;
    }
    return false;
  }
  // An argument of a message call: back to the unmatched '(' before it.
  int depth = 0;
  for (std::size_t i = p; i > begin; --i) {
    std::size_t j = i - 1;
    if (!lines.InCode(j)) continue;
    char c = src[j];
    if (c == ')' || c == ']' || c == '}') ++depth;
    if (c == '[' || c == '{') {
      if (depth == 0) return false;
      --depth;
    }
    if (c != '(') continue;
    if (depth > 0) {
      --depth;
      continue;
    }
    std::size_t e = j;
    while (e > begin && IsBlank(src[e - 1])) --e;
    std::size_t b = e;
    while (b > begin && (IsWordChar(src[b - 1]) || src[b - 1] == '.')) --b;
    return IsMessageCallee(src.substr(b, e - b));
  }
  return false;
}

}  // namespace muh
