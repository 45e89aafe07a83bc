// The idempotence re-plan (internal to engine/plan): the rules that edited,
// planned once more over the files as the first run leaves them. Plan()
// (planner.cc) plans again without the rules it refuses.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/base/source_text.h"
#include "engine/plan/plan_context.h"
#include "engine/plan/plan_result.h"
#include "engine/rules/rule.h"

namespace muh {
namespace plan {

// The rules whose rewrite a second run would change again, each with the
// error that says so: the rules that edited, planned once more over the
// files as the first run leaves them. `trees` are the first run's
// (plan_steps.h, Finish): the re-plan queries them instead of parsing the
// files again.
std::map<std::string, Diagnostic> NotIdempotent(const RuleSet& rules, const PlanResult& first,
                                                const std::map<std::string, SourceText>& files,
                                                const std::vector<std::string>& tree_paths,
                                                Trees trees);

}  // namespace plan
}  // namespace muh
