// Why a query finds nothing in a tree, for "found 0" messages that help a
// user rebase a rule: the query is cut into its node patterns, and the
// search goes from the whole pattern down to the first part that still
// matches somewhere. The answer names that part, where it matches, and the
// enclosing part that no longer does ("the knob is still there, but not in
// this shape"); or, when no part matches at all, the smallest part that is
// gone. Predicates go with the part that binds every capture they name.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/python/syntax_tree.h"
#include "engine/query/query.h"

namespace muh {

// One part of what found nothing (a node pattern of a query, a node of a
// code pattern), for the search below.
struct NoMatchPart {
  std::string shown;      // on one line, shortened
  bool wildcard = false;  // any node, unconstrained: never named as the part that matches
  bool anchored = false;  // constrained (a predicate): it names the knob, not just a shape
  std::vector<std::size_t> children;
};

// The search from part `k` down: the failure lies in the first sub-part
// that matches nowhere; when every sub-part matches somewhere on its own,
// in how this part puts them together. A part holding a predicate names the
// knob itself (a name, a key), so an explanation that shows one where it
// still is beats one that shows a bare shape matching all over the file.
// `matches_of(c)`: where part c's matches start in the tree (nullopt when
// it cannot run).
std::optional<NoMatchReason> DescendParts(
    const std::vector<NoMatchPart>& parts, std::size_t k,
    const std::function<std::optional<std::vector<std::size_t>>(std::size_t)>& matches_of);

// Explains why `query` (which found nothing in `tree`) finds nothing.
// nullopt when it cannot say (a query it cannot cut into parts).
std::optional<NoMatchReason> ExplainQueryNoMatch(const Query& query, const SyntaxTree& tree);

// The node patterns of a query text, outermost first: each as its own
// query text (the node with its captures, grouped with the predicates whose
// captures it binds) and the indexes of its direct sub-patterns. Exposed
// for tests.
// `shown` is the node pattern and its predicates; `wildcard` a `(_)`
// without predicates.
struct QueryPart : NoMatchPart {
  std::string text;  // compilable on its own
};
std::vector<QueryPart> QueryParts(std::string_view source);

}  // namespace muh
