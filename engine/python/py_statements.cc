#include "engine/python/py_statements.h"

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

#include "engine/python/syntax_tree.h"

namespace muh {

namespace {

bool IsIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

// Does the line at `at` begin with `word` as a whole keyword?
bool StartsWithKeyword(std::string_view src, std::size_t at, std::string_view word) {
  if (src.substr(at, word.size()) != word) return false;
  std::size_t after = at + word.size();
  return after >= src.size() || !IsIdentChar(src[after]);
}

// A column-0 line that cannot start a statement of its own.
bool ContinuesCompound(std::string_view src, std::size_t at) {
  for (std::string_view kw : {"else", "elif", "except", "finally"}) {
    if (StartsWithKeyword(src, at, kw)) return true;
  }
  return false;
}

}  // namespace

std::optional<std::vector<StatementSpan>> TopLevelStatements(std::string_view bytes) {
  // A CR-only line end counts as LF does, as PythonParser parses it.
  const std::optional<std::string> lf = LoneCrAsLf(bytes);
  const std::string_view src = lf ? std::string_view(*lf) : bytes;
  std::vector<StatementSpan> out;
  std::size_t i = 0;
  uint32_t row = 0;
  int depth = 0;           // open brackets
  bool continued = false;  // the previous line ended in a backslash
  bool decorator = false;  // the current statement so far is decorators
  while (i < src.size()) {
    // At the start of a physical line.
    std::size_t line = i;
    if (depth == 0 && !continued) {
      char c = src[i];
      bool blank_or_comment = false;
      {
        std::size_t j = i;
        while (j < src.size() && (src[j] == ' ' || src[j] == '\t' || src[j] == '\f')) ++j;
        blank_or_comment = j >= src.size() || src[j] == '\n' || src[j] == '\r' || src[j] == '#';
      }
      bool column0 = c != ' ' && c != '\t' && c != '\f' && !blank_or_comment;
      // Indented code before any statement: libtree-sitter parses a file
      // whose code is all indented, so column 0 proves nothing there.
      if (!column0 && !blank_or_comment && out.empty()) return std::nullopt;
      if (column0 && !ContinuesCompound(src, i) && !decorator) {
        if (!out.empty()) out.back().end = line, out.back().end_row = row;
        out.push_back(StatementSpan{line, src.size(), row, 0, 0});
      }
      if (column0) decorator = c == '@';
    }
    continued = false;
    // Through the line, tracking strings and brackets.
    while (i < src.size() && src[i] != '\n') {
      char c = src[i];
      if (c == '#') {
        while (i < src.size() && src[i] != '\n') ++i;
        break;
      }
      if (c == '\\') {
        if (i + 1 < src.size() && src[i + 1] == '\n') {
          continued = true;
          ++i;
          break;
        }
        if (i + 2 < src.size() && src[i + 1] == '\r' && src[i + 2] == '\n') {
          continued = true;
          i += 2;
          break;
        }
        ++i;
        continue;
      }
      if (c == '(' || c == '[' || c == '{') {
        ++depth;
      } else if (c == ')' || c == ']' || c == '}') {
        if (--depth < 0) return std::nullopt;
      } else if (c == '"' || c == '\'') {
        bool triple = i + 2 < src.size() && src[i + 1] == c && src[i + 2] == c;
        i += triple ? 3 : 1;
        for (;;) {
          if (i >= src.size()) return std::nullopt;
          char s = src[i];
          if (s == '\\') {
            if (i + 1 < src.size() && src[i + 1] == '\n') ++row;
            i += 2;
            continue;
          }
          if (s == '\n') {
            if (!triple) return std::nullopt;
            ++row;
          }
          if (s == c && (!triple || (i + 2 < src.size() && src[i + 1] == c && src[i + 2] == c))) {
            i += triple ? 3 : 1;
            break;
          }
          ++i;
        }
        continue;
      }
      ++i;
    }
    if (i < src.size()) {  // the newline
      ++i;
      ++row;
    }
  }
  if (depth != 0 || continued) return std::nullopt;
  if (!out.empty()) {
    std::size_t last_nl = src.rfind('\n');
    out.back().end_row = row;
    out.back().end_column = static_cast<uint32_t>(
        last_nl == std::string_view::npos ? src.size() : src.size() - last_nl - 1);
  }
  return out;
}

std::vector<TSRange> RangesHolding(std::string_view src, const std::vector<StatementSpan>& spans,
                                   const std::vector<std::string_view>& literals) {
  std::vector<char> chosen(spans.size(), 0);
  for (std::string_view lit : literals) {
    if (lit.empty()) continue;
    for (std::size_t at = src.find(lit); at != std::string_view::npos; at = src.find(lit, at + 1)) {
      auto next =
          std::upper_bound(spans.begin(), spans.end(), at,
                           [](std::size_t off, const StatementSpan& s) { return off < s.begin; });
      if (next == spans.begin()) continue;  // before the first statement
      chosen[static_cast<std::size_t>(next - spans.begin()) - 1] = 1;
    }
  }
  std::vector<TSRange> ranges;
  for (std::size_t k = 0; k < spans.size(); ++k) {
    if (!chosen[k]) continue;
    const StatementSpan& s = spans[k];
    TSPoint end{s.end_row, s.end_column};
    if (!ranges.empty() && ranges.back().end_byte == s.begin) {
      ranges.back().end_byte = static_cast<uint32_t>(s.end);
      ranges.back().end_point = end;
      continue;
    }
    ranges.push_back(TSRange{TSPoint{s.begin_row, 0}, end, static_cast<uint32_t>(s.begin),
                             static_cast<uint32_t>(s.end)});
  }
  return ranges;
}

std::optional<SyntaxTree> ParseStatementsHolding(PythonParser& parser, std::string_view src,
                                                 const std::vector<std::string_view>& literals,
                                                 bool* none_hold) {
  *none_hold = false;
  std::optional<std::vector<StatementSpan>> spans = TopLevelStatements(src);
  if (!spans) return std::nullopt;
  std::vector<TSRange> ranges = RangesHolding(src, *spans, literals);
  if (ranges.empty()) {
    *none_hold = true;
    return std::nullopt;
  }
  SyntaxTree part = parser.ParseRanges(src, ranges);
  if (part.HasError()) return std::nullopt;
  return part;
}

}  // namespace muh
