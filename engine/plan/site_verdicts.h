// Which knob sites reach the card: the liveness analysis's verdict recorded
// on every site a plan found (Plan's `liveness`).
#pragma once

#include "engine/liveness/liveness.h"
#include "engine/plan/plan_result.h"

namespace muh {

// What a plan is told of liveness: the analysis whose verdicts it records on
// every site (none: the sites carry no verdict), and whether dead sites get
// their edits too (--include-dead). Dead sites are matched and counted either
// way.
struct PlanLiveness {
  const LivenessAnalysis* analysis = nullptr;
  bool include_dead = false;
  // Each verdict names the assumptions it rests on (LivenessAnalysis::At);
  // without, the same verdicts, for less work.
  bool name_assumptions = true;
};

// Records `analysis`'s verdict on every site of `plan`. A value spanning
// both sides of `A if C else B` runs if either end does. A site dead only
// because a line that another rule deletes overwrites it (use_v1's
// heuristic under a forced `use_v1 = True` the override rule removes) is
// live once the patch is applied, and is recorded so.
void MarkLiveness(const LivenessAnalysis& analysis, PlanResult* plan, bool name_assumptions = true);

}  // namespace muh
