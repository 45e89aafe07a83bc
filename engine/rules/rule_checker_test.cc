#include "engine/rules/rule_checker.h"

#include <doctest/doctest.h>

#include <algorithm>

namespace muh {

namespace {
// Both steps run, even after step 1's errors, so that step 2 is seen to add
// nothing of its own about a rule whose action key is misspelled.
std::string BothSteps(const std::string& text) {
  RawRuleFile raw;
  std::vector<Diagnostic> errs;
  ReadRuleFile("r.yaml", text, &raw, &errs);
  RuleSet set;
  CheckRuleFile(raw, nullptr, &set, &errs);
  std::string out;
  for (const Diagnostic& d : errs) out += d.Format() + "\n";
  return out;
}
}  // namespace

TEST_CASE("a misspelled action key gets its suggestion and no secondary error") {
  std::string rule = R"(version: 1
rules:
  - id: r
    files: a.py
    query: |
      ((assignment left: (identifier) @name right: (integer) @value)
       (#eq? @name "_P"))
    KEY: value
    with: "2"
)";
  for (const char* key : {"replce", "apend-to", "delte"}) {
    std::string text = rule;
    text.replace(text.find("KEY"), 3, key);
    std::string errs = BothSteps(text);
    CAPTURE(errs);
    CHECK(errs.find("did you mean") != std::string::npos);
    CHECK(errs.find("needs exactly one") == std::string::npos);
    CHECK(errs.find("but no 'entries'") == std::string::npos);
    CHECK(errs.find("only goes with") == std::string::npos);
    CHECK(std::count(errs.begin(), errs.end(), '\n') == 1);
  }
  std::string none = rule;
  none.replace(none.find("    KEY: value\n"), 15, "");
  CHECK(BothSteps(none).find("needs exactly one of 'replace', 'delete', 'append-to'") !=
        std::string::npos);
}

}  // namespace muh
