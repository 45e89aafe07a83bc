// Parsing Python with tree-sitter. A SyntaxTree owns its TSTree and borrows
// the bytes it was parsed from; TSNode values never leave the modules that
// query (query.cc) or inspect (syntax_tree.cc) it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/python/ts_handles.h"

namespace muh {

// Where a parse went wrong: the first ERROR or MISSING node in document order.
struct SyntaxProblem {
  std::size_t offset = 0;
  std::string what;  // "syntax error" or "missing ')'"
};

class SyntaxTree {
 public:
  SyntaxTree(TsTreePtr tree, std::string_view bytes) : tree_(std::move(tree)), bytes_(bytes) {}
  // A tree of only these ranges of `bytes` (PythonParser::ParseRanges).
  SyntaxTree(TsTreePtr tree, std::string_view bytes, std::vector<TSRange> ranges)
      : tree_(std::move(tree)), bytes_(bytes), ranges_(std::move(ranges)) {}
  SyntaxTree(SyntaxTree&&) = default;
  SyntaxTree& operator=(SyntaxTree&&) = default;
  ~SyntaxTree();

  TSNode Root() const { return ts_tree_root_node(tree_.get()); }
  const TSTree* raw() const { return tree_.get(); }
  std::string_view bytes() const { return bytes_; }
  // Borrows `same` instead: a copy of the bytes the tree was parsed from,
  // stored elsewhere (byte for byte equal; the caller guarantees it).
  void Rebind(std::string_view same) { bytes_ = same; }
  bool HasError() const { return ts_node_has_error(Root()); }
  // The ranges parsed, when only some were (ParseRanges); empty when the
  // tree is the whole file's.
  const std::vector<TSRange>& ranges() const { return ranges_; }
  bool Partial() const { return !ranges_.empty(); }
  // The first problem in the tree, if any.
  std::optional<SyntaxProblem> FirstProblem() const;

  // Every node in document (pre-)order, and the positions in that list of
  // the nodes of one grammar symbol: our query matcher starts only at nodes
  // whose type a pattern names. Built on first use from one tree walk, so
  // one tree is queried by one thread at a time.
  struct Index {
    std::vector<TSNode> nodes;
    std::vector<std::vector<uint32_t>> by_symbol;
  };
  const Index& NodeIndex() const;

  // The root's children (the top-level statements, comments among them)
  // as byte ranges [begin, end), in order.
  using Span = std::pair<uint32_t, uint32_t>;
  const std::vector<Span>& StatementSpans() const;
  // NodeIndex for top-level statement `k` of StatementSpans() alone: its
  // subtree, itself first. Built on first use, like NodeIndex.
  const Index& StatementIndex(std::size_t k) const;

 private:
  TsTreePtr tree_;
  std::string_view bytes_;
  std::vector<TSRange> ranges_;
  mutable std::unique_ptr<Index> index_;
  mutable std::optional<std::vector<Span>> spans_;
  mutable std::vector<TSNode> statements_;                       // parallel to *spans_
  mutable std::vector<std::unique_ptr<Index>> statement_index_;  // parallel to *spans_
};

// A replacement of old bytes [offset, offset + length) by `text`.
struct ByteEdit {
  std::size_t offset = 0;
  std::size_t length = 0;
  std::string_view text;
};

// `bytes` with every CR that no LF follows replaced by an LF, when there is
// one; nullopt otherwise. Python ends a line at CR, LF or CRLF, but
// tree-sitter-python only at LF (and CRLF), so a CR-only file would not
// parse. The copy has the same length and offsets: PythonParser parses it
// in place of such bytes, while the tree keeps the real bytes, so captured
// text and every edit stay byte-exact.
std::optional<std::string> LoneCrAsLf(std::string_view bytes);

// `ranges` of old bytes moved to where `edits` (ascending, not overlapping)
// leave them in `bytes`, the new bytes; empty when an edit does not lie
// inside one range.
std::vector<TSRange> MovedRanges(const std::vector<TSRange>& ranges, std::string_view bytes,
                                 const std::vector<ByteEdit>& edits);

// Fills in the start and end points of `ranges` (ascending), whose bytes are
// set, as libtree-sitter counts rows and columns in `bytes`.
void SetPoints(std::string_view bytes, std::vector<TSRange>* ranges);

// One parser, reused for many files in a run. CR-only line ends parse as
// LF does (LoneCrAsLf).
class PythonParser {
 public:
  PythonParser();
  // The returned tree borrows `bytes`, which must outlive it.
  SyntaxTree Parse(std::string_view bytes);
  // The tree of `bytes`, which are `old`'s bytes with `edits` (ascending,
  // not overlapping) applied: libtree-sitter's incremental parse, which
  // reuses every subtree the edits leave alone. Of a partial tree, the tree
  // of its ranges as the edits moved them, or of the whole file when an
  // edit does not lie inside one range.
  SyntaxTree Reparse(const SyntaxTree& old, std::string_view bytes,
                     const std::vector<ByteEdit>& edits);
  // The tree of only these ranges of `bytes` (ascending, not overlapping),
  // parsed as if they were the whole file; nodes keep their real offsets.
  // No ranges: the whole file.
  SyntaxTree ParseRanges(std::string_view bytes, const std::vector<TSRange>& ranges);

 private:
  // Parses `bytes` (with `old`, edited to match, for an incremental parse)
  // in `ranges` only, or whole when there are none.
  SyntaxTree ParseIn(const TSTree* old, std::string_view bytes, std::vector<TSRange> ranges);

  TsParserPtr parser_;
};

}  // namespace muh
