#include "engine/plan/plan_counts.h"

#include <doctest/doctest.h>

namespace muh {

namespace {

Site SiteThat(std::optional<Liveness> liveness, bool kept = false) {
  Site s;
  if (liveness) s.liveness = SiteVerdict{*liveness, ""};
  s.kept = kept;
  return s;
}

RuleOutcome Outcome(RuleStatus status, std::vector<Site> found) {
  RuleOutcome o;
  o.status = status;
  o.found = std::move(found);
  return o;
}

}  // namespace

TEST_CASE("CountPlan counts rules by outcome and every site by liveness") {
  PlanResult plan;
  // A tiers rule: one dead rule, three dead sites (the words must not mix
  // the two, as a "7 dead sites" note beside "10 dead" rules once did).
  plan.outcomes.push_back(
      Outcome(RuleStatus::kDead,
              {SiteThat(Liveness::kDead), SiteThat(Liveness::kDead), SiteThat(Liveness::kDead)}));
  plan.outcomes.push_back(Outcome(RuleStatus::kRewrites, {SiteThat(Liveness::kLive)}));
  plan.outcomes.push_back(Outcome(RuleStatus::kHandTuned, {SiteThat(Liveness::kUnknown, true)}));
  plan.outcomes.push_back(Outcome(RuleStatus::kAlreadyApplied, {SiteThat(std::nullopt)}));
  plan.outcomes.push_back(Outcome(RuleStatus::kSkipped, {}));
  plan.outcomes.push_back(Outcome(RuleStatus::kNoValue, {}));
  plan.outcomes.push_back(Outcome(RuleStatus::kFailed, {}));
  const PlanCounts c = CountPlan(plan);
  CHECK(c.rules == 7);
  CHECK(c.rewrite == 1);
  CHECK(c.at_value == 1);
  CHECK(c.skipped == 1);
  CHECK(c.no_value == 1);
  CHECK(c.dead == 1);
  CHECK(c.hand_tuned == 1);
  CHECK(c.failed == 1);
  CHECK(c.LeftAlone() == 5);
  CHECK(c.sites == 6);
  CHECK(c.live_sites == 1);
  CHECK(c.dead_sites == 3);
  CHECK(c.unknown_sites == 2);  // no verdict counts as unknown
  CHECK(c.kept_sites == 1);
  CHECK(SitesByLiveness(c) == "6 sites: 1 live, 3 dead, 2 unknown");
  CHECK(SitesByLiveness(CountPlan(PlanResult{})) == "0 sites: 0 live, 0 dead, 0 unknown");
}

TEST_CASE("a rule is left alone when it changes nothing and did not fail, kept values too") {
  CHECK(LeftAlone(RuleStatus::kAlreadyApplied));
  CHECK(LeftAlone(RuleStatus::kSkipped));
  CHECK(LeftAlone(RuleStatus::kNoValue));
  CHECK(LeftAlone(RuleStatus::kDead));
  CHECK(LeftAlone(RuleStatus::kHandTuned));
  CHECK_FALSE(LeftAlone(RuleStatus::kRewrites));
  CHECK_FALSE(LeftAlone(RuleStatus::kFailed));
}

}  // namespace muh
