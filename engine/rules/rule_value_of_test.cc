#include "engine/rules/rule_value_of.h"

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
  REQUIRE(r.value_of);
  CHECK(r.value_of->variable == "BLOCK");
  CHECK(r.value_of->function == "fwd");
  CHECK(r.value_of->condition.canonical == "cap ( 80 )");
  CHECK(r.value_of->condition.negated);
  CHECK_FALSE(r.value_of->holds);
  CHECK(r.target == kValueOfTarget);
  CHECK(r.action == ActionKind::kReplace);
  CHECK(r.expect == 1);
  CHECK(r.expect_max > 1);
  REQUIRE(r.query);
  CHECK(r.query->HasCapture("value"));
}

TEST_CASE("value-of a dict's key: its query finds the entry and writes to the key") {
  RuleSet set;
  CHECK(Errors("    value-of:\n      name: config\n      key: BLOCK_SIZE_M\n      in: fwd\n"
               "      when-true: small\n    with: \"{{size}}\"\n",
               &set) == "");
  REQUIRE(set.rules.size() == 1);
  REQUIRE(set.rules[0].value_of);
  CHECK(set.rules[0].value_of->key == "BLOCK_SIZE_M");
  CHECK(set.rules[0].value_of->holds);
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
        "r.yaml:5:5: error: a 'value-of' rule replaces the value it names: no 'replace', "
        "'delete' or 'append-to'\n");
  CHECK(Errors("    value-of:\n      name: BLOCK\n      in: fwd\n      when-true: c\n") ==
        "r.yaml:7:5: error: rule 'tile' has 'value-of' but no 'with'\n");
}

}  // namespace muh
