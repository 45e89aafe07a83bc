#include "engine/plan/planner.h"

#include <map>
#include <string>

#include "engine/plan/idempotence.h"
#include "engine/plan/rule_planner.h"

namespace muh {

using plan::NotIdempotent;
using plan::Planner;

PlanDraft::PlanDraft(PlanDraft&&) noexcept = default;
PlanDraft& PlanDraft::operator=(PlanDraft&&) noexcept = default;
PlanDraft::~PlanDraft() = default;

PlanDraft DraftPlan(const RuleSet& rules, const std::map<std::string, SourceText>& files,
                    const std::vector<std::string>& tree_paths) {
  PlanDraft d;
  d.rules_ = &rules;
  d.files_ = &files;
  d.tree_paths_ = &tree_paths;
  d.out_ = std::make_unique<PlanResult>();
  d.planner_ = std::make_unique<Planner>(rules, *rules.values, files, tree_paths, d.out_.get());
  d.planner_->Match();
  return d;
}

PlanResult Plan(PlanDraft draft, const PlanLiveness& liveness) {
  const RuleSet& rules = *draft.rules_;
  const std::map<std::string, SourceText>& files = *draft.files_;
  const std::vector<std::string>& tree_paths = *draft.tree_paths_;
  draft.planner_->Finish(liveness);
  PlanResult& out = *draft.out_;
  // Idempotence is checked, not assumed: a rule whose rewrite a second run
  // would change again fails, and the others are planned without it. The
  // second run queries the first one's trees (the rewritten files' trees
  // are their incremental reparses), so it parses nothing again.
  std::map<std::string, Diagnostic> refused =
      NotIdempotent(rules, out, files, tree_paths, draft.planner_->TakeTreesAfter());
  draft.planner_.reset();
  if (!refused.empty()) {
    PlanResult checked;
    Planner planner(rules, *rules.values, files, tree_paths, &checked);
    planner.Refuse(std::move(refused));
    planner.Run(liveness);
    out = std::move(checked);
  }
  return std::move(out);
}

PlanResult Plan(const RuleSet& rules, const std::map<std::string, SourceText>& files,
                const std::vector<std::string>& tree_paths, const PlanLiveness& liveness) {
  return Plan(DraftPlan(rules, files, tree_paths), liveness);
}

}  // namespace muh
