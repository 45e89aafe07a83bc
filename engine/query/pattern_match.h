// Matching a ParsedQuery (query_ast.h) against a syntax tree, without
// libtree-sitter's query cursor.
//
// A match is one way to map the pattern onto a node and its descendants:
// every child pattern maps to a distinct child, in order, honouring fields,
// negated fields and anchors. Every mapping is a match, and mappings with
// identical captures at the same node count once. This is what
// libtree-sitter 0.20.7 reports for the subset query_ast.h accepts;
// pattern_match_test.cc and the fuzz_pattern_diff target compare the two.
#pragma once

#include <tree_sitter/api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "engine/python/syntax_tree.h"
#include "engine/query/hand_off.h"
#include "engine/query/query_ast.h"

namespace muh {

struct PatternCapture {
  uint32_t capture = 0;
  TSNode node;
};

struct PatternMatch {
  std::size_t pattern = 0;
  std::vector<PatternCapture> captures;  // in pattern order
};

// The work our matcher may do for one query on one tree, in steps: each
// attempt to map a pattern node onto a node, each step that assigns a child
// pattern to a child, and for each match it keeps kStepsPerKeptMatch plus
// its captures (the matches kept are what takes memory). A query whose
// unanchored sibling patterns meet a long list of children (`(module (_)
// (_) (_) (_) (_) (expression_statement))` on a file of 300 statements has
// C(300, 6) ways to match) stops there instead of exhausting memory. The
// budget grows with the tree: kMatchStepBudget plus kMatchStepsPerNode for
// each of its nodes. rules/bi100.yaml needs at most 3,088 steps for one
// query on one file of the real tree (each of its 17 queries over each of
// its 444 files, parsed whole, measured when the budget was set).
inline constexpr std::size_t kMatchStepBudget = 2'000'000;
inline constexpr std::size_t kMatchStepsPerNode = 32;
inline constexpr std::size_t kStepsPerKeptMatch = 8;

struct MatchWork {
  std::size_t budget = 0;  // 0: kMatchStepBudget + kMatchStepsPerNode * nodes of the tree
  std::size_t steps = 0;   // spent so far, over every call given this MatchWork
  bool exceeded = false;   // the budget ran out: the matches are incomplete
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
// Spends from `work`; when its budget runs out, stops, leaves `*out` empty,
// sets work->exceeded and returns HandOff::kNone. Starts from the tree's
// node index (SyntaxTree::NodeIndex), which a parse worker may build ahead.
HandOff MatchPatterns(const ParsedQuery& query, const SyntaxTree& tree, const AdmitFn& admit,
                      std::vector<PatternMatch>* out, MatchWork* work);

}  // namespace muh
