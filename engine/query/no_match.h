// Why a query finds nothing in a tree, for "found 0" messages that help a
// user rebase a rule: the query is cut into its node patterns, and the
// search goes from the whole pattern down to the first part that still
// matches somewhere. The answer names that part, where it matches, and the
// enclosing part that no longer does ("the knob is still there, but not in
// this shape"); or, when no part matches at all, the smallest part that is
// gone. Predicates go with the part that binds every capture they name.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "engine/python/syntax_tree.h"
#include "engine/query/query.h"

namespace muh {

// Explains why `query` (which found nothing in `tree`) finds nothing.
// nullopt when it cannot say (a query it cannot cut into parts).
std::optional<NoMatchReason> ExplainQueryNoMatch(const Query& query, const SyntaxTree& tree);

// The node patterns of a query text, outermost first: each as its own
// query text (the node with its captures, grouped with the predicates whose
// captures it binds) and the indexes of its direct sub-patterns. Exposed
// for tests.
struct QueryPart {
  std::string text;       // compilable on its own
  std::string shown;      // the node pattern and its predicates, on one line, shortened
  bool wildcard = false;  // `(_)` without predicates: never named as the part that matches
  bool anchored = false;  // holds a predicate: it names the knob, not just a shape
  std::vector<std::size_t> children;
};
std::vector<QueryPart> QueryParts(std::string_view source);

}  // namespace muh
