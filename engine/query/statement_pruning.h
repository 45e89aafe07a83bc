// What a partial parse that leaves out statements inside a top-level
// statement (statement_choice.h) can change, read from a pattern.
//
// Leaving statements out of a `block` changes only that block's children
// and the byte ranges of it and its ancestors; every kept statement parses
// to the same subtree. A match is therefore found alike when
//   - no pattern node that may match a block, or a node holding one (a
//     statement, a clause, a definition), is captured, unless an ancestor
//     pattern node can match only nodes that hold no block (an expression);
//   - a pattern node that may match a block has no negated field, no anchor
//     at either end, and each child pattern holds a capture whose text a
//     required literal names, so its witness is a statement the choice
//     keeps (with anchors between children: the choice keeps a run), be it
//     the root or not.
// The caller checks that the query is statement-local (Query::StatementLocal):
// a `module` root then has one uncaptured child and no anchors, so leaving
// out top-level statements changes nothing it looks at either.
#pragma once

#include <cstdint>
#include <vector>

#include "engine/query/pattern.h"

namespace muh {

// Whether `p`'s matches survive the choice; `literal_captures[c]` says
// whether capture c's text is named by a required literal.
bool SurvivesStatementPruning(const Pattern& p, const TSLanguage* language,
                              const std::vector<bool>& literal_captures);

// Whether every node capture `c` of `p` is on can only be an identifier.
bool CapturesOnlyIdentifiers(const Pattern& p, const TSLanguage* language, uint32_t c);

}  // namespace muh
