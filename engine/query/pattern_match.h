// Matching a PatternQuery (pattern.h) against a syntax tree, without
// libtree-sitter's query cursor.
//
// A match is one way to map the pattern onto a node and its descendants:
// every child pattern maps to a distinct child, in order, honouring fields,
// negated fields and anchors. Every mapping is a match, and mappings with
// identical captures at the same node count once. This is what
// libtree-sitter 0.20.7 reports for the subset pattern.h accepts;
// pattern_match_test.cc and the fuzz_pattern_diff target compare the two.
#pragma once

#include <tree_sitter/api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "engine/python/syntax_tree.h"
#include "engine/query/hand_off.h"
#include "engine/query/pattern.h"

namespace muh {

struct PatternCapture {
  uint32_t capture = 0;
  TSNode node;
};

struct PatternMatch {
  std::size_t pattern = 0;
  std::vector<PatternCapture> captures;  // in pattern order
};

// Called as soon as a capture is bound; returning false drops every match
// that would bind it (a single-capture predicate failed). May be empty.
using AdmitFn = std::function<bool(std::size_t pattern, uint32_t capture, TSNode node)>;

// Sets `*out` to every match of every pattern of `query` in `tree`, by
// pattern, then in document order of the node each match starts at, and
// returns HandOff::kNone. Where libtree-sitter's matches could differ from
// ours (kSyntaxErrors, kFirstCandidateStep, kAnchorAmongSemicolonStatements)
// it returns that reason instead, may stop early and leaves `*out` empty:
// the caller asks libtree-sitter. Grammar symbols come from `query.language`.
HandOff MatchPatterns(const PatternQuery& query, const SyntaxTree& tree, const AdmitFn& admit,
                      std::vector<PatternMatch>* out);

}  // namespace muh
