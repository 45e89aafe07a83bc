// The merge (internal to engine/plan): the rules' plans, each planned alone
// (rule_plan.h), set side by side into one plan. Pure: plans in, a plan out.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/base/source_text.h"
#include "engine/plan/edit.h"
#include "engine/plan/plan_result.h"
#include "engine/plan/rule_plan.h"
#include "engine/plan/site_verdicts.h"
#include "engine/rules/rule.h"

namespace muh {
namespace plan {

// The plans merged: the rules' outcomes and diagnostics, and by path the
// edits kept, not yet applied (`result.edits` and `new_contents` empty).
struct MergedPlans {
  PlanResult result;
  std::map<std::string, EditSet> edit_sets;
};

// Merges `plans` (in rule order) into one:
// - a rule in `refused` keeps nothing of its plan: it fails with that error;
// - a file that does not parse is reported once, for the first rule;
// - a rule whose edits overlap an earlier rule's fails, and the error names
//   both;
// - with an analysis in `liveness`: every site carries its verdict, a rule
//   whose knob is written twice fails (multiplied_sites.h), so does one
//   whose tier bound reads a constant another module rebinds
//   (rebound_constants.h), so does one whose written dict value a read
//   changes before a call takes it (changed_reads.h), so does one that
//   writes a capability test the tree answers itself (capability_wraps.h),
//   and a dead
//   site's edits are dropped unless `liveness.include_dead` (dead_sites.h);
// - every value written or kept passes the one gate (value_gate.h).
// A rule that fails keeps none of its edits.
MergedPlans MergePlans(const RuleSet& rules, const std::vector<RulePlan>& plans,
                       const std::map<std::string, Diagnostic>& refused,
                       const PlanLiveness& liveness,
                       const std::map<std::string, SourceText>& files);

// Each autotune append rule (kAppendEntries) that rewrites, whose kernel's
// name stands in the code of another file of the tree: there its configs
// may be cut, replaced or re-wrapped before a launch (the rule's own file is
// checked when it plans: config_list.h). An error at that statement; the
// rules it failed.
std::set<std::string> FailKernelNamedElsewhere(const RuleSet& rules,
                                               const LivenessAnalysis& analysis,
                                               const std::map<std::string, SourceText>& files,
                                               PlanResult* result);

// Fails `rule_id`: its outcome's status and edit count, and, with `sets`,
// none of its edits there.
void FailRule(const std::string& rule_id, PlanResult* result,
              std::map<std::string, EditSet>* sets = nullptr);

}  // namespace plan
}  // namespace muh
