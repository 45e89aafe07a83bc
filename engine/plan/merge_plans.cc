#include "engine/plan/merge_plans.h"

#include <fmt/format.h>

#include <set>

#include "engine/base/one_line.h"
#include "engine/plan/capability_wraps.h"
#include "engine/plan/changed_reads.h"
#include "engine/plan/config_list.h"
#include "engine/plan/dead_sites.h"
#include "engine/plan/multiplied_sites.h"
#include "engine/plan/rebound_constants.h"
#include "engine/plan/value_gate.h"
#include "engine/python/syntax_tree.h"

namespace muh {
namespace plan {

namespace {

// The edits of `plan` added to `sets`; false, with the error naming both
// rules, when one overlaps an edit there (then `sets` is unchanged).
bool AddEdits(const RulePlan& plan, const std::map<std::string, SourceText>& files,
              std::map<std::string, EditSet>* sets, Diagnostic* conflict_at) {
  std::map<std::string, EditSet> trial;
  for (const Edit& e : plan.edits) {
    auto it = trial.find(e.path);
    if (it == trial.end()) {
      auto had = sets->find(e.path);
      it = trial.emplace(e.path, had == sets->end() ? EditSet{} : had->second).first;
    }
    Edit conflict;
    if (!it->second.Add(e, &conflict)) {
      Position p = files.at(e.path).PositionOf(e.offset);
      *conflict_at = Diagnostic{
          e.path,
          p.line,
          p.column,
          Severity::kError,
          fmt::format("rules '{}' and '{}' edit overlapping bytes", conflict.rule_id, e.rule_id),
          plan.outcome.rule_id};
      return false;
    }
  }
  for (auto& [path, set] : trial) (*sets)[path] = std::move(set);
  return true;
}

}  // namespace

std::set<std::string> FailKernelNamedElsewhere(const RuleSet& rules,
                                               const LivenessAnalysis& analysis,
                                               const std::map<std::string, SourceText>& files,
                                               PlanResult* result) {
  std::set<std::string> failed;
  for (RuleOutcome& o : result->outcomes) {
    const Rule* rule = nullptr;
    for (const Rule& r : rules.rules) {
      if (r.id == o.rule_id) rule = &r;
    }
    if (rule == nullptr || rule->action != ActionKind::kAppendEntries ||
        o.status != RuleStatus::kRewrites) {
      continue;
    }
    for (const Site& site : o.found) {
      auto file = files.find(site.path);
      if (file == files.end()) continue;
      PythonParser parser;
      SyntaxTree tree = parser.Parse(file->second.bytes());
      std::string kernel = AutotunedKernelName(tree, site.begin, site.end);
      if (kernel.empty()) continue;
      std::optional<Evidence> there = analysis.MentionedElsewhere(site.path, kernel);
      if (!there) continue;
      result->diagnostics.push_back(Diagnostic{
          there->path, there->line, 1, Severity::kError,
          fmt::format("rule '{}': the autotuned kernel {} ({}:{}) is named here, in another "
                      "module, where its configs may be cut, replaced or re-wrapped before a "
                      "launch benchmarks them (a use muhpatch does not follow): no rewrite",
                      o.rule_id, kernel, site.path, site.line),
          o.rule_id});
      failed.insert(o.rule_id);
      break;
    }
  }
  return failed;
}

void FailRule(const std::string& rule_id, PlanResult* result,
              std::map<std::string, EditSet>* sets) {
  for (RuleOutcome& o : result->outcomes) {
    if (o.rule_id == rule_id) {
      o.status = RuleStatus::kFailed;
      o.edits = 0;
    }
  }
  if (sets == nullptr) return;
  for (auto& [path, set] : *sets) {
    set.RemoveIf([&](const Edit& e) { return e.rule_id == rule_id; });
  }
}

MergedPlans MergePlans(const RuleSet& rules, const std::vector<RulePlan>& plans,
                       const std::map<std::string, Diagnostic>& refused,
                       const PlanLiveness& liveness,
                       const std::map<std::string, SourceText>& files) {
  MergedPlans merged;
  PlanResult& out = merged.result;
  std::set<std::string> unparsable_said;
  for (const RulePlan& plan : plans) {
    const std::string& id = plan.outcome.rule_id;
    if (auto it = refused.find(id); it != refused.end()) {
      out.diagnostics.push_back(it->second);
      out.diagnostics.back().rule_id = id;
      out.outcomes.emplace_back().rule_id = id;  // kFailed, nothing found
      continue;
    }
    for (const Diagnostic& d : plan.unparsable) {
      if (unparsable_said.insert(d.file).second) out.diagnostics.push_back(d);
    }
    out.diagnostics.insert(out.diagnostics.end(), plan.diagnostics.begin(), plan.diagnostics.end());
    RuleOutcome& outcome = out.outcomes.emplace_back(plan.outcome);
    Diagnostic conflict;
    if (!plan.edits.empty() && !AddEdits(plan, files, &merged.edit_sets, &conflict)) {
      out.diagnostics.push_back(std::move(conflict));
      outcome.status = RuleStatus::kFailed;
      outcome.edits = 0;
    }
  }
  // Liveness first: the gate treats a kept value on a dead site as a note.
  if (liveness.analysis != nullptr) {
    MarkLiveness(*liveness.analysis, &out, liveness.name_assumptions);
  }
  for (const std::string& id : GateValues(rules.path, &out)) FailRule(id, &out, &merged.edit_sets);
  if (liveness.analysis == nullptr) return merged;
  for (const std::string& id : FailMultipliedSites(*liveness.analysis, files, &out)) {
    FailRule(id, &out, &merged.edit_sets);
  }
  for (const std::string& id :
       FailReboundConstants(*liveness.analysis, files, &out, liveness.include_dead)) {
    FailRule(id, &out, &merged.edit_sets);
  }
  for (const std::string& id : FailKernelNamedElsewhere(rules, *liveness.analysis, files, &out)) {
    FailRule(id, &out, &merged.edit_sets);
  }
  for (const std::string& id : FailChangedReads(*liveness.analysis, liveness.include_dead, &out)) {
    FailRule(id, &out, &merged.edit_sets);
  }
  for (const std::string& id :
       FailCapabilityWraps(rules, *liveness.analysis, liveness.include_dead, &out)) {
    FailRule(id, &out, &merged.edit_sets);
  }
  if (!liveness.include_dead) LeaveDeadSitesAlone(&merged.edit_sets, &out);
  out.include_dead = liveness.include_dead;
  return merged;
}

}  // namespace plan
}  // namespace muh
