// What a rule's finder (rules/finder.h) runs over a parsed file to find its
// candidates: a query written by hand (query.h, the escape hatch) or a
// compiled code pattern (rules/pattern_query.h). Both give their matches
// as plain values (capture name, byte range, text), in file order, and
// tell the whole-tree search and the planner what they need to know
// without running.
#pragma once

#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "engine/python/syntax_tree.h"
#include "engine/query/query_error.h"

namespace muh {

struct Capture {
  std::string name;
  std::size_t begin = 0;  // byte range in the file
  std::size_t end = 0;
  std::string text;
  std::string node_type;  // e.g. "integer", "call"
};

struct QueryMatch {
  std::vector<Capture> captures;  // in the order the matcher bound them
  // The first capture named `name`, or nullptr.
  const Capture* Find(std::string_view name) const;
  // Smallest start byte among the captures.
  std::size_t Begin() const;
};

// Thrown by Run when matching one tree would take more than the matcher's
// budget (query.h, pattern_matcher.h). what() names the query or pattern and
// the limit; the caller locates it (the planner at the rule, which then
// fails; the whole-tree search at the file).
class QueryBudgetExceeded : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Why a query or pattern that found nothing in a tree finds nothing
// (no_match.h): the innermost part that does not match, and its direct
// sub-part that does and where.
struct NoMatchReason {
  // The innermost part that does not match, on one line.
  std::string failing_part;
  // Its direct sub-part that does match somewhere; empty when none does
  // (then `failing_part` itself is absent from the file).
  std::string matching_part;
  std::vector<std::size_t> matching_at;  // byte offsets where its matches start, in order
};

class SiteQuery {
 public:
  virtual ~SiteQuery() = default;

  // All matches, ordered by position in the file (then by the ranges of
  // their captures). Throws QueryBudgetExceeded rather than return an
  // incomplete list.
  virtual std::vector<QueryMatch> Run(const SyntaxTree& tree) const = 0;

  // Builds now, on the calling thread, whatever Run(tree) looks up (the
  // tree's node index), so that the worker that parsed `tree` builds it.
  virtual void IndexFor(const SyntaxTree& tree) const = 0;

  // Capture names without '@', in order of first appearance.
  virtual const std::vector<std::string>& capture_names() const = 0;
  bool HasCapture(std::string_view name) const;

  // Literal strings every match needs to find in the file's bytes: each
  // group lists alternatives, and a file lacking every alternative of some
  // group cannot match. `identifier` when the capture it names can only be
  // an identifier, whose text no letter, digit or underscore touches in
  // the source (Python's lexer never splits a name).
  struct LiteralGroup {
    std::vector<std::string> texts;
    bool identifier = false;
  };
  virtual std::vector<LiteralGroup> RequiredLiteralGroups() const = 0;

  // Whether every match lies inside one top-level statement of the file,
  // so that the whole-tree search may parse only the statements holding
  // the required literals (statement_excerpt.h).
  virtual bool InsideOneStatement() const = 0;

  // Why it can never match, when its compiler can tell only once it finds
  // nothing (query.h); nullopt otherwise.
  virtual std::optional<QueryError> StructureProblem() const = 0;

  // Why it finds nothing in `tree`, where it found nothing; nullopt when it
  // cannot say.
  virtual std::optional<NoMatchReason> ExplainNoMatch(const SyntaxTree& tree) const = 0;
};

// Sorts matches into file order: by first byte, then by every capture's
// range.
void SortMatches(std::vector<QueryMatch>* matches);

}  // namespace muh
