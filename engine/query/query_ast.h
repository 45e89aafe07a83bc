// The parsed form (the syntax tree) of tree-sitter query text, for the
// subset we match ourselves (pattern_match.h): a query written by hand
// (`query:` in a rule, a precondition) reads into this.
//
// libtree-sitter 0.20.7's ts_query_new analyses every pattern against the
// grammar's whole parse table: 2-11 ms a query over Python, about 100 ms of
// CPU for rules/bi100.yaml, and its query cursor then spends more time than
// the parser on our block-rooted patterns. Queries in this subset skip both.
//
// The subset: node patterns `(type ...)` and `(_ ...)`, the wildcard `_`,
// anonymous nodes `"if"`, fields `name: pattern`, negated fields `!name`,
// anchors `.`, alternations `[a b]` whose branches all bind the same
// captures, captures `@name`, predicates `(#name operand...)` and the group
// `((pattern) @c (#pred ...))`, one pattern per query, and `. (comment)* .`
// between a child (or a node's start) and an anchored next child, which
// lets that child pass over comments (QueryChild::skippable). Other
// quantifiers (and `*` before a node's end), a closing anchor after an
// alternation, sibling sequences, top-level alternations,
// several patterns, a root `(_ child...)`, supertypes, `(ERROR)`/`(MISSING)` and anything unusual
// are left to libtree-sitter: ParseQuery returns nullopt, the caller's HandOff::kOutsideSubset, and
// the caller compiles the text with ts_query_new instead, which also produces every error message.
// So this parser never reports an error itself.
#pragma once

#include <tree_sitter/api.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace muh {

struct QueryNode;

struct QueryChild {
  TSFieldId field = 0;     // 0: any field or none
  bool immediate = false;  // an anchor `.` precedes it
  // After `. (comment)* .`: the symbols (indexed by symbol id) of the named
  // siblings this immediate step may pass over; empty for none.
  std::vector<bool> skippable;
  // libtree-sitter does not try later siblings for a step without captures
  // unless its analysis of the grammar says the step's children may fail to
  // match. Such a step (one with children, or one followed by an anchored
  // step) may take only its first candidate sibling; when a node offers it
  // more than one, the matcher hands the tree to libtree-sitter
  // (HandOff::kFirstCandidateStep).
  bool may_take_first_candidate_only = false;
  std::vector<QueryNode> node;  // exactly one (a vector: QueryNode is incomplete here)
};

struct QueryNode {
  enum class Kind { kNamed, kAnyNamed, kAny, kAnonymous, kAlternation };
  Kind kind = Kind::kNamed;
  // kNamed / kAnonymous: the grammar symbols with this name (aliases share
  // a name), indexed by symbol id.
  std::vector<bool> symbols;
  std::vector<uint32_t> captures;    // capture ids on this node
  std::vector<TSFieldId> negated;    // `!field`: must be absent
  std::vector<QueryChild> children;  // node kinds
  bool anchored_last = false;        // a `.` after the last child
  std::vector<QueryNode> branches;   // kAlternation
};

struct QueryOperand {
  bool is_capture = false;
  uint32_t capture = 0;
  std::string text;  // string operand, escapes resolved
};

struct QueryPredicate {
  std::string name;  // without '#', e.g. "eq?"
  std::vector<QueryOperand> operands;
};

struct QueryPattern {
  QueryNode root;
  std::size_t start = 0;  // byte offset of the pattern in the query text
  std::vector<QueryPredicate> predicates;
  // Captures bound in every match of this pattern (not only in some
  // alternation branches).
  std::vector<bool> required_captures;
};

struct ParsedQuery {
  const TSLanguage* language = nullptr;  // the grammar of every symbol and field id below
  std::vector<QueryPattern> patterns;
  std::vector<std::string> capture_names;  // ids in order of first appearance
};

// The patterns of `source` when every construct is in the subset and every
// name is known to `language`; nullopt otherwise.
std::optional<ParsedQuery> ParseQuery(std::string_view source, const TSLanguage* language);

// Whether every node capture `c` of `p` is on can only be an identifier
// (whose text, in valid Python, no other identifier character touches).
bool CapturesOnlyIdentifiers(const QueryPattern& p, const TSLanguage* language, uint32_t c);

}  // namespace muh
