#include <doctest/doctest.h>

#include "engine/rules/finder.h"
#include "engine/rules/rule_loader.h"

namespace muh {

namespace {

std::string Load(const std::string& rule_tail, RuleSet* set) {
  std::string text =
      "version: 1\nvalues:\n  stages: 2\nrules:\n  - id: s\n    files: vllm/a.py\n" + rule_tail;
  std::vector<Diagnostic> errs;
  LoadRules("r.yaml", text, {}, set, &errs);
  std::string out;
  for (const Diagnostic& d : errs) out += d.Format() + "\n";
  return out;
}

// The texts of the sites `argument_of` finds in `source`.
std::vector<std::string> Values(const std::string& argument_of, const std::string& source) {
  RuleSet set;
  REQUIRE(Load("    argument-of: " + argument_of + "\n    with: \"{{stages}}\"\n", &set) == "");
  PythonParser parser;
  SyntaxTree tree = parser.Parse(source);
  std::vector<std::string> out;
  for (const SiteMatch& s : set.rules[0].finder->Find(tree).sites) {
    out.push_back(s.match.Find(s.target)->text);
  }
  return out;
}

}  // namespace

TEST_CASE("argument-of: the keyword's value at each call, a Triton launch too") {
  const std::string source =
      "def f(g):\n    k(1, num_stages=1)\n    k[g](x, num_stages=3, num_warps=4)\n"
      "    other(num_stages=5)\n    k(num_warps=4)\n";
  CHECK(Values("{call: k, name: num_stages}", source) == std::vector<std::string>{"1", "3"});
  RuleSet set;
  CHECK(Load("    argument-of: {call: k, name: num_stages}\n    with: \"{{stages}}\"\n", &set) ==
        "");
  CHECK(set.rules[0].target == "value");
  CHECK(set.rules[0].expect_max > 1);
}

TEST_CASE("argument-of with 'in': only the calls inside that function, at any depth") {
  const std::string source =
      "def f(g):\n    if g:\n        k[g](num_stages=1)\n\n\ndef h(g):\n"
      "    k[g](num_stages=2)\n";
  CHECK(Values("{call: k, name: num_stages, in: f}", source) == std::vector<std::string>{"1"});
  CHECK(Values("{call: k, name: num_stages, in: nowhere}", source).empty());
}

TEST_CASE("argument-of errors are located in the rule file") {
  RuleSet set;
  CHECK(Load("    argument-of: k\n    with: \"1\"\n", &set) ==
        "r.yaml:7:18: error: 'argument-of' must be a mapping: {call: FUNCTION, name: "
        "KEYWORD}\n");
  CHECK(Load("    argument-of: {call: k}\n    with: \"1\"\n", &set) ==
        "r.yaml:7:18: error: 'argument-of' needs 'name': the keyword argument whose value the "
        "rule rewrites\n");
  CHECK(Load("    argument-of: {call: k.f, name: n}\n    with: \"1\"\n", &set) ==
        "r.yaml:7:25: error: 'call' is a Python name, got 'k.f'\n");
  CHECK(Load("    argument-of: {call: k, name: n}\n    replace: value\n    with: \"1\"\n", &set) ==
        "r.yaml:5:5: error: a rule with 'argument-of' replaces the value it names: no 'replace', "
        "'delete' or 'append-to'\n");
}

}  // namespace muh
