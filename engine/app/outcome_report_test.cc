#include "engine/app/outcome_report.h"

#include <doctest/doctest.h>

namespace muh {

namespace {

Site At(const std::string& path, int line, std::size_t begin, const std::string& now,
        const std::string& wanted, Liveness liveness, const std::string& why = "") {
  Site s;
  s.path = path;
  s.line = line;
  s.column = 5;
  s.begin = begin;
  s.end = begin + now.size();
  s.current = now;
  s.wanted = wanted;
  s.liveness = SiteVerdict{liveness, why};
  return s;
}

RuleOutcome Outcome(const std::string& id, RuleStatus status, std::vector<Site> found,
                    std::string reason = "") {
  RuleOutcome o;
  o.rule_id = id;
  o.status = status;
  o.found = std::move(found);
  o.reason = std::move(reason);
  return o;
}

// One rule of each outcome: rewrites a live site and an unknown one, is
// skipped by a precondition a site blocked, is dead, is at its value, fails.
PlanResult Mixed() {
  PlanResult plan;
  plan.outcomes.push_back(
      Outcome("live", RuleStatus::kRewrites,
              {At("a.py", 3, 10, "1", "2", Liveness::kLive),
               At("a.py", 9, 90, "1", "2", Liveness::kUnknown, "no entry module")}));
  plan.edits["a.py"] = {Edit{"a.py", 10, 1, "2", "live", ""}, Edit{"a.py", 90, 1, "2", "live", ""}};
  const std::string skip = "rule 'gated' skipped: precondition 'p' is not met";
  plan.outcomes.push_back(Outcome("gated", RuleStatus::kSkipped,
                                  {At("b.py", 13, 5, "512", "", Liveness::kLive)}, skip));
  plan.diagnostics.push_back(Diagnostic{"c.py", 54, 5, Severity::kNote, skip});
  plan.outcomes.push_back(
      Outcome("gone", RuleStatus::kDead,
              {At("b.py", 20, 50, "64", "32", Liveness::kDead, "never imported")}));
  plan.outcomes.push_back(Outcome("done", RuleStatus::kAlreadyApplied,
                                  {At("b.py", 30, 80, "8", "8", Liveness::kLive)}));
  plan.outcomes.push_back(Outcome("broken", RuleStatus::kFailed, {}));
  plan.diagnostics.push_back(MakeError("d.py", 7, 1, "rule 'broken' expects 1 match, found 2"));
  plan.diagnostics.push_back(MakeNote("", 0, 0, "1 dead site left alone"));
  return plan;
}

std::vector<std::string> Formatted(const std::vector<Diagnostic>& ds) {
  std::vector<std::string> out;
  for (const Diagnostic& d : ds) out.push_back(d.Format());
  return out;
}

}  // namespace

TEST_CASE("outcomes: the failed and the unknown need you, and the others are counted in one line") {
  OutcomeReport r = ReportOutcomes(Mixed(), "rules.yaml", false);
  CHECK(Formatted(r.needs_you) ==
        std::vector<std::string>{
            "d.py:7:1: error: rule 'broken' expects 1 match, found 2",
            "a.py:9:5: note: rule 'live' rewrites a site that may not run: cannot tell whether "
            "it runs on the served platform (no entry module)"});
  CHECK(r.summary ==
        "5 rules: 1 rewrite, 1 already at its value, 1 skipped, 1 dead, 1 failed; 5 sites: 3 "
        "live, 1 dead, 1 unknown (-v lists the 3 left alone; `muhpatch status` says why)");
}

TEST_CASE("outcomes: under -v the summary does not offer -v") {
  OutcomeReport r = ReportOutcomes(Mixed(), "rules.yaml", true);
  CHECK(r.summary ==
        "5 rules: 1 rewrite, 1 already at its value, 1 skipped, 1 dead, 1 failed; 5 sites: 3 "
        "live, 1 dead, 1 unknown (`muhpatch status` says why each is left alone)");
}

TEST_CASE("outcomes: -v lists each rule left alone at its knob, with its reason") {
  OutcomeReport r = ReportOutcomes(Mixed(), "rules.yaml", false);
  CHECK(Formatted(r.left_alone) ==
        std::vector<std::string>{
            "b.py:13:5: note: rule 'gated' skipped: precondition 'p' is not met (c.py:54)",
            "b.py:20:5: note: rule 'gone' left alone: dead: never imported (--include-dead "
            "rewrites it)",
            "b.py:30:5: note: rule 'done' at its value '8'"});
}

TEST_CASE(
    "outcomes: nothing left alone, no summary, and a hand-tuned warning a dead site withdrew") {
  PlanResult plan;
  plan.outcomes.push_back(
      Outcome("live", RuleStatus::kRewrites, {At("a.py", 3, 10, "1", "2", Liveness::kLive)}));
  plan.edits["a.py"] = {Edit{"a.py", 10, 1, "2", "live", ""}};
  CHECK(LeftAloneSummary(plan, false).empty());
  Site tuned = At("b.py", 4, 40, "7", "2", Liveness::kDead, "overwritten");
  tuned.hand_tuned = true;
  plan.outcomes.push_back(Outcome("tuned", RuleStatus::kDead, {tuned}));
  plan.diagnostics.push_back(
      Diagnostic{"b.py", 4, 5, Severity::kWarning, "a hand-tuned value is overwritten"});
  OutcomeReport r = ReportOutcomes(plan, "rules.yaml", false);
  CHECK(r.needs_you.empty());
  CHECK(r.summary ==
        "2 rules: 1 rewrite, 1 dead; 2 sites: 1 live, 1 dead, 0 unknown (-v lists the 1 left "
        "alone; `muhpatch status` says why)");
}

TEST_CASE("outcomes: a precondition that matched nowhere keeps its note at the rule file") {
  PlanResult plan;
  const std::string skip = "rule 'g' skipped: precondition 'p' is not met (no match in x.py)";
  plan.outcomes.push_back(Outcome("g", RuleStatus::kSkipped, {}, skip));
  plan.diagnostics.push_back(Diagnostic{"rules.yaml", 18, 9, Severity::kNote, skip});
  OutcomeReport r = ReportOutcomes(plan, "rules.yaml", false);
  CHECK(Formatted(r.left_alone) == std::vector<std::string>{"rules.yaml:18:9: note: " + skip});
  CHECK(r.needs_you.empty());
}

}  // namespace muh
