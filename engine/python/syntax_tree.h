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
  SyntaxTree(TsTreePtr tree, std::string_view bytes);
  SyntaxTree(SyntaxTree&&) = default;
  SyntaxTree& operator=(SyntaxTree&&) = default;
  ~SyntaxTree();

  TSNode Root() const { return ts_tree_root_node(tree_.get()); }
  const TSTree* raw() const { return tree_.get(); }
  std::string_view bytes() const { return bytes_; }
  // Borrows `same` instead: a copy of the bytes the tree was parsed from,
  // stored elsewhere (byte for byte equal; the caller guarantees it).
  void Rebind(std::string_view same) { bytes_ = same; }
  // An ERROR or MISSING node, or a statement the grammar reads otherwise
  // than CPython does, or accepts what CPython rejects (Misread, FoldedName,
  // KeywordAsName in syntax_tree.cc): the tree is no proof.
  bool HasError() const { return ts_node_has_error(Root()) || misread_.has_value(); }
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

 private:
  TsTreePtr tree_;
  std::string_view bytes_;
  std::optional<SyntaxProblem> misread_;
  mutable std::unique_ptr<Index> index_;
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

// A PEP 263 coding declaration in the first line, or in the second after a
// comment or blank first line, naming an encoding whose reading of these
// bytes may differ from UTF-8's: CPython decodes the file with it, and a
// tree of such bytes is no proof (SyntaxTree::HasError). nullopt for none,
// for the UTF-8 family, and, for a file of ASCII bytes only, for the
// encodings that read ASCII as ASCII.
std::optional<SyntaxProblem> ForeignEncoding(std::string_view bytes);

// Whether a byte past ASCII in `bytes` may stand in a name (the parse's
// FoldedName problem): false only when every such byte lies in a comment
// or a string literal other than an f-string, as a scan of quotes and `#`
// finds them; a BOM counts as none. A prefilter: where it says false, a
// parse of part of the file cannot miss such a name further on; where it
// is unsure, it says true.
bool MayHoldFoldedName(std::string_view bytes);

// One parser, reused for many files in a run. CR-only line ends parse as
// LF does (LoneCrAsLf).
class PythonParser {
 public:
  PythonParser();
  // The returned tree borrows `bytes`, which must outlive it.
  SyntaxTree Parse(std::string_view bytes);
  // The tree of `bytes`, which are `old`'s bytes with `edits` (ascending,
  // not overlapping) applied: libtree-sitter's incremental parse, which
  // reuses every subtree the edits leave alone.
  SyntaxTree Reparse(const SyntaxTree& old, std::string_view bytes,
                     const std::vector<ByteEdit>& edits);

 private:
  TsParserPtr parser_;
};

}  // namespace muh
