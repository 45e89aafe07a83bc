// The statements of a Python file, read from its tree-sitter parse: its
// logical lines (a statement, several joined by `;`, or a compound
// statement's header with the body it holds on the same line), the header
// whose block holds each, where the `;` and header colons split a line into
// statements, and where its strings and comments lie. The parse is dropped
// once the table is built: the table is small (about a third of the file's
// size), so a run keeps every file's and parses each at most once. Copies
// share what was derived and may each borrow another copy of the bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace muh {

class SyntaxTree;

// Offsets are 32-bit (a file of 4 GiB or more gets no table; tree files are
// limited far below that): the whole tree's tables stay in memory while the
// analysis lives.
struct LogicalLine {
  std::uint32_t begin = 0;     // first byte of its first physical line
  std::uint32_t code = 0;      // its first token
  std::uint32_t code_end = 0;  // after its last token (not a trailing comment)
  std::uint32_t end = 0;  // first byte after the line end that follows code_end (or the file's end)
  int indent = 0;         // columns of leading blanks, a tab to the next multiple of 8
  int line = 0;           // 1-based line of `code`
  int parent = -1;        // the compound statement's header whose block holds it; -1 at top
};

class StatementTable {
 public:
  // nullopt when the parse has an ERROR or MISSING node (the caller must then
  // not trust any line), or for 4 GiB or more. `tree` must have been parsed
  // from `tree.bytes()`, which the table borrows.
  static std::optional<StatementTable> FromTree(const SyntaxTree& tree);
  // Parses `src` and builds its table.
  static std::optional<StatementTable> Build(std::string_view src);
  // Borrows `same` instead: a copy of the bytes the table was built from,
  // stored elsewhere (byte for byte equal; the caller guarantees it).
  void Rebind(std::string_view same) { src_ = same; }

  const std::vector<LogicalLine>& lines() const { return parts_->lines; }
  std::string_view src() const { return src_; }
  // The logical line holding `offset`, or -1 (blank and comment lines hold none).
  int IndexAt(std::size_t offset) const;
  // Whether `offset` is code: outside strings and comments.
  bool InCode(std::size_t offset) const;
  // Whether `offset` is inside a string literal (an f-string's
  // replacement fields included).
  bool InString(std::size_t offset) const;
  // The string literal holding `offset` (from its opening quote to after its
  // closing one; a prefix such as `f` or `rb` stands before it), if any.
  std::optional<std::pair<std::uint32_t, std::uint32_t>> StringAt(std::size_t offset) const;
  // Past the blanks, line continuations and comments before `offset`: the
  // offset just after the code byte before it (0 when none). And the
  // first offset at or after `offset` that is none of those. A comment
  // between two tokens changes nothing in Python, nor here.
  std::size_t CodeBefore(std::size_t offset) const;
  std::size_t CodeAfter(std::size_t offset) const;
  // The line's code text, and its first word (`if`, `from`, `def` ...; empty
  // when it starts with punctuation).
  std::string_view Code(int k) const;
  std::string_view Keyword(int k) const;
  // For a compound statement's header (`if x:`): the text between its
  // keyword and the colon that ends it; empty when the line is no header.
  std::string_view HeaderCondition(int k) const;
  // The simple statement of line `k` that holds `offset`: from the `;` or
  // the compound header's `:` before it or the line's start, to the next
  // `;` or the line's end. `if c: import m; x = 1` holds three: `if c:`'s
  // header, `import m` and `x = 1`. `*begin` gets its first byte.
  std::string_view StatementAt(int k, std::size_t offset, std::size_t* begin = nullptr) const;
  // Whether line `k` holds more than one statement: a `;`, or a compound
  // header's `:` followed by code.
  bool HasSeveralStatements(int k) const;
  // The 1-based line of `offset`, counted when asked: the analysis does not
  // ask, so no table of line ends is kept for every file.
  int LineOf(std::size_t offset) const;

  using Range = std::pair<std::uint32_t, std::uint32_t>;  // [begin, end)

 private:
  friend class StatementTableBuilder;

  // The cuts (offsets of `;` and header colons) that lie in line `k`'s code.
  std::pair<std::size_t, std::size_t> CutsOf(int k) const;

  struct Parts {
    std::vector<LogicalLine> lines;
    std::vector<Range> strings;       // outermost literals, in order
    std::vector<Range> comments;      // in order
    std::vector<std::uint32_t> cuts;  // each `;` between statements and each header's `:`, in order
  };

  std::string_view src_;
  std::shared_ptr<const Parts> parts_;
};

}  // namespace muh
