// Where a rule's knob is: each kind of site (muhpatch-rules(5): `query`,
// `pattern`, `tiers`, `value-of`, ...) is one Finder. A checked rule holds
// the finder its keys were checked into (finder_kind.h); the finder finds
// the rule's sites in a parsed file, each with what the rule writes there.
// The planner plans the sites a rule's finder finds in the rule's files,
// and verify's whole-tree search asks the same finder in every other file
// that holds its query's literals: where one finds a site, so does the
// other. Pure.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/model/tier_bound.h"
#include "engine/python/syntax_tree.h"
#include "engine/query/site_query.h"
#include "engine/rules/template.h"

namespace muh {

// One site a finder found in a file, with what the rule writes there; or a
// candidate that is no site, and why.
struct SiteMatch {
  enum class Kind {
    kSite,     // a site to plan
    kShown,    // shown where it is, never rewritten (a computed tier bound); `message` a note
    kProblem,  // no site after all (a tier in no chain); `message` an error, the rule fails
  };
  Kind kind = Kind::kSite;
  // The captures the rule's templates may name, `target` among them.
  QueryMatch match;
  std::string target;
  // Where the whole-tree search names it: the query match's first byte, or
  // the value's.
  std::size_t at = 0;
  // kShown, kProblem: the message, after the rule's name ("rule 'ID'" +
  // message), at byte `message_at`; a problem said already has none.
  std::string message;
  std::size_t message_at = 0;
  // What the rule writes there: null for the rule's `with:`.
  const Template* with = nullptr;
  // What the site holds upstream: nullopt for the rule's `upstream:`.
  std::optional<std::string> upstream;
  // The rule's `pin:` decides the value (not a tier's bound's).
  bool pinned = true;
  // A tier's value: its position in its chain, and the chain's tiers (a
  // `pin:` list pins it by position).
  int tier_index = -1;
  int tier_count = 0;
  // A `value-of` value: written on the rule's path only. When the other
  // path shares it, `path_condition` is the condition as the tree writes
  // it, true on the rule's path when `path_condition_true`
  // (reaching_values.h: OnThisPath).
  bool path_only = false;
  std::string path_condition;
  bool path_condition_true = false;
  // The value is an operand of a larger expression: the wrap goes in brackets.
  bool path_operand = false;
  // A `tiers:` site: which tier or bound of its chain, and the range the
  // code gives it ("tier 2 of 3: 64 < numel <= 1024").
  std::string tier;
  // A tier's value: the module-level constants its chain's bounds are
  // computed from (the plan asks the tree whether another module rebinds
  // one), each with the byte where its bound starts.
  std::vector<BoundConstant> bound_constants;
  // One of the matches the rule's `expect:` counts and the whole-tree search
  // reports (not a tier's bound, nor a message about the chain).
  bool counted = true;
  // Planned even when the sites before it left the rule without a value: a
  // tier's bounds after its value, the chain's messages at the end.
  bool continues = false;
};

struct FoundSites {
  std::vector<SiteMatch> sites;  // in the order they are planned
  // The rule can have no site in the file (a `value-of` question without an
  // answer): why, after the rule's name, at byte `lost_at`; the rule fails.
  std::string lost;
  std::size_t lost_at = 0;
  // The planner lists the sites found in file order (a tier family's bounds
  // among its tiers).
  bool in_file_order = false;
};

class Finder {
 public:
  explicit Finder(std::shared_ptr<const SiteQuery> query) : query_(std::move(query)) {}
  virtual ~Finder() = default;
  // The query or compiled pattern the sites come from, or whose matches are
  // their candidates: the whole-tree search looks only in the files that
  // hold its literals (SiteQuery::RequiredLiteralGroups), the planner
  // indexes it for each file before it asks, and explains with it where it
  // finds nothing.
  const std::shared_ptr<const SiteQuery>& query() const { return query_; }
  // The sites in `tree`. May throw QueryBudgetExceeded.
  virtual FoundSites Find(const SyntaxTree& tree) const = 0;

 private:
  std::shared_ptr<const SiteQuery> query_;
};

}  // namespace muh
