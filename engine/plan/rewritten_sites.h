// The sites a plan rewrites, and the checks that fail a rule at the first
// of them that cannot be proved to reach its kernel as written (a read
// that clamps it: changed_reads.h; a capability test the tree answers:
// capability_wraps.h).
#pragma once

#include <functional>
#include <optional>
#include <set>
#include <string>

#include "engine/base/diagnostic.h"
#include "engine/plan/plan_result.h"

namespace muh {

// Whether the rule writes another value at `site` (the plan's edits are
// not merged yet): not at its value, not a hand-tuned value kept.
bool Rewritten(const Site& site);

// For each rule of `plan` that manages something and has not failed: the
// first site it rewrites (a dead one only with `include_dead`) for which
// `check` gives a diagnostic fails it: the diagnostic, with the rule's id,
// joins the plan's, and the rule's status is kFailed. Returns the rules
// failed (the caller drops their edits).
using RewriteCheck = std::function<std::optional<Diagnostic>(const RuleOutcome&, const Site&)>;
std::set<std::string> FailAtFirstRewrite(PlanResult* plan, bool include_dead,
                                         const RewriteCheck& check);

}  // namespace muh
