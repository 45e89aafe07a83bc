// Dead sites left alone: no edits at knob sites that the liveness analysis
// found dead on the served platform (unless --include-dead). They are still
// matched and counted.
#pragma once

#include <map>
#include <string>

#include "engine/plan/edit.h"
#include "engine/plan/plan_result.h"

namespace muh {

// Drops from `edit_sets` (by path) the edits at sites of `plan` whose
// verdict is dead, before they are applied; marks a rule whose every site
// is dead kDead, and one left without an edit at its value (or kept by
// hand). When it left any alone, adds one note saying so. Returns how many
// sites it left alone.
int LeaveDeadSitesAlone(std::map<std::string, EditSet>* edit_sets, PlanResult* plan);

}  // namespace muh
