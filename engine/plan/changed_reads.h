// A rewritten dict value whose key is read and changed before a call takes
// it: `kernel(BLOCK=max(config['BLOCK_SIZE_M'], 32))`, or
// `bm = config['BLOCK_SIZE_M'] * 2` passed on. The value the rule writes is
// then not the one the kernel gets, and muhpatch cannot say which is: the
// rule fails, with an error at the read (the liveness analysis finds the
// reads: LivenessAnalysis::ChangedReads, value_use.h).
#pragma once

#include <set>
#include <string>

#include "engine/liveness/liveness.h"
#include "engine/plan/plan_result.h"

namespace muh {
namespace plan {

// Fails each rule that rewrites a site (a dead one only with
// `include_dead`) whose value a read changes on its way to a call: an error
// at the first such read of each of its sites. Returns the rules it failed.
std::set<std::string> FailChangedReads(const LivenessAnalysis& analysis, bool include_dead,
                                       PlanResult* plan);

}  // namespace plan
}  // namespace muh
