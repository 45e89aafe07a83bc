// One rule planned: a value, as clang's AtomicChange holds one change. What
// the rule found and decided (its outcome and sites), the edits it asks for
// and what it said on the way. Nothing in it depends on another rule: the
// merge (merge_plans.h) sets the plans side by side, fails a rule whose
// edits overlap another's and drops a refused rule's plan.
#pragma once

#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/plan/edit.h"
#include "engine/plan/plan_result.h"

namespace muh {

struct RulePlan {
  RuleOutcome outcome;
  // The edits of its sites, in the order planned; none when it failed or
  // has no value.
  std::vector<Edit> edits;
  // Its errors and notes, in the order found, each naming the rule.
  std::vector<Diagnostic> diagnostics;
  // A file in the rule's scope that does not parse, with the error that
  // says so: the merge reports each file once, for the first rule.
  std::vector<Diagnostic> unparsable;
};

}  // namespace muh
