#include "engine/plan/plan_counts.h"

#include <fmt/format.h>

#include "engine/base/plural.h"

namespace muh {

bool LeftAlone(RuleStatus s) {
  return s == RuleStatus::kAlreadyApplied || s == RuleStatus::kSkipped ||
         s == RuleStatus::kNoValue || s == RuleStatus::kDead || s == RuleStatus::kHandTuned ||
         s == RuleStatus::kRetired;
}

PlanCounts CountPlan(const PlanResult& plan) {
  PlanCounts c;
  c.rules = plan.outcomes.size();
  for (const RuleOutcome& o : plan.outcomes) {
    if (LeftAlone(o.status)) ++c.left_alone;
    switch (o.status) {
      case RuleStatus::kRewrites:
        ++c.rewrite;
        break;
      case RuleStatus::kAlreadyApplied:
        ++c.at_value;
        break;
      case RuleStatus::kSkipped:
        ++c.skipped;
        break;
      case RuleStatus::kNoValue:
        ++c.no_value;
        break;
      case RuleStatus::kDead:
        ++c.dead;
        break;
      case RuleStatus::kHandTuned:
        ++c.hand_tuned;
        break;
      case RuleStatus::kRetired:
        ++c.retired;
        break;
      case RuleStatus::kFailed:
        ++c.failed;
        break;
    }
    for (const Site& s : o.found) {
      ++c.sites;
      if (s.Is(Liveness::kLive)) {
        ++c.live_sites;
      } else if (s.Is(Liveness::kDead)) {
        ++c.dead_sites;
      } else {
        ++c.unknown_sites;
      }
      if (s.kept) ++c.kept_sites;
    }
  }
  return c;
}

std::string SitesByLiveness(const PlanCounts& counts) {
  return fmt::format("{}: {} live, {} dead, {} unknown", Counted(counts.sites, "site"),
                     counts.live_sites, counts.dead_sites, counts.unknown_sites);
}

}  // namespace muh
