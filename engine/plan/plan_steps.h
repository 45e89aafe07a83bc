// The steps of a plan (internal to engine/plan; planner.cc defines them):
// every rule planned alone, then the plans merged and the edits applied.
// Plan() runs them; the idempotence check runs them again over the output.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/plan/plan_context.h"
#include "engine/plan/plan_result.h"
#include "engine/plan/rule_plan.h"
#include "engine/plan/site_verdicts.h"

namespace muh {
namespace plan {

// Each rule of the context's rule set planned alone, in rule order.
std::vector<RulePlan> PlanRules(PlanContext& ctx);

// `plans` merged (merge_plans.h, less the rules `refused`), their edits
// applied and reparsed. Takes the context's trees; with `trees_after`, hands
// over the tree of every file as the plan leaves it.
PlanResult Finish(PlanContext& ctx, const std::vector<RulePlan>& plans,
                  const std::map<std::string, Diagnostic>& refused, const PlanLiveness& liveness,
                  Trees* trees_after);

}  // namespace plan
}  // namespace muh
