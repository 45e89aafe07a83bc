#include "engine/plan/planner.h"

#include <map>
#include <string>

#include "engine/plan/idempotence.h"
#include "engine/plan/rule_planner.h"

namespace muh {

using plan::NotIdempotent;
using plan::Planner;

PlanResult Plan(const RuleSet& rules, const std::map<std::string, SourceText>& files,
                const std::vector<std::string>& tree_paths, const PlanLiveness& liveness) {
  PlanResult out;
  Planner first(rules, *rules.values, files, tree_paths, &out);
  first.UseLiveness(liveness);
  first.Run();
  // Idempotence is checked, not assumed: a rule whose rewrite a second run
  // would change again fails, and the others are planned without it. The
  // second run queries the first one's trees (the rewritten files' trees
  // are their incremental reparses), so it parses nothing again.
  std::map<std::string, Diagnostic> refused =
      NotIdempotent(rules, out, files, tree_paths, first.TakeTreesAfter());
  if (!refused.empty()) {
    PlanResult checked;
    Planner planner(rules, *rules.values, files, tree_paths, &checked);
    planner.Refuse(std::move(refused));
    planner.UseLiveness(liveness);
    planner.Run();
    out = std::move(checked);
  }
  return out;
}

}  // namespace muh
