// Which knob sites reach the card: the liveness analysis (engine/liveness)
// run over the opened tree with the rule file's `liveness:` facts and the
// profile's compute capability; Plan records its verdicts (site_verdicts.h).
#pragma once

#include <map>
#include <string>

#include "engine/app/inputs.h"
#include "engine/app/workspace.h"
#include "engine/base/source_text.h"
#include "engine/liveness/liveness.h"

namespace muh {

// The facts the analysis runs with: the rule file's, with the profile's
// compute capability.
LivenessFacts FactsFor(const Inputs& inputs);

// The analysis over the tree `w` opened, reading files through it; with
// `overlay`, those files' contents instead of the tree's (verify's undone
// tree).
LivenessAnalysis AnalyseTree(const Inputs& inputs, const Workspace& w,
                             const std::map<std::string, SourceText>* overlay = nullptr);

}  // namespace muh
