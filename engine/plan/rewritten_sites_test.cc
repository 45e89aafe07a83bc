#include "engine/plan/rewritten_sites.h"

#include <doctest/doctest.h>

namespace muh {

namespace {

Site At(int line, std::string current, std::string wanted, bool kept = false,
        std::optional<Liveness> state = std::nullopt) {
  Site s;
  s.path = "a.py";
  s.line = line;
  s.current = std::move(current);
  s.wanted = std::move(wanted);
  s.kept = kept;
  if (state) s.liveness = SiteVerdict{*state, "", {}};
  return s;
}

}  // namespace

TEST_CASE("a rule fails at the first site it rewrites that a check refuses, and only there") {
  PlanResult plan;
  RuleOutcome& a = plan.outcomes.emplace_back();
  a.rule_id = "a";
  a.status = RuleStatus::kRewrites;
  a.found = {At(1, "8", "8"), At(2, "64", "32", true), At(3, "64", "16", false, Liveness::kDead),
             At(4, "64", "32"), At(5, "32", "16")};
  RuleOutcome& b = plan.outcomes.emplace_back();
  b.rule_id = "b";
  b.status = RuleStatus::kSkipped;
  b.found = {At(9, "1", "2")};
  std::vector<int> asked;
  auto check = [&](const RuleOutcome&, const Site& s) -> std::optional<Diagnostic> {
    asked.push_back(s.line);
    return Diagnostic{s.path, s.line, 1, Severity::kError, "refused"};
  };
  CHECK(FailAtFirstRewrite(&plan, false, check) == std::set<std::string>{"a"});
  // At value, kept and dead sites are not asked; the first refusal ends the rule.
  CHECK(asked == std::vector<int>{4});
  REQUIRE(plan.diagnostics.size() == 1);
  CHECK(plan.diagnostics[0].rule_id == "a");
  CHECK(plan.outcomes[0].status == RuleStatus::kFailed);
  CHECK(plan.outcomes[1].status == RuleStatus::kSkipped);
  // A failed rule is not asked again; with include_dead a dead site is.
  asked.clear();
  CHECK(FailAtFirstRewrite(&plan, true, check).empty());
  CHECK(asked.empty());
  plan.outcomes[0].status = RuleStatus::kRewrites;
  CHECK(FailAtFirstRewrite(&plan, true, check) == std::set<std::string>{"a"});
  CHECK(asked == std::vector<int>{3});
}

TEST_CASE("a site is rewritten when the rule writes another value and keeps none") {
  CHECK(Rewritten(At(1, "64", "32")));
  CHECK_FALSE(Rewritten(At(1, "32", "32")));
  CHECK_FALSE(Rewritten(At(1, "64", "")));
  CHECK_FALSE(Rewritten(At(1, "64", "32", true)));
}

}  // namespace muh
