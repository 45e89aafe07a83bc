// PlanRule, and RulePlanner's run: whether the rule's files parse and its
// preconditions hold, its sites in each file as many as it expects, each
// planned (see rule_planner.h).
#include "engine/plan/rule_planner.h"

#include <fmt/format.h>

#include <algorithm>

#include "engine/query/query.h"

namespace muh {
namespace plan {

RulePlan PlanRule(PlanContext& ctx, const Rule& rule) {
  RulePlanner planner(ctx, rule);
  RulePlan plan;
  try {
    planner.Run();
    plan = planner.Take();
  } catch (const QueryBudgetExceeded& e) {  // the rule fails, located at its query
    plan = planner.Take();
    plan.edits.clear();
    plan.diagnostics.push_back(MakeError(ctx.rules().path, rule.loc.line, rule.loc.column,
                                         fmt::format("rule '{}': {}", rule.id, e.what())));
    plan.outcome = RuleOutcome{};
    plan.outcome.rule_id = rule.id;  // kFailed
  }
  // What planning the rule reported is about the rule.
  for (std::vector<Diagnostic>* list : {&plan.diagnostics, &plan.unparsable}) {
    for (Diagnostic& d : *list) {
      if (d.rule_id.empty()) d.rule_id = rule.id;
    }
  }
  return plan;
}

void RulePlanner::Run() {
  const Rule& rule = rule_;
  RuleOutcome outcome;
  outcome.rule_id = rule.id;
  outcome.status = RuleStatus::kRewrites;
  std::vector<std::string> paths = Scope(rule.files);
  bool ready = true;
  for (const std::string& path : paths) {
    const SyntaxTree* tree = SyntaxTreeOf(path);
    if (auto problem = tree->FirstProblem()) {
      ready = false;
      plan_.unparsable.push_back(At(path, problem->offset, Severity::kError,
                                    fmt::format("{}; rule '{}' will not rewrite a file that "
                                                "does not parse",
                                                problem->what, rule.id)));
    }
  }
  if (!ready) {
    outcome.status = RuleStatus::kFailed;
    plan_.outcome = outcome;
    return;
  }
  if (rule.retired) {
    PlanRetired(rule, paths, &outcome);
    plan_.outcome = outcome;
    return;
  }
  if (!CheckPreconditions(rule, &outcome)) {
    if (outcome.status == RuleStatus::kSkipped) RecordSkippedSites(rule, &outcome);
    plan_.outcome = outcome;
    return;
  }
  for (const std::string& path : paths) {
    if (outcome.status == RuleStatus::kNoValue) break;
    const SourceText& file = ctx_.files().at(path);
    FoundSites found = RuleSites(rule, path, &outcome);
    if (!found.lost.empty()) continue;  // RuleSites said why
    // The matches `expect:` counts.
    std::vector<const SiteMatch*> matches;
    for (const SiteMatch& m : found.sites) {
      if (m.counted) matches.push_back(&m);
    }
    int n = static_cast<int>(matches.size());
    outcome.sites += n;
    auto expected = [&](int count) { return count >= rule.expect && count <= rule.expect_max; };
    if (!expected(n)) {
      if (rule.done_when &&
          expected(static_cast<int>(rule.done_when->Run(*SyntaxTreeOf(path)).size()))) {
        continue;  // already applied
      }
      std::string count = rule.expect == rule.expect_max
                              ? std::to_string(rule.expect)
                              : fmt::format("{} to {}", rule.expect, rule.expect_max);
      std::string msg = fmt::format("rule '{}' expects {} match{} in {}, found {}", rule.id, count,
                                    rule.expect_max == 1 ? "" : "es", path, n);
      if (n == 0) {
        outcome.lost = true;
        if (auto problem = rule.finder->query()->StructureProblem()) {
          std::string what =
              problem->message.substr(problem->message.rfind("query ", 0) == 0 ? 6 : 0);
          msg += fmt::format(" (libtree-sitter: {} at query offset {}; the query can never match)",
                             what, problem->offset);
          Say(Diagnostic{ctx_.rules().path, rule.loc.line, rule.loc.column, Severity::kError, msg});
        } else {
          Say(FoundNothing(rule, file, msg));
        }
      } else {
        std::vector<int> lines;
        for (const SiteMatch* m : matches) {
          const Capture* target = m->match.Find(m->target);
          lines.push_back(file.PositionOf(target != nullptr ? target->begin : m->at).line);
        }
        msg += fmt::format(" (at lines {})", fmt::join(lines, ", "));
        const SiteMatch& extra =
            *matches[std::min<std::size_t>(matches.size() - 1, rule.expect_max)];
        const Capture* extra_target = extra.match.Find(extra.target);
        Say(At(path, extra_target != nullptr ? extra_target->begin : extra.at, Severity::kError,
               msg));
      }
      outcome.status = RuleStatus::kFailed;
      continue;
    }
    PlanSites(rule, file, found, &outcome);
  }
  if (outcome.status == RuleStatus::kFailed || outcome.status == RuleStatus::kNoValue) {
    plan_.edits.clear();  // a rule that fails keeps none of its edits
    outcome.edits = 0;
  }
  if (outcome.status == RuleStatus::kRewrites && outcome.edits == 0) {
    bool kept = false;
    for (const Site& s : outcome.found) kept = kept || s.kept;
    outcome.status = kept ? RuleStatus::kHandTuned : RuleStatus::kAlreadyApplied;
  }
  plan_.outcome = outcome;
}

}  // namespace plan
}  // namespace muh
