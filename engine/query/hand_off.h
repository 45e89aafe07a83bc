// Why libtree-sitter's query cursor, not our matcher (pattern_match.h),
// matches a query against a tree.
//
// Our matcher gives libtree-sitter 0.20.7's matches only where it can be
// sure of them. Each reason below names a behaviour of libtree-sitter that
// it does not reproduce; where one applies, the query and tree go to
// libtree-sitter whole. Query::Run is the one place that acts on a reason.
#pragma once

#include <string_view>

namespace muh {

enum class HandOff {
  // Our matcher's matches are libtree-sitter's.
  kNone,
  // The query was compiled with QueryEngine::kTreeSitter.
  kTreeSitterRequested,
  // The query text uses a construct our parser leaves to libtree-sitter
  // (query_ast.h lists the subset), for every tree.
  kOutsideSubset,
  // The tree holds ERROR, MISSING or zero-width nodes from error recovery,
  // which libtree-sitter's cursor sees in ways we do not copy.
  kSyntaxErrors,
  // A step without captures that libtree-sitter may commit to its first
  // candidate sibling (QueryChild::may_take_first_candidate_only) has
  // several candidates in this tree.
  kFirstCandidateStep,
  // An anchored pattern meets `a; b` statements, which libtree-sitter scopes
  // by the hidden node that holds them (a statement before `;` counts as a
  // last child).
  kAnchorAmongSemicolonStatements,
};

// A short description for logs, e.g. "the tree has syntax errors".
std::string_view HandOffReason(HandOff why);

}  // namespace muh
