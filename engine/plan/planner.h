// The planner: each rule planned alone into a value (rule_plan.h: its
// outcome, sites, edits and diagnostics), then the plans merged by a pure
// step that fails conflicting rules and leaves dead sites alone
// (merge_plans.h), the edits applied in memory and re-parsed, refusing any
// rewrite that breaks the syntax, and the output planned once more to check
// idempotence. Pure: file contents in, new contents and diagnostics out.
// What the plan found is declared in plan_result.h, what it is told of
// liveness in site_verdicts.h and the patch text in render_patch.h; this
// header includes them, so that its callers need only it.
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "engine/base/source_text.h"
#include "engine/plan/plan_result.h"
#include "engine/plan/prior_patch.h"
#include "engine/plan/render_patch.h"
#include "engine/plan/site_verdicts.h"
#include "engine/rules/rule.h"

namespace muh {

namespace plan {
class PlanContext;
}
struct RulePlan;

// What planning finds before the liveness verdicts are known: the files
// parsed, every rule matched and its edits planned. It needs no verdict,
// so a caller may analyse liveness meanwhile on another thread; Plan then
// takes both. It refers to the rules, files and paths it was drafted from,
// which must outlive it. Move-only; a draft is planned once.
class PlanDraft {
 public:
  PlanDraft(PlanDraft&&) noexcept;
  PlanDraft& operator=(PlanDraft&&) noexcept;
  ~PlanDraft();

 private:
  friend PlanDraft DraftPlan(const RuleSet&, const std::map<std::string, SourceText>&,
                             const std::vector<std::string>&, const WrittenByMuhpatch&);
  friend PlanResult Plan(PlanDraft, const PlanLiveness&);
  PlanDraft() = default;
  std::unique_ptr<plan::PlanContext> context_;
  std::vector<RulePlan> plans_;  // in rule order
};

// Parses `files` (tree path -> content) and plans every rule of `rules`
// over them, with the values the rule set resolves names against. `files`
// must hold every file the rules and their preconditions name (see
// FilesNeeded). A site on a line that `written` (which must outlive the
// draft) holds has muhpatch's value, never a hand-tuned one.
PlanDraft DraftPlan(const RuleSet& rules, const std::map<std::string, SourceText>& files,
                    const std::vector<std::string>& tree_paths,
                    const WrittenByMuhpatch& written = NothingWritten());

// The plan of `draft`. With an analysis in `liveness`, every site carries
// its verdict, and a dead site gets no edit unless `liveness.include_dead`.
// The edits kept are then applied and reparsed, and planned a second time
// over their own result: a rule whose edits that second run would change
// again (a template adding text its query does not match) fails as not
// idempotent. Deterministic: rules in file order, paths sorted.
PlanResult Plan(PlanDraft draft, const PlanLiveness& liveness = {});

// Both in one: Plan(DraftPlan(rules, files, tree_paths, written), liveness).
PlanResult Plan(const RuleSet& rules, const std::map<std::string, SourceText>& files,
                const std::vector<std::string>& tree_paths, const PlanLiveness& liveness = {},
                const WrittenByMuhpatch& written = NothingWritten());

}  // namespace muh
