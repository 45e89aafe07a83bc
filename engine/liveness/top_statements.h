// The parses of a file's top-level statements, each made when first asked,
// for the questions a statement table cannot answer: the syntax path to a
// range of bytes (what an occurrence of a word is, where it stands). A
// statement parses on its own as a module does; one that does not (a lone
// clause the table's lines do not cut at) is looked up in a parse of the
// whole file instead.
#pragma once

#include <cstddef>
#include <deque>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/python/name_use.h"
#include "engine/python/statement_table.h"
#include "engine/python/syntax_tree.h"

namespace muh {

// The bytes [begin, end) of the top-level statement that holds line `k`:
// from its decorators or its first clause (`if`, `try`) to the end of its
// last clause's block, which parse on their own as a module does.
std::pair<std::size_t, std::size_t> TopStatement(const StatementTable& lines, int k);

// Borrows `lines`, which must outlive it.
class TopStatements {
 public:
  explicit TopStatements(const StatementTable& lines) : lines_(lines) {}
  TopStatements(const TopStatements&) = delete;
  TopStatements& operator=(const TopStatements&) = delete;

  struct Found {
    const SyntaxTree* tree = nullptr;  // null: the bytes lie on no line (a comment)
    std::vector<TSNode> path;          // PathTo's, in `tree`
    std::size_t begin = 0;             // where `tree`'s bytes begin in the file
  };
  // nullopt when the statement (and then the whole file) does not parse.
  // Ask in ascending order of `offset` within a statement (PathFinder).
  std::optional<Found> PathAt(std::size_t offset, std::size_t length);

 private:
  struct Parsed {
    // Parsed in place: the tree is never moved.
    Parsed(std::size_t b, PythonParser* parser, std::string_view bytes)
        : begin(b), tree(parser->Parse(bytes)), paths(tree.Root()) {}
    std::size_t begin;
    SyntaxTree tree;
    mutable PathFinder paths;  // occurrences are asked in ascending order
  };
  // Remembered by the top-level line that holds k: a statement of many
  // lines is cut, and looked up, once.
  const Parsed* Of(int k);
  const Parsed* Cut(int k);

  const StatementTable& lines_;
  PythonParser parser_;
  std::deque<Parsed> parsed_;  // stable addresses
  std::unordered_map<int, const Parsed*> by_top_;
  std::unordered_map<std::size_t, const Parsed*> by_begin_;
  const Parsed* whole_ = nullptr;
  bool whole_tried_ = false;
};

}  // namespace muh
