// A code pattern compiled (code_pattern.h): a tree of nodes that the
// pattern matcher (pattern_matcher.h) walks against a parsed file's nodes.
// The snippet's named nodes become nodes of their type, its leaves nodes
// pinned to their text, its metavariables and `$$$` nodes of their own
// kinds; `inside:` and `tiers:` wrap the tree in more nodes. Captures are
// numbered: `captures` names them, the user's metavariables and the
// pattern's own (`_pN`: a pinned leaf, or a metavariable written again).
#pragma once

#include <tree_sitter/api.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace re2 {
class RE2;
}

namespace muh {

inline constexpr uint32_t kNoCapture = static_cast<uint32_t>(-1);

struct PatternNode {
  enum class Kind {
    // A named node of `type` (any named node when `type` is empty); a leaf
    // of the snippet also by its text (a kEquals constraint on `capture`).
    kNode,
    // An anonymous token that says something the node type does not (an
    // operator, `and`, `not in`): by type.
    kToken,
    // `$NAME` or `$_`: any named node (in a string, its content).
    kMetavariable,
    // `$$$`: a run of zero or more siblings.
    kRun,
    // One of `children`, each tried in order.
    kEither,
    // `inside:`'s body: one of `children` (the pattern's alternatives) as a
    // child of the node, or below one at most kInsideDepth nodes down; a
    // child's `min_depth` 1 keeps an expression from standing as a statement.
    kAnyDepth,
  };
  Kind kind = Kind::kNode;
  std::string type;
  std::vector<bool> symbols;  // kNode, kToken, kMetavariable in a string: the grammar's symbols
  TSFieldId field = 0;        // the field it must sit in; 0: any or none
  std::string capture;        // the capture it binds, or empty
  uint32_t capture_id = kNoCapture;
  // kNode: its children in order with no other named node between them
  // (an unordered node's children come in order with others allowed between).
  bool ordered = false;
  int min_depth = 0;  // a child of kAnyDepth
  std::vector<PatternNode> children;
  // Where it was written, in the pattern or `inside:` as the user wrote it
  // (both empty for nodes the compiler adds): for messages.
  std::string source;
};

// A test on captured text (`where:`, a pinned leaf, a metavariable twice).
struct PatternConstraint {
  enum class Kind { kEquals, kSameAs, kRegex, kAnyOf };
  Kind kind = Kind::kEquals;
  std::string capture;
  std::string other;  // kSameAs
  uint32_t capture_id = 0;
  uint32_t other_id = 0;
  std::vector<std::string> texts;  // kEquals: one; kAnyOf: several; kRegex: the expression
  std::shared_ptr<const re2::RE2> regex;
};

// One pattern to match: alternatives that cannot share one tree compile to
// several.
struct PatternTree {
  PatternNode root;
  std::vector<PatternConstraint> constraints;
  std::vector<std::string> captures;  // by id, in order of first appearance in the tree
  std::string source;                 // the pattern as written, for messages
};

// The symbols of the Python grammar named `type`, named or anonymous
// (aliases share a name), indexed by symbol.
std::vector<bool> SymbolsNamed(const std::string& type, bool named);

// Numbers `tree`'s captures (capture_id, constraints' ids, `captures`) in
// order of first appearance.
void FinishPatternTree(PatternTree* tree);

}  // namespace muh
