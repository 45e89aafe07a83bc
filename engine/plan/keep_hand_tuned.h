// A patch made from the pre-image keeps the values tuned by hand on the
// patched tree: the plan of the pre-image (upstream's values, the rules'
// edits) and the plan of the tree as it is (which tells a value muhpatch
// wrote from one tuned by hand) give the pre-image's new contents with each
// kept value in place of the rule's, and a record of each (hand_tuned_record.h).
// Pure: plans in, contents out.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "engine/base/source_text.h"
#include "engine/plan/hand_tuned_record.h"
#include "engine/plan/plan_result.h"

namespace muh {

struct KeptPlan {
  std::map<std::string, std::string> new_contents;  // files that change, as in PlanResult
  std::vector<HandTunedRecord> hand_tuned;          // each kept value's line in them
};

// `pre_plan` over `pre` (the pre-image), with every site `now_plan` keeps as
// hand-tuned given its value there instead: a rule's sites in a file are
// paired in order (the two trees differ in values only). A kept value the
// pre-image holds already needs no record.
KeptPlan KeepHandTuned(const std::map<std::string, SourceText>& pre, const PlanResult& pre_plan,
                       const PlanResult& now_plan);

}  // namespace muh
