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

std::optional<CodeLines> LexCodeLines(std::string_view bytes) {
  // A CR-only line end counts as LF does, as PythonParser parses it.
  const std::optional<std::string> lf = LoneCrAsLf(bytes);
  const std::string_view src = lf ? std::string_view(*lf) : bytes;
  CodeLines out;
  std::size_t i = 0;
  uint32_t row = 0;
  int depth = 0;           // open brackets
  bool continued = false;  // the previous line ended in a backslash
  while (i < src.size()) {
    // At the start of a physical line.
    if (depth == 0 && !continued) {
      std::size_t j = i;
      bool tabbed = false;
      while (j < src.size() && (src[j] == ' ' || src[j] == '\t' || src[j] == '\f')) {
        tabbed = tabbed || src[j] != ' ';
        ++j;
      }
      bool blank_or_comment = j >= src.size() || src[j] == '\n' || src[j] == '\r' || src[j] == '#';
      if (!blank_or_comment) {
        out.lines.push_back(CodeLine{i, row, static_cast<uint32_t>(j - i), tabbed, src[j] == '@',
                                     ContinuesCompound(src, j)});
      }
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
  std::size_t last_nl = src.rfind('\n');
  out.rows = row;
  out.last_column = static_cast<uint32_t>(
      last_nl == std::string_view::npos ? src.size() : src.size() - last_nl - 1);
  return out;
}

std::optional<std::vector<StatementSpan>> TopLevelStatements(std::string_view src) {
  std::optional<CodeLines> code = LexCodeLines(src);
  if (!code) return std::nullopt;
  // Indented code before any statement: libtree-sitter parses a file whose
  // code is all indented, so column 0 proves nothing there.
  std::vector<StatementSpan> out;
  bool decorator = false;  // the current statement so far is decorators
  for (const CodeLine& line : code->lines) {
    if (line.indent != 0) {
      if (out.empty()) return std::nullopt;
      continue;
    }
    if (!line.clause && !decorator) {
      if (!out.empty()) out.back().end = line.begin, out.back().end_row = line.row;
      out.push_back(StatementSpan{line.begin, src.size(), line.row, 0, 0});
    } else if (out.empty()) {
      return std::nullopt;  // `else:` before any statement: doubtful
    }
    decorator = line.decorator;
  }
  if (!out.empty()) {
    out.back().end_row = code->rows;
    out.back().end_column = code->last_column;
  }
  return out;
}

namespace {

bool AsciiWordByte(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

// Whether `src` holds one of `literals` inside [begin, end).
bool HoldsOne(std::string_view src, std::size_t begin, std::size_t end,
              const std::vector<StatementLiteral>& literals) {
  const std::string_view part = src.substr(begin, end - begin);
  for (const StatementLiteral& lit : literals) {
    if (lit.text.empty()) continue;
    for (std::size_t at = part.find(lit.text); at != std::string_view::npos;
         at = part.find(lit.text, at + 1)) {
      // A whole word: judged against the file's bytes, not the part's.
      const std::size_t from = begin + at;
      const std::size_t to = from + lit.text.size();
      if (lit.whole_word && ((from > 0 && AsciiWordByte(src[from - 1])) ||
                             (to < src.size() && AsciiWordByte(src[to])))) {
        continue;
      }
      return true;
    }
  }
  return false;
}

}  // namespace

std::optional<std::vector<TSRange>> StatementsHolding(
    std::string_view src, const std::vector<StatementLiteral>& literals) {
  std::optional<std::vector<StatementSpan>> spans = TopLevelStatements(src);
  if (!spans) return std::nullopt;
  std::vector<TSRange> out;
  for (const StatementSpan& s : *spans) {
    if (!HoldsOne(src, s.begin, s.end, literals)) continue;
    if (!out.empty() && out.back().end_byte == s.begin) {
      out.back().end_byte = static_cast<uint32_t>(s.end);
      continue;
    }
    TSRange r{};
    r.start_byte = static_cast<uint32_t>(s.begin);
    r.end_byte = static_cast<uint32_t>(s.end);
    out.push_back(r);
  }
  SetPoints(src, &out);
  return out;
}

std::optional<SyntaxTree> ParseStatementsHolding(PythonParser& parser, std::string_view src,
                                                 const std::vector<StatementLiteral>& literals,
                                                 bool* none_hold) {
  *none_hold = false;
  std::optional<std::vector<TSRange>> ranges = StatementsHolding(src, literals);
  if (!ranges) return std::nullopt;
  if (ranges->empty()) {
    *none_hold = true;
    return std::nullopt;
  }
  SyntaxTree part = parser.ParseRanges(src, *ranges);
  if (part.HasError()) return std::nullopt;
  return part;
}

}  // namespace muh
