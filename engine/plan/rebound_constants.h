// A tier bound computed from a module constant that another module rebinds.
// The tiers finder proves a bound's value from the module it reads
// (`MOE_SMALL_TIER = 64`, assigned once at its top level and bound nowhere
// else there); a statement of another file (`fm.MOE_SMALL_TIER = 4096`,
// `setattr(fm, "MOE_SMALL_TIER", ...)`) can still change it at run time,
// and then the tiers would be sized for a bound the code does not run with.
// Only the whole tree can tell, so the check runs where the liveness
// analysis (which reads the whole tree) is at hand.
#pragma once

#include <map>
#include <set>
#include <string>

#include "engine/base/source_text.h"
#include "engine/liveness/liveness.h"
#include "engine/plan/plan_result.h"

namespace muh {

// For every rule of `plan` that manages a site whose chain's bounds read a
// module constant (Site::bound_constants): when another file of the tree
// may rebind that constant, the rule fails, with an error at the bound
// that names the statement. A dead site, which is left alone unless
// `include_dead`, is not asked about. Returns the rules it failed; the
// caller drops their edits.
std::set<std::string> FailReboundConstants(const LivenessAnalysis& analysis,
                                           const std::map<std::string, SourceText>& files,
                                           PlanResult* plan, bool include_dead);

}  // namespace muh
