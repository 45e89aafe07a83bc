#include "engine/plan/planner.h"

#include <chrono>
#include <map>
#include <string>

#include "engine/base/logging.h"
#include "engine/plan/apply_reparse.h"
#include "engine/plan/idempotence.h"
#include "engine/plan/merge_plans.h"
#include "engine/plan/plan_steps.h"
#include "engine/plan/rule_planner.h"

namespace muh {

namespace plan {

std::vector<RulePlan> PlanRules(PlanContext& ctx) {
  std::vector<RulePlan> plans;
  plans.reserve(ctx.rules().rules.size());
  for (const Rule& rule : ctx.rules().rules) plans.push_back(PlanRule(ctx, rule));
  return plans;
}

PlanResult Finish(PlanContext& ctx, const std::vector<RulePlan>& plans,
                  const std::map<std::string, Diagnostic>& refused, const PlanLiveness& liveness,
                  Trees* trees_after) {
  MergedPlans merged = MergePlans(ctx.rules(), plans, refused, liveness, ctx.files());
  PlanResult& out = merged.result;
  Trees before = ctx.TakeTrees();
  // The edit sets are the applier's now: it drops a failed rule's edits itself.
  Applied applied = ApplyAndReparse(ctx.files(), before, std::move(merged.edit_sets));
  out.diagnostics.insert(out.diagnostics.end(), applied.diagnostics.begin(),
                         applied.diagnostics.end());
  for (const std::string& id : applied.failed) FailRule(id, &out);
  out.edits = std::move(applied.edits);
  out.new_contents = std::move(applied.new_contents);
  if (trees_after != nullptr) {
    // The tree of every file as the plan leaves it.
    for (auto& [path, tree] : applied.trees) std::swap(before[path], tree);
    *trees_after = std::move(before);
  } else {
    FreeTrees(&before);
  }
  FreeTrees(&applied.trees);
  return std::move(out);
}

}  // namespace plan

using plan::PlanContext;

PlanDraft::PlanDraft(PlanDraft&&) noexcept = default;
PlanDraft& PlanDraft::operator=(PlanDraft&&) noexcept = default;
PlanDraft::~PlanDraft() = default;

PlanDraft DraftPlan(const RuleSet& rules, const std::map<std::string, SourceText>& files,
                    const std::vector<std::string>& tree_paths, const WrittenByMuhpatch& written) {
  auto t0 = std::chrono::steady_clock::now();
  auto ms = [&t0]() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  PlanDraft d;
  d.context_ = std::make_unique<PlanContext>(rules, files, tree_paths, written);
  std::size_t parsed = d.context_->ParseAll();
  logging::Debug("plan: {} of {} files parsed: {:.1f} ms", parsed, files.size(), ms());
  d.plans_ = plan::PlanRules(*d.context_);
  logging::Debug("plan: rules matched, edits planned: {:.1f} ms", ms());
  return d;
}

PlanResult Plan(PlanDraft draft, const PlanLiveness& liveness) {
  PlanContext& ctx = *draft.context_;
  plan::Trees after;
  PlanResult out = plan::Finish(ctx, draft.plans_, {}, liveness, &after);
  // Idempotence is checked, not assumed: a rule whose rewrite a second run
  // would change again fails, and the plans are merged again without it.
  // The second run queries the first one's trees (the rewritten files' trees
  // are their incremental reparses), so it parses nothing again.
  std::map<std::string, Diagnostic> refused =
      plan::NotIdempotent(ctx.rules(), out, ctx.files(), ctx.tree_paths(), std::move(after));
  if (!refused.empty()) out = plan::Finish(ctx, draft.plans_, refused, liveness, nullptr);
  return out;
}

PlanResult Plan(const RuleSet& rules, const std::map<std::string, SourceText>& files,
                const std::vector<std::string>& tree_paths, const PlanLiveness& liveness,
                const WrittenByMuhpatch& written) {
  return Plan(DraftPlan(rules, files, tree_paths, written), liveness);
}

}  // namespace muh
