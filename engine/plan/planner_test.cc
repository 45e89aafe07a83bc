#include "engine/plan/planner.h"

#include <doctest/doctest.h>

#include "engine/rules/rule_loader.h"

namespace muh {

namespace {

struct Fixture {
  RuleSet rules;
  std::map<std::string, SourceText> files;
  std::vector<std::string> paths;

  Fixture(const std::string& rules_text, std::map<std::string, std::string> contents) {
    std::vector<Diagnostic> errs;
    REQUIRE(LoadRules("r.yaml", rules_text, {}, &rules, &errs));
    for (auto& [p, text] : contents) {
      files.emplace(p, SourceText(p, text));
      paths.push_back(p);
    }
  }
  PlanResult Run() const { return Plan(rules, files, paths); }
};

std::string Messages(const PlanResult& r) {
  std::string out;
  for (const Diagnostic& d : r.diagnostics) out += d.Format() + "\n";
  return out;
}

const char* kHeader = "version: 1\nvalues:\n  size: 1024\n  other: 7\nrules:\n";

std::string RuleYaml(const std::string& id, const std::string& name, const std::string& value,
                     const std::string& extra = "") {
  return "  - id: " + id +
         "\n    files: a.py\n    query: '((assignment left: (identifier) @n right: (_) @v) (#eq? "
         "@n \"" +
         name + "\"))'\n    replace: v\n    with: \"" + value + "\"\n" + extra;
}

}  // namespace

TEST_CASE("a rule rewrites its one site; an equal value makes no edit") {
  Fixture f(
      std::string(kHeader) + RuleYaml("r1", "A", "{{size}}") + RuleYaml("r2", "B", "{{size}}"),
      {{"a.py", "A = 512\nB = 2 ** 10\n"}});
  PlanResult r = f.Run();
  REQUIRE(r.ok());
  CHECK(r.new_contents.at("a.py") == "A = 1024\nB = 2 ** 10\n");
  REQUIRE(r.outcomes.size() == 2);
  CHECK(r.outcomes[0].status == RuleStatus::kRewrites);
  CHECK(r.outcomes[1].status == RuleStatus::kAlreadyApplied);  // 2 ** 10 == 1024
  CHECK(PlanSummary(r) == "2 rules: 1 rewrite, 1 already at their value, 0 skipped");
}

TEST_CASE("a wrong match count names the rule, the file and the count") {
  Fixture f(std::string(kHeader) + RuleYaml("r1", "A", "{{size}}"), {{"a.py", "A = 1\nA = 2\n"}});
  PlanResult r = f.Run();
  CHECK(Messages(r) ==
        "a.py:2:5: error: rule 'r1' expects 1 match in a.py, found 2 (at lines 1, 2)\n");
  Fixture none(std::string(kHeader) + RuleYaml("r1", "A", "{{size}}"), {{"a.py", "B = 1\n"}});
  CHECK(
      Messages(none.Run()) ==
      "r.yaml:6:5: error: rule 'r1' expects 1 match in a.py, found 0: no `(identifier) @n (#eq? @n "
      "\"A\")` in the file\n");
}

TEST_CASE("overlapping edits from two rules name both") {
  std::string rules = std::string(kHeader) + RuleYaml("first", "A", "{{size}}") +
                      "  - id: second\n    files: a.py\n    query: '(assignment right: (_) @v)'\n"
                      "    replace: v\n    with: \"{{other}}\"\n";
  Fixture f(rules, {{"a.py", "A = 1\n"}});
  CHECK(Messages(f.Run()) ==
        "a.py:1:5: error: rules 'first' and 'second' edit overlapping bytes\n");
}

TEST_CASE("a rewrite that breaks the syntax is refused, naming the edit") {
  Fixture f(std::string(kHeader) + RuleYaml("r1", "A", "({{size}}"), {{"a.py", "A = 1\nB = 2\n"}});
  PlanResult r = f.Run();
  CHECK(r.new_contents.empty());
  CHECK(Messages(r) ==
        "a.py:1:5: error: rewrite by rule 'r1' ('1' -> '(1024') would introduce a syntax error; "
        "refused\n");
}

TEST_CASE("preconditions skip, or fail when required") {
  std::string pre =
      "    preconditions:\n      - name: no stub\n        absent: '((identifier) @s (#eq? @s "
      "\"STUB\"))'\n";
  Fixture skip(std::string(kHeader) + RuleYaml("r1", "A", "{{size}}", pre),
               {{"a.py", "A = 1\nSTUB\n"}});
  PlanResult r = skip.Run();
  CHECK(r.ok());
  CHECK(r.new_contents.empty());
  CHECK(Messages(r) == "a.py:2:1: note: rule 'r1' skipped: precondition 'no stub' is not met\n");
  Fixture required(
      std::string(kHeader) + RuleYaml("r1", "A", "{{size}}", pre + "        required: true\n"),
      {{"a.py", "A = 1\nSTUB\n"}});
  CHECK(Messages(required.Run()) ==
        "a.py:2:1: error: rule 'r1' cannot run: required precondition 'no stub' is not met\n");
}

TEST_CASE("a file that does not parse is never rewritten") {
  Fixture f(std::string(kHeader) + RuleYaml("r1", "A", "{{size}}"), {{"a.py", "A = (1\n"}});
  PlanResult r = f.Run();
  CHECK_FALSE(r.ok());
  CHECK(r.new_contents.empty());
}

}  // namespace muh

namespace muh {

TEST_CASE("deleting the empty module of an empty file plans nothing") {
  for (const char* text : {"", "\n", "\r\n", "\n\n"}) {
    CAPTURE(text);
    Fixture f(std::string(kHeader) +
                  "  - id: m\n    files: a.py\n    query: (module) @m\n    delete: m\n",
              {{"a.py", text}});
    PlanResult r = f.Run();
    CHECK(Messages(r).empty());
    CHECK(r.new_contents.empty());
    CHECK(r.edits.empty());
  }
}

}  // namespace muh
