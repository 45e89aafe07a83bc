// The logical lines of a Python file, found by a lexer (strings, comments,
// brackets, backslash continuations) without parsing, with the nesting that
// their indentation gives. The liveness analysis finds imports, flag
// assignments and name references with it across the whole tree and parses
// only the statements involved.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace muh {

// Offsets are 32-bit (Lex refuses a file of 4 GiB or more; tree files are
// limited far below that): a file's lines then take half the memory, and
// the whole tree's lines stay in memory while the analysis lives.
struct LogicalLine {
  std::uint32_t begin = 0;     // first byte of its first physical line
  std::uint32_t code = 0;      // its first non-blank byte
  std::uint32_t code_end = 0;  // end of its code: before a trailing comment and the newline
  std::uint32_t end = 0;       // first byte after its last newline (or the file's end)
  int indent = 0;              // columns of leading blanks, a tab to the next multiple of 8
  int line = 0;                // 1-based line of `code`
  int parent = -1;             // the nearest earlier line indented less: its header; -1 at top
};

class PyLines {
 public:
  // nullopt when the lexer loses its way (an unterminated string,
  // unbalanced brackets), or for 4 GiB or more: the caller must then not
  // trust any line.
  static std::optional<PyLines> Lex(std::string_view src);

  const std::vector<LogicalLine>& lines() const { return lines_; }
  std::string_view src() const { return src_; }
  // The logical line holding `offset`, or -1 (blank and comment lines hold none).
  int IndexAt(std::size_t offset) const;
  // Whether `offset` is code: outside strings and comments.
  bool InCode(std::size_t offset) const;
  // Whether `offset` is inside a string literal.
  bool InString(std::size_t offset) const;
  // The string literal holding `offset` (from its opening quote to after its
  // closing one; a prefix such as `f` or `rb` stands before it), if any.
  std::optional<std::pair<std::uint32_t, std::uint32_t>> StringAt(std::size_t offset) const;
  // The line's code text, and its first word (`if`, `from`, `def` ...; empty
  // when it starts with punctuation).
  std::string_view Code(int k) const;
  std::string_view Keyword(int k) const;
  // For a compound statement's header (`if x:`): the text between its
  // keyword and the colon that ends it; empty when the line is no header.
  std::string_view HeaderCondition(int k) const;
  // The simple statement of line `k` that holds `offset`: from the `;` or
  // the compound header's `:` before it (outside brackets and strings) or
  // the line's start, to the next `;` or the line's end. `if c: import m;
  // x = 1` holds three: `if c:`'s header, `import m` and `x = 1`. `*begin`
  // gets its first byte.
  std::string_view StatementAt(int k, std::size_t offset, std::size_t* begin = nullptr) const;
  // Whether line `k` holds more than one statement: a `;`, or a compound
  // header's `:` followed by code (outside brackets and strings).
  bool HasSeveralStatements(int k) const;
  // The 1-based line of `offset`, counted when asked: the analysis does not
  // ask, so no table of newlines is kept for every file.
  int LineOf(std::size_t offset) const;

  using Range = std::pair<std::uint32_t, std::uint32_t>;  // [begin, end)

 private:
  // Calls visit(j) for each `;` and the header's own `:` of line `k` that
  // lie outside brackets, strings and comments, in order, while it returns true.
  template <typename Visit>
  void StatementBoundaries(int k, const Visit& visit) const;

  std::string_view src_;
  std::vector<LogicalLine> lines_;
  std::vector<Range> strings_;   // in order
  std::vector<Range> comments_;  // in order
};

}  // namespace muh
