// Which knob sites reach the card: the liveness analysis (engine/liveness)
// run over the opened tree with the rule file's `liveness:` facts and the
// profile's compute capability; Plan records its verdicts (site_verdicts.h).
// PlanWithLiveness runs it beside the plan's draft.
#pragma once

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

// The first statement of another file of the tree `w` opened that may
// store to the name `name` of `path` as an attribute (`ops.NAME = f`,
// setattr), as LivenessAnalysis::StoredElsewhere finds it, before any
// analysis has run (the tree's facts are read first).
std::optional<Evidence> StoredElsewhere(const Inputs& inputs, const Workspace& w,
                                        const std::string& path, const std::string& name);

// The plan over `files` with every site's verdict: the plan is drafted on
// the calling thread (knowing the lines `written` by muhpatch) while the analysis (AnalyseTree,
// `overlay` as there) runs on another, and the verdicts then decide what of it stands (Plan,
// planner.h). Unless `include_dead`, the dead sites are left alone.
// With `assumptions`, the analysis's assumptions in force are put there.
// Without `naming.assumptions`, the verdicts do not name the assumptions
// they rest on (the same verdicts, for less work: verify's clean run);
// without `naming.unused_imports`, a `dynamic-imports:` entry that names no
// call is not said (said by an earlier plan of the same run).
struct LivenessNaming {
  bool assumptions = true;
  bool unused_imports = true;
};
PlanResult PlanWithLiveness(const Inputs& inputs, const Workspace& w,
                            const std::map<std::string, SourceText>& files, bool include_dead,
                            const std::map<std::string, SourceText>* overlay = nullptr,
                            const WrittenByMuhpatch& written = NothingWritten(),
                            std::vector<Assumption>* assumptions = nullptr,
                            LivenessNaming naming = {});

}  // namespace muh
