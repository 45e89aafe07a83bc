#include "engine/plan/rewritten_sites.h"

namespace muh {

bool Rewritten(const Site& site) {
  return !site.wanted.empty() && site.wanted != site.current && !site.kept;
}

std::set<std::string> FailAtFirstRewrite(PlanResult* plan, bool include_dead,
                                         const RewriteCheck& check) {
  std::set<std::string> failed;
  for (RuleOutcome& o : plan->outcomes) {
    if (o.status == RuleStatus::kFailed || ManagesNothing(o.status)) continue;
    for (const Site& site : o.found) {
      if (!Rewritten(site) || (site.Is(Liveness::kDead) && !include_dead)) continue;
      std::optional<Diagnostic> why = check(o, site);
      if (!why) continue;
      why->rule_id = o.rule_id;
      plan->diagnostics.push_back(std::move(*why));
      o.status = RuleStatus::kFailed;
      failed.insert(o.rule_id);
      break;
    }
  }
  return failed;
}

}  // namespace muh
