// Compiled tree-sitter queries with predicates evaluated by us.
//
// libtree-sitter 0.20 parses `#eq?` and friends but leaves them to the
// caller. We support #eq?, #not-eq?, #match?, #not-match? and #any-of?; any
// other predicate is a compile error, never silently ignored. Matches leave
// this module as plain values (capture name, byte range, text).
//
// A query runs on our own matcher (query_ast.h, pattern_match.h) or on
// libtree-sitter's query cursor. Query::Run asks one function,
// MatchOrHandOff, which gives our matches or the reason (hand_off.h) that
// this query on this tree goes to libtree-sitter. A Query holds two compiled
// forms of its text: ours, built by Compile when the text is in our subset,
// and libtree-sitter's (tree_sitter_query.h), built by Compile when the
// text is not and on first use otherwise, since ts_query_new is slow and
// most queries never need it.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/python/syntax_tree.h"
#include "engine/query/hand_off.h"
#include "engine/query/pattern_match.h"
#include "engine/query/query_ast.h"
#include "engine/query/query_error.h"
#include "engine/query/site_query.h"
#include "engine/query/tree_sitter_query.h"

namespace muh {

// Query::Run throws QueryBudgetExceeded (site_query.h) when matching one
// tree would take more than our matcher's steps (pattern_match.h:
// kMatchStepBudget) or, on libtree-sitter's query cursor, more than
// kTreeSitterMatchLimit matches in progress at once (it would then drop
// matches silently) or more than kTreeSitterMaxMatches matches.
inline constexpr uint32_t kTreeSitterMatchLimit = 4096;
inline constexpr std::size_t kTreeSitterMaxMatches = 1'000'000;

// kAuto matches with our own engine (query_ast.h) when the query is in its
// subset, and with libtree-sitter's otherwise; kTreeSitter always uses
// libtree-sitter's (tests compare the two).
enum class QueryEngine { kAuto, kTreeSitter };

class Query : public SiteQuery {
 public:
  // Compiles `source` for the Python grammar. On failure returns nullptr and
  // fills `error` with the offset tree-sitter (or our predicate check) gave.
  static std::unique_ptr<Query> Compile(std::string_view source, QueryError* error,
                                        QueryEngine engine = QueryEngine::kAuto);
  ~Query() override;

  // Whether Compile(source) must run libtree-sitter's query compiler (the
  // text is outside our matcher's subset, or ill-formed): milliseconds over
  // the Python grammar, where our matcher's parse takes microseconds.
  static bool NeedsTreeSitterToCompile(std::string_view source);

  // All matches whose predicates hold, ordered by position in the file (then
  // by the ranges of their captures). Throws QueryBudgetExceeded rather
  // than return an incomplete list.
  std::vector<QueryMatch> Run(const SyntaxTree& tree) const override;

  // Builds now, on the calling thread, the node index that Run(tree)
  // starts matching from on our matcher, so that the worker that parsed
  // `tree` can build them; Run then only looks them up. Not thread-safe for
  // one tree: a tree is prepared by one thread at a time.
  void IndexFor(const SyntaxTree& tree) const override;

  // Capture names without '@', in the order the query declares them.
  const std::vector<std::string>& capture_names() const override { return capture_names_; }
  // The query text as written.
  const std::string& source() const { return tree_sitter_.source(); }

  // Literal strings every match needs to find in the file's bytes: each
  // inner group lists alternatives, and a file lacking every alternative of
  // some group cannot match. Drawn from #eq? and #any-of? against strings.
  std::vector<std::vector<std::string>> RequiredLiterals() const;

  // False only when no pattern can match a file of these bytes: each
  // needs a literal of its #eq?/#any-of? predicates that they lack.
  bool MayMatchBytes(std::string_view bytes) const;

  // The same groups, each flagged when the capture it names can only be an
  // identifier.
  std::vector<LiteralGroup> RequiredLiteralGroups() const override;

  // Whether libtree-sitter's query cursor runs this query on every tree
  // (HandOff::kOutsideSubset or kTreeSitterRequested). Even when not, a tree
  // with syntax errors, or one on which the two could differ (hand_off.h),
  // goes to libtree-sitter.
  bool UsesTreeSitterMatcher() const;

  // Whether every match lies inside one top-level statement of the file:
  // the query is on our matcher and each pattern's root can only be a node
  // other than `module` (a named type, an anonymous token, or an
  // alternation of those). Matches, and the captures that hold the required
  // literals, then never reach past that statement, and the whole-tree
  // search may parse only the statements holding the literals
  // (statement_excerpt.h). False for anything else.
  bool InsideOneStatement() const override;

  // For a query on our matcher: libtree-sitter's compile error for it, if
  // any. Our parser does not analyse the grammar, so a pattern that can never
  // match ("impossible pattern structure") loads; a rule that then finds
  // nothing asks this to say why (compiling libtree-sitter's form if no tree
  // has yet). Always nullopt on libtree-sitter's matcher.
  std::optional<QueryError> StructureProblem() const override;

  // The part of the query that still matches, and where (no_match.h).
  std::optional<NoMatchReason> ExplainNoMatch(const SyntaxTree& tree) const override;

  struct Predicate;

 private:
  Query(std::string_view source, QueryEngine engine);

  // Sets `*ours` to our matcher's matches of `tree` and returns
  // HandOff::kNone, or returns why libtree-sitter's query cursor must match
  // `tree` instead. The one place that decides.
  HandOff MatchOrHandOff(const SyntaxTree& tree, std::vector<PatternMatch>* ours,
                         MatchWork* work) const;

  // RequiredLiteralGroups, with the identifier flags worked out only when
  // asked (RequiredLiterals runs on every file the search reads).
  std::vector<LiteralGroup> LiteralGroups(bool flag_identifiers) const;
  // Pattern i's groups alone.
  std::vector<LiteralGroup> PatternLiteralGroups(std::size_t i, bool flag_identifiers) const;

  // What QueryBudgetExceeded says: the query's first line and `limit`.
  std::string OverBudget(const std::string& limit) const;

  // libtree-sitter's matches of `tree`, unordered.
  std::vector<QueryMatch> RunTreeSitter(const SyntaxTree& tree) const;

  const QueryEngine engine_;
  const TreeSitterQuery tree_sitter_;    // libtree-sitter's form of the text
  std::optional<ParsedQuery> patterns_;  // ours: nullopt off our subset or on kTreeSitter
  std::vector<std::string> capture_names_;
  std::vector<std::vector<Predicate>> predicates_;  // per pattern
};

}  // namespace muh
