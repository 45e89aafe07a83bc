// Matching a compiled code pattern (pattern_node.h) against a parsed file:
// the pattern's nodes walk the file's syntax nodes directly.
//
// A match is one way to map the pattern's root onto a node and its
// children onto that node's children: each child pattern maps to a distinct
// child, in order, in its field when it names one; an ordered node's
// children take the next named child each (`$$$` lets others come between,
// and the last must be the last named child unless a `$$$` follows it);
// tokens take an anonymous child of their type. Every mapping is a match,
// mappings with the same captures at the same node count once, and a match
// whose captures fail a constraint is none.
#pragma once

#include <tree_sitter/api.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "engine/pattern/pattern_node.h"
#include "engine/python/syntax_tree.h"

namespace muh {

struct PatternBinding {
  uint32_t capture = 0;  // PatternTree::captures' index
  TSNode node;
};

struct PatternTreeMatch {
  std::size_t tree = 0;  // which of the trees matched
  std::vector<PatternBinding> captures;
};

// The work one pattern may do on one tree, in steps (each node tried, each
// child assigned, and for each match kept 8 plus its captures): kPatternStepBudget
// plus kPatternStepsPerNode for each node of the tree. A pattern that would
// need more stops rather than exhaust memory.
inline constexpr std::size_t kPatternStepBudget = 2'000'000;
inline constexpr std::size_t kPatternStepsPerNode = 32;

// Sets `*out` to every match of every tree in `trees` in `tree`: by tree,
// then in document order of the node each match starts at. False, with
// `*out` empty, when the budget ran out (`*budget` says what it was).
bool MatchPatternTrees(const std::vector<PatternTree>& trees, const SyntaxTree& tree,
                       std::vector<PatternTreeMatch>* out, std::size_t* budget);

}  // namespace muh
