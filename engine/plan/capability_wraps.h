// A rewrite whose value is for one side of a compute-capability test
// (`value-of: ... when-false: current_platform.has_device_capability(80)`,
// or a value that writes such a test: `8 if current_platform.
// has_device_capability(80) else 4`) in a tree whose own code answers that
// test with a constant (`def get_physical_device_capability(...): return
// [9, 0]`, the fork's). The model chose the value for the declared
// capability; the code sees another one, so the value written for the
// device may never run (a helper probe of 1c9f191: CPython launched the
// prefix-prefill kernel with the SM80 tiles on the BI-V100). The rule
// fails, with an error at the site naming the definition
// (LivenessAnalysis::CapabilityAnsweredByTree).
#pragma once

#include <set>
#include <string>

#include "engine/liveness/liveness.h"
#include "engine/plan/plan_result.h"
#include "engine/rules/rule.h"

namespace muh {
namespace plan {

// Fails each rule of `rules` that rewrites a site (a dead one only with
// `include_dead`) for a side of a `has_device_capability(` test, or
// writes one, when the tree answers the test itself. Returns the rules it
// failed.
std::set<std::string> FailCapabilityWraps(const RuleSet& rules, const LivenessAnalysis& analysis,
                                          bool include_dead, PlanResult* plan);

}  // namespace plan
}  // namespace muh
