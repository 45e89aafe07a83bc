// Dead sites left alone: a plan without its edits at knob sites that the
// liveness analysis found dead on the served platform.
#pragma once

#include <map>
#include <string>

#include "engine/base/source_text.h"
#include "engine/plan/plan_result.h"

namespace muh {

// Drops the edits at sites whose `liveness` is "dead" (diff and apply leave
// dead code alone unless --include-dead), recomputes the new contents, and
// marks a rule whose every site is dead kDead. When it left any alone, adds
// one note saying so. Returns how many sites it left alone.
int LeaveDeadSitesAlone(PlanResult* plan, const std::map<std::string, SourceText>& files);

}  // namespace muh
