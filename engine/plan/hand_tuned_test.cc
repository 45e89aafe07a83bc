// The hand-tuned decision: a site holding neither upstream's value nor the
// rule's is kept, unless `retune`; a pin decides over the model; a value
// muhpatch wrote (a `+` line of --patch) is never hand-tuned.
#include <doctest/doctest.h>

#include <functional>
#include <memory>
#include <string_view>

#include "engine/plan/planner.h"
#include "engine/rules/rule_loader.h"

namespace muh {

namespace {

PlanResult PlanOf(const std::string& extra, const std::string& content, bool retune = false,
                  WrittenLines written = {}) {
  std::string text =
      "version: 1\nvalues:\n  size: 1024\nrules:\n  - id: r\n    files: a.py\n    query: "
      "'((assignment left: (identifier) @n right: (_) @v) (#eq? @n \"A\"))'\n    replace: v\n"
      "    with: \"{{size}}\"\n    upstream: \"512\"\n" +
      extra;
  RuleSet rules;
  std::vector<Diagnostic> errs;
  REQUIRE(LoadRules("r.yaml", text, {}, &rules, &errs));
  if (retune) rules.rules[0].retune = true;
  WrittenByMuhpatch prior;
  if (!written.ranges.empty()) prior["a.py"] = written;
  std::map<std::string, SourceText> files = {{"a.py", SourceText("a.py", content)}};
  return Plan(rules, files, {"a.py"}, {}, prior);
}

std::string Messages(const PlanResult& r) {
  std::string out;
  for (const Diagnostic& d : r.diagnostics) out += d.Format() + "\n";
  return out;
}

}  // namespace

TEST_CASE("a hand-tuned value is kept, and said where") {
  PlanResult r = PlanOf("", "A = 768\n");
  CHECK(r.new_contents.empty());
  REQUIRE(r.outcomes.size() == 1);
  CHECK(r.outcomes[0].status == RuleStatus::kHandTuned);
  REQUIRE(r.outcomes[0].found.size() == 1);
  CHECK(r.outcomes[0].found[0].kept);
  CHECK(Messages(r) ==
        "a.py:1:5: note: rule 'r' keeps '768', a hand-tuned value: neither upstream's '512' nor "
        "the model's '1024' (--retune, or `retune: true` on the rule, overwrites it; `pin:` "
        "accepts it with a reason)\n");
  CHECK(PlanSummary(r) ==
        "1 rule: 0 rewrite, 0 already at their value, 0 skipped, 1 hand-tuned "
        "site kept");
  // Upstream's value and the model's are not hand-tuned.
  CHECK(PlanOf("", "A = 512\n").new_contents.at("a.py") == "A = 1024\n");
  CHECK(PlanOf("", "A = 2 ** 10\n").outcomes[0].status == RuleStatus::kAlreadyApplied);
}

TEST_CASE("--retune or `retune: true` overwrites it, with the warning") {
  for (PlanResult r : {PlanOf("", "A = 768\n", true), PlanOf("    retune: true\n", "A = 768\n")}) {
    CHECK(r.new_contents.at("a.py") == "A = 1024\n");
    CHECK(r.outcomes[0].status == RuleStatus::kRewrites);
    CHECK(Messages(r) ==
          "a.py:1:5: warning: rule 'r' replaces '768', which is neither upstream's '512' nor the "
          "model's '1024': a hand-tuned value is overwritten\n");
  }
}

TEST_CASE("a value on a `+` line of the patch muhpatch wrote is its own, not hand-tuned") {
  std::string content = "B = 1\nA = 768\n";
  WrittenLines written;
  written.content_hash = std::hash<std::string_view>{}(content);
  written.ranges = {{6, 14}};
  PlanResult r = PlanOf("", content, false, written);
  CHECK(r.new_contents.at("a.py") == "B = 1\nA = 1024\n");
  CHECK(Messages(r).empty());
  CHECK(r.outcomes[0].found[0].ours);
  // Lines found in other bytes do not count.
  written.content_hash ^= 1;
  CHECK(PlanOf("", content, false, written).outcomes[0].status == RuleStatus::kHandTuned);
  // Nor a range on another line.
  written.content_hash ^= 1;
  written.ranges = {{0, 6}};
  CHECK(PlanOf("", content, false, written).outcomes[0].status == RuleStatus::kHandTuned);
}

TEST_CASE("a pin decides over the model, and accepts a hand-tuned value") {
  std::string pin = "    pin: {value: 768, reason: \"measured on the card\"}\n";
  PlanResult at = PlanOf(pin, "A = 768\n");
  CHECK(at.new_contents.empty());
  CHECK(at.outcomes[0].status == RuleStatus::kAlreadyApplied);
  CHECK(at.outcomes[0].found[0].pin_reason == "measured on the card");
  CHECK(at.outcomes[0].found[0].model == "1024");
  CHECK(Messages(at).empty());
  PlanResult from_upstream = PlanOf(pin, "A = 512\n");
  CHECK(from_upstream.new_contents.at("a.py") == "A = 768\n");
  REQUIRE(from_upstream.edits.at("a.py").size() == 1);
  CHECK(from_upstream.edits.at("a.py")[0].why.rfind(
            "pinned by the rule (r.yaml:11): measured on the card\nthe model's own value: 1024\n",
            0) == 0);
  // The model's value (muhpatch wrote it before the pin) is not hand-tuned.
  CHECK(PlanOf(pin, "A = 1024\n").new_contents.at("a.py") == "A = 768\n");
  // Another value is, and is kept.
  CHECK(PlanOf(pin, "A = 640\n").outcomes[0].status == RuleStatus::kHandTuned);
}

}  // namespace muh

namespace muh {

namespace {

// A model whose one knob, `size`, takes only even values.
class EvenValues : public TableValues {
 public:
  EvenValues() {
    Value v;
    v.text = "1024";
    Set("size", v);
  }
  std::string DomainProblem(std::string_view name, const std::string& value) const override {
    if (name != "size" || value.empty() || (value.back() - '0') % 2 == 0) return "";
    return value + " is odd; the kernel takes even sizes";
  }
};

PlanResult PlanEven(const std::string& content, const std::string& extra = "") {
  std::string text =
      "version: 1\nrules:\n  - id: r\n    files: a.py\n    query: "
      "'((assignment left: (identifier) @n right: (_) @v) (#eq? @n \"A\"))'\n    replace: v\n"
      "    with: \"{{size}}\"\n    upstream: \"512\"\n" +
      extra;
  RuleSet rules;
  std::vector<Diagnostic> errs;
  REQUIRE(LoadRules("r.yaml", text, std::make_shared<EvenValues>(), &rules, &errs));
  std::map<std::string, SourceText> files = {{"a.py", SourceText("a.py", content)}};
  return Plan(rules, files, {"a.py"});
}

}  // namespace

TEST_CASE("a kept value outside its knob's domain fails the rule, at its line") {
  PlanResult odd = PlanEven("A = 769\n");
  CHECK(odd.outcomes[0].status == RuleStatus::kFailed);
  CHECK(odd.new_contents.empty());
  CHECK(Messages(odd).find("a.py:1:5: error: rule 'r' keeps '769', a hand-tuned value that fails "
                           "its kernel's check: 769 is odd; the kernel takes even sizes; fix the "
                           "value, or `pin:` one the kernel takes\n") != std::string::npos);
  // Inside the domain it is kept, as before.
  PlanResult even = PlanEven("A = 768\n");
  CHECK(even.outcomes[0].status == RuleStatus::kHandTuned);
  CHECK(Messages(even).find("error") == std::string::npos);
}

TEST_CASE("a pin outside the domain fails the rule at the pin, unless it says unchecked") {
  PlanResult odd = PlanEven("A = 512\n", "    pin: {value: 767, reason: \"timed\"}\n");
  CHECK(odd.outcomes[0].status == RuleStatus::kFailed);
  CHECK(odd.new_contents.empty());
  CHECK(Messages(odd) ==
        "r.yaml:9:5: error: rule 'r' pins '767', which its kernel does not take: 767 is odd; the "
        "kernel takes even sizes; pin a value it takes, or say why with `unchecked: REASON`\n");
  PlanResult said =
      PlanEven("A = 512\n", "    pin: {value: 767, reason: \"timed\", unchecked: \"we know\"}\n");
  CHECK(said.new_contents.at("a.py") == "A = 767\n");
  CHECK(Messages(said) ==
        "r.yaml:9:5: warning: rule 'r' pins '767' unchecked (we know): 767 is odd; the kernel "
        "takes even sizes\n");
  CHECK(
      PlanEven("A = 512\n", "    pin: {value: 768, reason: \"timed\"}\n").new_contents.at("a.py") ==
      "A = 768\n");
}

}  // namespace muh
