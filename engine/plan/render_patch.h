// A plan as the patch text `diff` prints and `verify` compares: a preamble of
// rule statuses, then the diffs (the preamble is read back by ReadPreamble,
// hand_tuned_record.h).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "engine/base/source_text.h"
#include "engine/plan/hand_tuned_record.h"
#include "engine/plan/plan_result.h"

namespace muh {

// The patch `diff` prints: a preamble of one line per rule saying its
// status (`muhpatch: rule ID: rewrites`; git apply and patch skip text
// before the first `diff --git`), then every changed file's diff, sorted by
// path. Empty when no file changes. A rule's hand-tuned values the patch
// keeps are recorded on its line (hand_tuned_record.h), and so are the
// sites it leaves alone, with their values' fingerprints (left_record.h).
std::string RenderPatch(const std::map<std::string, SourceText>& files, const PlanResult& plan,
                        const std::vector<HandTunedRecord>& hand_tuned = {});

// The concatenated diffs of every changed file, sorted by path.
std::string RenderDiff(const std::map<std::string, SourceText>& files,
                       const std::map<std::string, std::string>& new_contents);

}  // namespace muh
