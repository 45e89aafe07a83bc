// What a plan found: each rule's status, its sites and what it would write
// there, and the edits and new contents of the rules that planned cleanly;
// the status names and the one-line summary.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/liveness/liveness_types.h"
#include "engine/model/tier_bound.h"
#include "engine/plan/edit.h"

namespace muh {

enum class RuleStatus {
  kRewrites,        // the rule produced at least one edit
  kAlreadyApplied,  // every site already holds the rule's value
  kSkipped,         // an optional precondition was not met
  kNoValue,         // the model has no valid value for the knob (a note says why)
  kFailed,          // an error was reported for it; none of its edits is kept
  kDead,            // every site is dead code on the served platform: left alone
  // No edit, and a site holds a value tuned by hand, kept (Site::kept);
  // the others, if any, are at the rule's value.
  kHandTuned,
  // The rule is `retired:` and finds none of its sites: the knob is gone
  // upstream (a note says why).
  kRetired,
};

// "rewrites", "at value", "skipped", "no value", "failed", "dead", "hand-tuned",
// "retired".
const char* RuleStatusName(RuleStatus s);
// Whether `name` is RuleStatusName of some status.
bool IsRuleStatusName(std::string_view name);
// Every status's name, comma-separated, in the enum's order.
std::string RuleStatusNames();

// Whether a rule in state `s` manages nothing in the tree (skipped by its
// precondition, or without a model value): its matches outside its files
// are not drift, and verify need not look for them.
bool ManagesNothing(RuleStatus s);

// Whether a site's code runs on the served platform, and why: one sentence
// with its evidence as `file:line` places.
struct SiteVerdict {
  Liveness state = Liveness::kUnknown;
  std::string reason;
  std::vector<std::string> assumptions = {};  // SiteLiveness::assumptions
};

// Who chose a value that reaches a kernel (value_gate.h).
enum class ValueOrigin {
  kModel,  // the model's derivation, or a measurement it took
  kPin,    // the rule's `pin:` (or its tier's)
  kKept,   // a hand-tuned value kept at the site
  kRule,   // the rule's `with:` itself, which names no knob of the model
};

// A value a rule writes or keeps at a site that its knob's kernel does not
// take (value_gate.h): who chose it, and the constraint it breaks.
struct OutsideDomain {
  ValueOrigin origin = ValueOrigin::kModel;
  std::string value;
  std::string problem;
  // The value passes as written, and the code changes it before the kernel
  // gets it (value_gate.h's CheckReached): `problem` says where.
  bool by_code = false;
  // For a pin: where it is in the rule file, and its `unchecked:` reason.
  int pin_line = 0;
  int pin_column = 0;
  std::string unchecked;
};

// One place a rule found: the target capture's bytes and what the rule
// would write there (equal to `current` when the site is at its value).
struct Site {
  std::string path;
  std::size_t begin = 0;
  std::size_t end = 0;
  int line = 0;
  int column = 0;
  std::string current;
  std::string wanted;
  bool deletes = false;  // a `delete:` rule: the lines go
  // The rule states `upstream:` and the site holds neither that value nor
  // the rule's (its pin or the model's) nor one muhpatch wrote (--patch):
  // someone tuned it by hand.
  bool hand_tuned = false;
  // A hand-tuned site left alone: the rule has no `retune: true` and the
  // run no --retune. `why` then holds the derivation of the value not written.
  bool kept = false;
  // The site holds a `+` line of --patch FILE: muhpatch wrote its value.
  bool ours = false;
  std::string upstream;  // the rule's `upstream:` value, when it states one
  // When the rule pins its value (`pin:`): the reason, and the model's own
  // value beside it (`wanted` is the pin).
  std::string pin_reason;
  // The values the rule writes or keeps here that its knob's kernel does
  // not take (value_gate.h decides what each does).
  std::vector<OutsideDomain> outside_domain;
  std::string model;
  std::string why;
  // The liveness analysis's verdict (Plan's `liveness`); none when none ran.
  std::optional<SiteVerdict> liveness;
  bool Is(Liveness state) const { return liveness && liveness->state == state; }
  // "live", "dead", "unknown", or `none` when no analysis ran.
  const char* LivenessShown(const char* none) const {
    return liveness ? LivenessName(liveness->state) : none;
  }
  const std::string& LivenessReason() const;
  // A `tiers:` rule's site: which tier or bound of its chain, and the range
  // the code gives it ("tier 2 of 3: 64 < numel <= 1024"); a tier's value
  // its position in the chain (from 0; -1 otherwise).
  std::string tier;
  int tier_index = -1;
  // A tier's value: the module-level constants its chain's bounds read
  // (SiteMatch's), which another module may rebind (rebound_constants.h).
  std::vector<BoundConstant> bound_constants;
};

struct RuleOutcome {
  std::string rule_id;
  RuleStatus status = RuleStatus::kFailed;
  int sites = 0;      // matches found
  int edits = 0;      // edits that change bytes
  bool lost = false;  // a file in scope had no site at all (the knob may have moved)
  // The target of every match, in file order; for a rule its precondition
  // skipped too, unplanned (`wanted` empty, the count unchecked).
  std::vector<Site> found;
  // For kSkipped, kNoValue and kRetired: the note that says why.
  std::string reason;
  // Where the rule's state was decided, when a precondition decided it: the
  // first match of a met `present:` query, or the site that blocked it.
  std::optional<Diagnostic> decided_at;
};

// A rule that fails keeps none of its edits, and the other rules still
// plan: `edits` and `new_contents` hold the rules that planned cleanly.
struct PlanResult {
  std::map<std::string, std::vector<Edit>> edits;   // by path, sorted
  std::map<std::string, std::string> new_contents;  // only files that change
  std::vector<RuleOutcome> outcomes;                // in rule order
  std::vector<Diagnostic> diagnostics;              // errors and skip notes
  // Made with --include-dead: dead sites are rewritten like live ones. The
  // patch's preamble says so (render_patch.h), for its verify and refresh.
  bool include_dead = false;
  bool ok() const { return !HasErrors(diagnostics); }
  // Whether any rule failed (its errors are in `diagnostics`).
  bool AnyFailed() const;
  const RuleOutcome* Find(const std::string& rule_id) const;
  // The first error reported about `rule_id`; null when none is.
  const Diagnostic* FirstError(const std::string& rule_id) const;
};

// A skipped or valueless rule's `reason` without its leading "rule 'ID'
// skipped: ", for a row or a line that names the rule already.
std::string ReasonWithoutRule(const RuleOutcome& o);

// "17 rules: 8 rewrite, 5 already at their value, 4 skipped" (and, when
// there are any, ", 1 dead, 2 hand-tuned sites kept, 1 without a valid
// value, 2 failed"; a rule whose sites are at value or kept by hand counts
// only among the kept sites)
std::string PlanSummary(const PlanResult& plan);

}  // namespace muh
