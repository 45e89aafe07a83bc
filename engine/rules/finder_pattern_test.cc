#include <doctest/doctest.h>

#include "engine/rules/finder.h"
#include "engine/rules/finder_kind.h"
#include "engine/rules/rule_loader.h"

namespace muh {

namespace {

std::string Errors(const std::string& rule_tail) {
  std::string text =
      "version: 1\nvalues:\n  size: 1024\nrules:\n  - id: part\n    files: vllm/a.py\n" + rule_tail;
  RuleSet set;
  std::vector<Diagnostic> errs;
  LoadRules("r.yaml", text, {}, &set, &errs);
  std::string out;
  for (const Diagnostic& d : errs) out += d.Format() + "\n";
  return out;
}

}  // namespace

TEST_CASE("a rule with a code pattern loads, its metavariables are its captures") {
  RuleSet set;
  std::vector<Diagnostic> errs;
  REQUIRE(LoadRules("r.yaml",
                    "version: 1\nvalues:\n  size: 1024\nrules:\n  - id: part\n"
                    "    files: vllm/a.py\n"
                    "    inside: |\n      def f($$$):\n          $$$\n"
                    "    pattern: _P = $value\n"
                    "    where:\n      value: {range: [1, 4096]}\n"
                    "    replace: value\n    with: \"{{size}}\"\n",
                    {}, &set, &errs));
  REQUIRE(set.rules.size() == 1);
  CHECK(set.rules[0].finder->query()->HasCapture("value"));
  CHECK(set.rules[0].target == "value");
}

TEST_CASE("errors in a pattern point into the rule file") {
  // a block scalar: line and column of the character at fault
  CHECK(Errors("    pattern: |\n      if numel <= $B\n          x = $V\n"
               "    replace: V\n    with: \"{{size}}\"\n") ==
        "r.yaml:8:21: error: 'pattern': syntax error in the pattern (is it Python?)\n");
  // a plain scalar
  CHECK(Errors("    pattern: x = f($$$ $)\n    replace: x\n    with: \"{{size}}\"\n") ==
        "r.yaml:7:24: error: 'pattern': '$' starts no metavariable: write $NAME for one node, "
        "$$$ for a run of them\n");
  // the second alternative of a list
  CHECK(Errors("    pattern:\n      - x = $V\n      - y = $V $V\n"
               "    replace: V\n    with: \"{{size}}\"\n") ==
        "r.yaml:9:13: error: 'pattern': syntax error in the pattern (is it Python?)\n");
  CHECK(Errors("    inside: \"def f(:\"\n    pattern: x = $V\n"
               "    replace: V\n    with: \"{{size}}\"\n") ==
        "r.yaml:7:20: error: 'inside': missing ')' in the pattern (is it Python?)\n");
}

TEST_CASE("where: unknown metavariables, bad tests, bad ranges") {
  std::string tail = "    pattern: x = $V\n    replace: V\n    with: \"{{size}}\"\n    where:\n";
  CHECK(Errors(tail + "      W: 1\n") ==
        "r.yaml:11:7: error: 'where' names no metavariable of the pattern: 'W' (it has $V)\n");
  CHECK(Errors(tail + "      V: {regx: a}\n") ==
        "r.yaml:11:11: error: unknown 'where' test 'regx' (did you mean 'regex'?) (known: regex, "
        "range, any-of)\n");
  CHECK(Errors(tail + "      V: {range: [9, 2]}\n") ==
        "r.yaml:11:19: error: the range [9, 2] is empty\n");
  CHECK(Errors(tail + "      V: {range: [a, 2]}\n") ==
        "r.yaml:11:19: error: a range bound is a whole number of at least 0, got 'a'\n");
  CHECK(Errors(tail + "      V: {regex: '('}\n") ==
        "r.yaml:11:18: error: invalid regular expression '(': missing ): (\n");
}

TEST_CASE("a rule has a pattern or a query, and inside and where go with a pattern") {
  CHECK(Errors("    pattern: x = $V\n    query: (identifier) @V\n    replace: V\n"
               "    with: \"{{size}}\"\n") ==
        "r.yaml:7:5: error: a rule has a 'pattern' or a 'query', not both\n");
  CHECK(Errors("    query: ((identifier) @V)\n    inside: \"def f(): pass\"\n    replace: V\n"
               "    with: \"{{size}}\"\n") ==
        "r.yaml:8:5: error: 'inside' only goes with 'pattern'\n");
  CHECK(Errors("    replace: V\n    with: \"{{size}}\"\n") ==
        "r.yaml:5:5: error: rule 'part' has no 'pattern' or 'query'\n");
  CHECK(Errors("    pattern: x = $V\n    replace: W\n    with: \"{{size}}\"\n") ==
        "r.yaml:8:14: error: unknown capture '@W' in 'replace' (did you mean 'V'?) (query "
        "captures: @V)\n");
}

TEST_CASE("expect: a number or a range of them") {
  std::string tail = "    pattern: x = $V\n    replace: V\n    with: \"{{size}}\"\n";
  CHECK(Errors(tail + "    expect: 2..6\n").empty());
  CHECK(Errors(tail + "    expect: 6..2\n") ==
        "r.yaml:10:13: error: 'expect' must be a whole number of at least 1, or a range LO..HI "
        "of them, got '6..2'\n");
  CHECK(Errors(tail + "    expect: 0\n") ==
        "r.yaml:10:13: error: 'expect' must be a whole number of at least 1, or a range LO..HI "
        "of them, got '0'\n");
}

}  // namespace muh
