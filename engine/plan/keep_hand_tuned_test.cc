#include "engine/plan/keep_hand_tuned.h"

#include <doctest/doctest.h>

namespace muh {

namespace {

Site At(const std::string& text, const std::string& value, std::size_t nth = 0) {
  Site s;
  s.path = "f.py";
  std::size_t at = 0;
  for (std::size_t k = 0; k <= nth; ++k) at = text.find("= ", at) + 2;
  s.begin = at;
  s.end = text.find('\n', at);
  s.current = text.substr(s.begin, s.end - s.begin);
  s.wanted = value;
  return s;
}

}  // namespace

TEST_CASE("a value kept by hand on the patched tree replaces the rule's in the pre-image's plan") {
  const std::string pre_text = "m = 32\nn = 64\nk = 8\n";
  const std::string now_text = "m = 24\nn = 16\nk = 8\n";  // m tuned by hand, n muhpatch's
  std::map<std::string, SourceText> pre = {{"f.py", SourceText("f.py", pre_text)}};
  PlanResult pre_plan;
  RuleOutcome tiers;
  tiers.rule_id = "tiers";
  tiers.status = RuleStatus::kRewrites;
  tiers.found = {At(pre_text, "16", 0), At(pre_text, "16", 1), At(pre_text, "8", 2)};
  pre_plan.outcomes = {tiers};
  pre_plan.edits["f.py"] = {{"f.py", tiers.found[0].begin, 2, "16", "tiers", ""},
                            {"f.py", tiers.found[1].begin, 2, "16", "tiers", ""}};
  pre_plan.new_contents["f.py"] = "m = 16\nn = 16\nk = 8\n";
  PlanResult now_plan;
  RuleOutcome kept;
  kept.rule_id = "tiers";
  kept.status = RuleStatus::kHandTuned;
  kept.found = {At(now_text, "16", 0), At(now_text, "16", 1), At(now_text, "8", 2)};
  kept.found[0].hand_tuned = kept.found[0].kept = true;
  now_plan.outcomes = {kept};

  KeptPlan out = KeepHandTuned(pre, pre_plan, now_plan);
  CHECK(out.new_contents.at("f.py") == now_text);
  REQUIRE(out.hand_tuned.size() == 1);
  CHECK(out.hand_tuned[0] == HandTunedRecord{"tiers", "f.py", 1});

  // Nothing kept: the pre-image's plan as it is, and no record.
  now_plan.outcomes[0].found[0].kept = false;
  out = KeepHandTuned(pre, pre_plan, now_plan);
  CHECK(out.new_contents.at("f.py") == "m = 16\nn = 16\nk = 8\n");
  CHECK(out.hand_tuned.empty());
}

TEST_CASE("a kept value the pre-image holds already is no edit and no record") {
  const std::string text = "m = 48\nn = 64\n";
  std::map<std::string, SourceText> pre = {{"f.py", SourceText("f.py", text)}};
  PlanResult pre_plan;
  RuleOutcome o;
  o.rule_id = "tiers";
  o.status = RuleStatus::kHandTuned;
  o.found = {At(text, "16", 0), At(text, "64", 1)};
  o.found[0].kept = true;
  pre_plan.outcomes = {o};
  KeptPlan out = KeepHandTuned(pre, pre_plan, pre_plan);
  CHECK(out.new_contents.empty());
  CHECK(out.hand_tuned.empty());
}

}  // namespace muh
