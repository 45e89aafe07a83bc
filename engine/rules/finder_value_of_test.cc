#include "engine/rules/finder_value_of.h"

#include <doctest/doctest.h>

#include "engine/rules/rule_loader.h"

namespace muh {

namespace {

std::string Errors(const std::string& rule_tail, RuleSet* set = nullptr) {
  std::string text =
      "version: 1\nvalues:\n  size: 64\nrules:\n  - id: tile\n    files: vllm/a.py\n" + rule_tail;
  RuleSet own;
  std::vector<Diagnostic> errs;
  LoadRules("r.yaml", text, {}, set != nullptr ? set : &own, &errs);
  std::string out;
  for (const Diagnostic& d : errs) out += d.Format() + "\n";
  return out;
}

}  // namespace

TEST_CASE("a value-of rule loads: its question, the value as its target, any number of sites") {
  RuleSet set;
  CHECK(Errors("    value-of:\n      name: BLOCK\n      in: fwd\n"
               "      when-false: not ( cap(80) )\n    with: \"{{size}}\"\n",
               &set) == "");
  REQUIRE(set.rules.size() == 1);
  const Rule& r = set.rules[0];
  const auto* finder = dynamic_cast<const ValueOfFinder*>(r.finder.get());
  REQUIRE(finder != nullptr);
  const ValueQuestion& q = finder->question();
  CHECK(q.variable == "BLOCK");
  CHECK(q.function == "fwd");
  CHECK(q.condition.canonical == "cap ( 80 )");
  CHECK(q.condition.negated);
  CHECK_FALSE(q.holds);
  CHECK(r.target == "value");
  CHECK(r.action == ActionKind::kReplace);
  CHECK(r.expect == 1);
  CHECK(r.expect_max > 1);
  CHECK(finder->query()->HasCapture("value"));
}

TEST_CASE("value-of a dict's key: its query finds the entry and writes to the key") {
  RuleSet set;
  CHECK(Errors("    value-of:\n      name: config\n      key: BLOCK_SIZE_M\n      in: fwd\n"
               "      when-true: small\n    with: \"{{size}}\"\n",
               &set) == "");
  REQUIRE(set.rules.size() == 1);
  const auto* finder = dynamic_cast<const ValueOfFinder*>(set.rules[0].finder.get());
  REQUIRE(finder != nullptr);
  CHECK(finder->question().key == "BLOCK_SIZE_M");
  CHECK(finder->question().holds);
  CHECK(Errors("    value-of:\n      name: config\n      key: \"'M'\"\n      in: fwd\n"
               "      when-true: small\n    with: \"1\"\n") ==
        "r.yaml:9:12: error: 'key' is a dict key as its string holds it, without quotes\n");
}

TEST_CASE("value-of errors are located in the rule file") {
  CHECK(Errors("    value-of: BLOCK\n    with: \"1\"\n") ==
        "r.yaml:7:15: error: 'value-of' must be a mapping: {name: VARIABLE, in: FUNCTION, "
        "when-false: CONDITION}\n");
  CHECK(Errors("    value-of:\n      name: BLOCK\n      in: fwd\n    with: \"1\"\n") ==
        "r.yaml:8:7: error: 'value-of' needs one of 'when-false' or 'when-true': the condition "
        "whose path the rule rewrites\n");
  CHECK(Errors("    value-of:\n      name: d['K']\n      in: fwd\n      when-true: c\n"
               "    with: \"1\"\n") ==
        "r.yaml:8:13: error: 'name' is a Python name, got 'd['K']'\n");
  CHECK(Errors("    value-of:\n      name: BLOCK\n      in: fwd\n      when-false: cap(80\n"
               "    with: \"1\"\n") ==
        "r.yaml:10:25: error: 'when-false': syntax error in the condition (is it Python?)\n");
  CHECK(Errors("    value-of:\n      name: BLOCK\n      in: fwd\n      when-true: c\n"
               "      where: x\n    with: \"1\"\n") ==
        "r.yaml:11:7: error: unknown key 'where' in value-of\n");
  CHECK(Errors("    value-of:\n      name: BLOCK\n      in: fwd\n      when-true: c\n"
               "    replace: value\n    with: \"1\"\n") ==
        "r.yaml:5:5: error: a rule with 'value-of' replaces the value it names: no 'replace', "
        "'delete' or 'append-to'\n");
  CHECK(Errors("    value-of:\n      name: BLOCK\n      in: fwd\n      when-true: c\n") ==
        "r.yaml:7:5: error: rule 'tile' has 'value-of' but no 'with'\n");
}

TEST_CASE("value-of finds each value on the rule's path, and a shared one with its condition") {
  RuleSet set;
  REQUIRE(Errors("    value-of:\n      name: B\n      in: f\n      when-false: cap(80)\n"
                 "    with: \"{{size}}\"\n",
                 &set) == "");
  PythonParser parser;
  std::string text = "def f():\n    B = 1 if cap(80) else 2\n    C = 3\n    go(B)\n";
  SyntaxTree tree = parser.Parse(text);
  FoundSites found = set.rules[0].finder->Find(tree);
  CHECK(found.lost.empty());
  REQUIRE(found.sites.size() == 1);
  CHECK(found.sites[0].match.Find("value")->text == "2");
  CHECK(found.sites[0].path_only);
  std::string none = "def f():\n    go(B)\n";
  SyntaxTree without = parser.Parse(none);
  found = set.rules[0].finder->Find(without);
  CHECK(found.sites.empty());
  CHECK_FALSE(found.lost.empty());
}

}  // namespace muh
