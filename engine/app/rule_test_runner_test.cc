#include "engine/app/rule_test_runner.h"

#include <doctest/doctest.h>

#include "engine/rules/rule_loader.h"

namespace muh {

namespace {

RuleSet OneRule() {
  RuleSet rules;
  std::vector<Diagnostic> errs;
  REQUIRE(LoadRules("r.yaml", R"(version: 1
values:
  size: 1024
rules:
  - id: part
    files: a.py
    query: |
      ((assignment left: (identifier) @name right: (integer) @value)
       (#eq? @name "_P"))
    replace: value
    with: "{{size}}"
)",
                    nullptr, &rules, &errs));
  return rules;
}

std::string Errors(const RuleTestReport& r) {
  std::string out;
  for (const Diagnostic& d : r.load_errors) out += d.Format() + "\n";
  return out;
}

}  // namespace

TEST_CASE("rule tests: a case that rewrites as 'fixed' says passes") {
  RuleTestReport r = RunRuleTests(OneRule(), "t.yaml", R"(tests:
  - rule: part
    match:
      - code: "_P = 512\n"
        fixed: "_P = 1024\n"
    no-match:
      - code: "_Q = 512\n"
)");
  CHECK(Errors(r).empty());
  CHECK(r.passed == 2);
  CHECK(r.failed == 0);
  CHECK(r.untested.empty());
}

TEST_CASE("rule tests: unknown keys are located errors, never dropped cases") {
  RuleTestReport r = RunRuleTests(OneRule(), "t.yaml", R"(tests:
  - rule: part
    matches:
      - code: "_P = 512\n"
    match:
      - code: "_P = 512\n"
        fixd: "_P = 1024\n"
)");
  CHECK(Errors(r) ==
        "t.yaml:3:5: error: unknown key 'matches' in test (did you mean 'match'?)\n"
        "t.yaml:7:9: error: unknown key 'fixd' in test case (did you mean 'fixed'?)\n");
  CHECK(r.passed == 0);
}

TEST_CASE("rule tests: a missing 'code' and an unknown rule are located") {
  RuleTestReport r = RunRuleTests(OneRule(), "t.yaml", R"(tests:
  - rule: prat
  - rule: part
    match:
      - fixed: "x"
)");
  CHECK(Errors(r) ==
        "t.yaml:2:11: error: no rule 'prat' in r.yaml (did you mean 'part'?)\n"
        "t.yaml:5:9: error: a case needs 'code'\n");
}

TEST_CASE("rule tests: malformed YAML and wrong shapes are located") {
  CHECK(Errors(RunRuleTests(OneRule(), "t.yaml", "tests: [\n")).rfind("t.yaml:2:1: error: ", 0) ==
        0);
  CHECK(Errors(RunRuleTests(OneRule(), "t.yaml", "- 1\n")) ==
        "t.yaml:1:1: error: a rule test file must be a mapping with a list 'tests'\n");
}

}  // namespace muh
