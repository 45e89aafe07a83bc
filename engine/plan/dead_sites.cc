#include "engine/plan/dead_sites.h"

namespace muh {

int LeaveDeadSitesAlone(std::map<std::string, EditSet>* edit_sets, PlanResult* plan) {
  int left = 0;
  for (RuleOutcome& o : plan->outcomes) {
    if (o.status != RuleStatus::kRewrites && o.status != RuleStatus::kAlreadyApplied &&
        o.status != RuleStatus::kHandTuned) {
      continue;
    }
    int dead = 0;
    for (const Site& site : o.found) {
      if (!site.Is(Liveness::kDead)) continue;
      ++dead;
      auto it = edit_sets->find(site.path);
      if (it == edit_sets->end()) continue;
      std::size_t dropped = it->second.RemoveIf([&](const Edit& e) {
        return e.rule_id == o.rule_id && e.offset >= site.begin && e.offset <= site.end;
      });
      if (dropped > 0) {
        ++left;
        o.edits -= static_cast<int>(dropped);
      }
    }
    if (dead > 0 && dead == static_cast<int>(o.found.size())) {
      o.status = RuleStatus::kDead;
    } else if (o.status == RuleStatus::kRewrites && o.edits <= 0) {
      bool kept = false;
      for (const Site& s : o.found) kept = kept || s.kept;
      o.status = kept ? RuleStatus::kHandTuned : RuleStatus::kAlreadyApplied;
    }
  }
  if (left > 0) {
    // About the run, not a file: the same words however the rules are named.
    plan->diagnostics.push_back(MakeNote(
        "", 0, 0,
        "dead sites left alone: they would change, but their code does not run on the served "
        "platform (the summary counts them; `muhpatch status` says why, --include-dead rewrites "
        "them)"));
  }
  return left;
}

}  // namespace muh
