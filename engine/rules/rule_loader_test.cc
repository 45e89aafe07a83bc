#include "engine/rules/rule_loader.h"

#include <doctest/doctest.h>

namespace muh {

namespace {
std::string Errors(const std::string& text) {
  RuleSet set;
  std::vector<Diagnostic> errs;
  LoadRules("r.yaml", text, {}, &set, &errs);
  std::string out;
  for (const Diagnostic& d : errs) out += d.Format() + "\n";
  return out;
}

const char* kGood = R"(version: 1
values:
  size: 1024
rules:
  - id: part
    files: vllm/a.py
    query: |
      ((assignment left: (identifier) @name right: (integer) @value)
       (#eq? @name "_P"))
    replace: value
    with: "{{size}}"
)";
}  // namespace

TEST_CASE("a good rule file loads") {
  RuleSet set;
  std::vector<Diagnostic> errs;
  REQUIRE(LoadRules("r.yaml", kGood, {}, &set, &errs));
  REQUIRE(set.rules.size() == 1);
  CHECK(set.rules[0].id == "part");
  CHECK(set.rules[0].files == std::vector<std::string>{"vllm/a.py"});
  CHECK(set.rules[0].target == "value");
  CHECK(set.rules[0].expect == 1);
  CHECK(set.table->Find("size")->text == "1024");
}

TEST_CASE("a second check of the same file given the first's cache compiles no query again") {
  RawRuleFile raw;
  std::vector<Diagnostic> errs;
  std::string text = std::string(kGood) + "    done-when: ((identifier) @n (#eq? @n \"_P\"))\n";
  REQUIRE(ReadRules("r.yaml", text, &raw, &errs));
  QueryCache cache;
  RuleSet first, second, own;
  REQUIRE(CheckRules(raw, {}, &first, &errs, &cache));
  REQUIRE(CheckRules(raw, {}, &second, &errs, &cache));
  REQUIRE(CheckRules(raw, {}, &own, &errs));
  REQUIRE(first.rules[0].done_when);
  CHECK(first.rules[0].done_when == second.rules[0].done_when);
  CHECK(first.rules[0].done_when != own.rules[0].done_when);
}

TEST_CASE("malformed YAML") {
  CHECK(Errors("version: 1\nrules: [\n  - id: x\n") ==
        "r.yaml:3:3: error: malformed YAML: illegal block entry\n");
}

TEST_CASE("unknown keys suggest the right one") {
  std::string text = kGood;
  text.replace(text.find("    query:"), 10, "    qurey:");
  CHECK(Errors(text) == "r.yaml:7:5: error: unknown key 'qurey' in rule (did you mean 'query'?)\n");
}

TEST_CASE("query syntax errors point into the block scalar") {
  std::string text = kGood;
  text.replace(text.find("(#eq?"), 5, "(#eq? (");
  CHECK(Errors(text) == "r.yaml:9:14: error: query syntax error at query offset 70\n");
}

TEST_CASE("unknown capture and unknown value") {
  std::string text = kGood;
  text.replace(text.find("replace: value"), 14, "replace: valu");
  text.replace(text.find("{{size}}"), 8, "{{sise}}");
  CHECK(Errors(text) ==
        "r.yaml:10:14: error: unknown capture '@valu' in 'replace' (did you mean 'value'?) "
        "(query captures: @name, @value)\n"
        "r.yaml:11:12: error: unknown value 'sise' (did you mean 'size'?) (known: size)\n");
}

TEST_CASE("expect and paths are checked") {
  std::string text = kGood;
  text += "    expect: 0\n";
  text.replace(text.find("files: vllm/a.py"), 16, "files: ../a.py");
  CHECK(Errors(text) ==
        "r.yaml:6:12: error: '../a.py' must be a path inside the tree\n"
        "r.yaml:12:13: error: 'expect' must be a whole number of at least 1, or a range LO..HI of "
        "them, got '0'\n");
}

}  // namespace muh

namespace muh {

namespace {
std::string RuleWithQuery(const std::string& query_line) {
  return "version: 1\nrules:\n  - id: r\n    files: a.py\n" + query_line +
         "    replace: n\n    with: \"1\"\n";
}
const char* kBad =
    "error: unknown predicate '#bad?' (supported: #eq?, #not-eq?, #match?, #not-match?, "
    "#any-of?) at query offset ";
}  // namespace

TEST_CASE("query offsets map through every scalar style") {
  // Double quotes with escapes: `\"` is two bytes of source, one of value.
  CHECK(Errors(RuleWithQuery(
            "    query: \"((identifier) @n (#eq? @n \\\"x\\\") (#bad? @n \\\"y\\\"))\"\n")) ==
        std::string("r.yaml:5:47: ") + kBad + "32\n");
  // Single quotes: `''` is one quote of value.
  CHECK(Errors(RuleWithQuery(
            "    query: '((identifier) @n (#eq? @n \"it''s\") (#bad? @n \"y\"))'\n")) ==
        std::string("r.yaml:5:49: ") + kBad + "35\n");
  // A block scalar whose first line is blank.
  CHECK(Errors(
            RuleWithQuery("    query: |\n\n      ((identifier) @n\n        (#bad? @n \"y\"))\n")) ==
        std::string("r.yaml:8:10: ") + kBad + "21\n");
  // An explicit indentation indicator: the value keeps the extra spaces.
  CHECK(Errors(RuleWithQuery(
            "    query: |2\n        ((identifier) @n\n          (#bad? @n \"y\"))\n")) ==
        std::string("r.yaml:7:12: ") + kBad + "24\n");
}

}  // namespace muh

namespace muh {

TEST_CASE("retune and pin load, and a pin needs its value and its reason") {
  std::string text = kGood;
  text +=
      "    upstream: \"512\"\n    retune: true\n    pin: {value: 48 * 1024, reason: \"ixsmi\"}\n";
  RuleSet set;
  std::vector<Diagnostic> errs;
  REQUIRE(LoadRules("r.yaml", text, {}, &set, &errs));
  CHECK(set.rules[0].retune);
  REQUIRE(set.rules[0].pin);
  CHECK(set.rules[0].pin->value == "48 * 1024");
  CHECK(set.rules[0].pin->reason == "ixsmi");
  CHECK(set.rules[0].pin->loc.line == 14);
  CHECK(Errors(std::string(kGood) + "    pin: {value: 1}\n") ==
        "r.yaml:12:10: error: 'pin' needs 'reason': why this value (who measured or decided "
        "it)\n");
  CHECK(Errors(std::string(kGood) + "    pin: 48\n") ==
        "r.yaml:12:10: error: 'pin' must be a mapping: {value: V, reason: \"why\"} (or, on a "
        "'tiers' rule, a list of them, one per tier)\n");
  CHECK(Errors(std::string(kGood) + "    pin: {valeu: 1, reason: r}\n") ==
        "r.yaml:12:11: error: unknown key 'valeu' in pin (did you mean 'value'?)\n");
  CHECK(Errors(std::string(kGood) + "    pin: {reason: r}\n") ==
        "r.yaml:12:10: error: 'pin' needs 'value': the Python text to write\n");
  CHECK(Errors(std::string(kGood) + "    retune: yes\n") ==
        "r.yaml:12:13: error: 'retune' must be true or false, got 'yes'\n");
}

namespace {
std::string SpaceWith(const std::string& constraints) {
  return std::string(kGood) +
         "search_spaces:\n"
         "  fa:\n"
         "    kernel: attention\n"
         "    dims:\n"
         "      BLOCK_M: [64, 128]\n"
         "      BLOCK_N: [64, 128]\n"
         "      num_stages: [1]\n"
         "      num_warps: [4]\n"
         "    constraints:\n" +
         constraints;
}
}  // namespace

TEST_CASE("search space constraints load with their reasons") {
  RuleSet set;
  std::vector<Diagnostic> errs;
  REQUIRE(LoadRules("r.yaml",
                    SpaceWith("      - BLOCK_M % BLOCK_N == 0\n"
                              "      - require: BLOCK_M >= BLOCK_N\n"
                              "        because: causal masking\n"),
                    {}, &set, &errs));
  CHECK(errs.empty());
}

TEST_CASE("constraint errors point into the expression") {
  CHECK(Errors(SpaceWith("      - BLOCK_M >= BLOKC_N\n")) ==
        "r.yaml:21:20: error: constraint names 'BLOKC_N', which is neither a dimension of 'fa' "
        "nor a workload quantity (did you mean 'BLOCK_N'?)\n");
  CHECK(Errors(SpaceWith("      - require: \"BLOCK_M = BLOCK_N\"\n")) ==
        "r.yaml:21:27: error: '=' does not compare; write '==' (or '<=', '>=')\n");
  CHECK(Errors(SpaceWith("      - because: x\n")) ==
        "r.yaml:21:9: error: a constraint needs 'require': the expression that must hold\n");
  CHECK(Errors(SpaceWith("      - require: BLOCK_M > 1\n        since: x\n")) ==
        "r.yaml:22:9: error: unknown key 'since' in constraint\n");
  CHECK(Errors(SpaceWith("      BLOCK_M > 1\n")) ==
        "r.yaml:21:7: error: 'constraints' must be a list of expressions\n");
}

}  // namespace muh

namespace muh {

TEST_CASE("a key repeated in a mapping is an error at the second, naming the first") {
  // A helper probe of 3cee5a3: the second `with:` won in silence.
  CHECK(Errors(std::string(kGood) + "    with: \"7\"\n") ==
        "r.yaml:12:5: error: duplicate key 'with' (first at line 11)\n");
  CHECK(Errors(std::string(kGood) + "version: 1\n") ==
        "r.yaml:12:1: error: duplicate key 'version' (first at line 1)\n");
}

}  // namespace muh
