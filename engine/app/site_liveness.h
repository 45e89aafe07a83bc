// Which knob sites reach the card: the liveness analysis (engine/liveness)
// run over the opened tree with the rule file's `liveness:` facts and the
// profile's compute capability, and its verdict recorded on every site of a
// plan. diff and apply then leave dead sites alone unless --include-dead.
#pragma once

#include <functional>
#include <map>
#include <string>

#include "engine/app/inputs.h"
#include "engine/app/workspace.h"
#include "engine/base/source_text.h"
#include "engine/liveness/liveness.h"
#include "engine/plan/planner.h"

namespace muh {

// The facts the analysis runs with: the rule file's, with the profile's
// compute capability.
LivenessFacts FactsFor(const Inputs& inputs);

// The analysis over the tree `w` opened, reading files through it; with
// `overlay`, those files' contents instead of the tree's (verify's undone
// tree).
LivenessAnalysis AnalyseTree(const Inputs& inputs, const Workspace& w,
                             const std::map<std::string, SourceText>* overlay = nullptr);

// Records the analysis's verdict on every site `plan` found. A site dead
// only because a line that another rule deletes overwrites it (use_v1's
// heuristic under a forced `use_v1 = True` the override rule removes) is
// live once the patch is applied, and is recorded so.
void MarkLiveness(const LivenessAnalysis& analysis, PlanResult* plan);

// What every planning command does with the analysis (Plan's filter):
// MarkLiveness, the rules whose knob is written twice failed
// (multiplied_sites.h), then, unless `include_dead`, the dead sites of
// `files` left alone.
void ApplyLiveness(const LivenessAnalysis& analysis, const std::map<std::string, SourceText>& files,
                   bool include_dead, PlanResult* plan);

}  // namespace muh
