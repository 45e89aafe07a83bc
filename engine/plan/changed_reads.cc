#include "engine/plan/changed_reads.h"

#include <fmt/format.h>

#include "engine/base/one_line.h"

namespace muh {
namespace plan {

std::set<std::string> FailChangedReads(const LivenessAnalysis& analysis, bool include_dead,
                                       PlanResult* plan) {
  std::set<std::string> failed;
  for (RuleOutcome& o : plan->outcomes) {
    if (o.status == RuleStatus::kFailed || ManagesNothing(o.status)) continue;
    for (const Site& site : o.found) {
      bool rewritten = !site.wanted.empty() && site.wanted != site.current && !site.kept;
      if (!rewritten || (site.Is(Liveness::kDead) && !include_dead)) continue;
      std::vector<ChangedRead> changed = analysis.ChangedReads(site.path, site.begin);
      if (changed.empty()) continue;
      const ChangedRead& c = changed.front();
      plan->diagnostics.push_back(Diagnostic{
          c.at.path, c.at.line, c.column, Severity::kError,
          fmt::format("rule '{}': the value its site writes ({}:{}, '{}') is read here and "
                      "changed before a call takes it (`{}`): the kernel may not get the value "
                      "the rule writes, and muhpatch cannot say what it gets; no rewrite",
                      o.rule_id, site.path, site.line, OneLine(site.wanted, 40),
                      OneLine(c.expression, 80)),
          o.rule_id});
      o.status = RuleStatus::kFailed;
      failed.insert(o.rule_id);
      break;
    }
  }
  return failed;
}

}  // namespace plan
}  // namespace muh
