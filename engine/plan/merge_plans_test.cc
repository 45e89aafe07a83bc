#include "engine/plan/merge_plans.h"

#include <doctest/doctest.h>

namespace muh {
namespace plan {

namespace {

// A plan of rule `id` that rewrites bytes [offset, offset + length) of a.py.
RulePlan Rewrites(const std::string& id, std::size_t offset, std::size_t length,
                  const std::string& text) {
  RulePlan p;
  p.outcome.rule_id = id;
  p.outcome.status = RuleStatus::kRewrites;
  p.outcome.edits = 1;
  p.edits.push_back(Edit{"a.py", offset, length, text, id, ""});
  p.diagnostics.push_back(Diagnostic{"a.py", 1, 1, Severity::kNote, id + " planned", id});
  return p;
}

struct Files {
  std::map<std::string, SourceText> files;
  RuleSet rules;
  Files() { files.emplace("a.py", SourceText("a.py", "A = 1\nB = 2\n")); }
};

std::string Shown(const PlanResult& r) {
  std::string out;
  for (const RuleOutcome& o : r.outcomes) {
    out += o.rule_id + ": " + RuleStatusName(o.status) + " " + std::to_string(o.edits) + "\n";
  }
  for (const Diagnostic& d : r.diagnostics) out += d.Format() + " [" + d.rule_id + "]\n";
  return out;
}

}  // namespace

TEST_CASE(
    "merging plans: an overlap fails the later rule and names both, and the earlier keeps its") {
  Files f;
  MergedPlans m = MergePlans(f.rules, {Rewrites("first", 4, 1, "8"), Rewrites("second", 4, 1, "9")},
                             {}, {}, f.files);
  CHECK(Shown(m.result) ==
        "first: rewrites 1\nsecond: failed 0\n"
        "a.py:1:1: note: first planned [first]\n"
        "a.py:1:1: note: second planned [second]\n"
        "a.py:1:5: error: rules 'first' and 'second' edit overlapping bytes [second]\n");
  REQUIRE(m.edit_sets.at("a.py").edits().size() == 1);
  CHECK(m.edit_sets.at("a.py").edits().front().rule_id == "first");
}

TEST_CASE("merging plans: the same change from two rules is one edit, and neither fails") {
  Files f;
  MergedPlans m = MergePlans(f.rules, {Rewrites("first", 4, 1, "8"), Rewrites("second", 4, 1, "8")},
                             {}, {}, f.files);
  CHECK(m.result.outcomes[1].status == RuleStatus::kRewrites);
  CHECK(m.edit_sets.at("a.py").edits().size() == 1);
}

TEST_CASE("merging plans: a refused rule's plan is dropped, and the others merge as planned") {
  Files f;
  std::map<std::string, Diagnostic> refused{
      {"first", Diagnostic{"a.py", 1, 5, Severity::kError, "not idempotent"}}};
  MergedPlans m =
      MergePlans(f.rules, {Rewrites("first", 4, 1, "8"), Rewrites("second", 10, 1, "9")}, refused,
                 {}, f.files);
  CHECK(Shown(m.result) ==
        "first: failed 0\nsecond: rewrites 1\n"
        "a.py:1:5: error: not idempotent [first]\n"
        "a.py:1:1: note: second planned [second]\n");
  REQUIRE(m.edit_sets.at("a.py").edits().size() == 1);
  CHECK(m.edit_sets.at("a.py").edits().front().rule_id == "second");
}

TEST_CASE("merging plans: a file that does not parse is reported once, for the first rule") {
  Files f;
  RulePlan a, b;
  a.outcome.rule_id = "a";
  b.outcome.rule_id = "b";
  a.unparsable.push_back(Diagnostic{"a.py", 2, 1, Severity::kError, "broken; rule 'a'", "a"});
  b.unparsable.push_back(Diagnostic{"a.py", 2, 1, Severity::kError, "broken; rule 'b'", "b"});
  MergedPlans m = MergePlans(f.rules, {a, b}, {}, {}, f.files);
  CHECK(Shown(m.result) == "a: failed 0\nb: failed 0\na.py:2:1: error: broken; rule 'a' [a]\n");
}

TEST_CASE("FailRule takes every edit of the rule out, in every file") {
  Files f;
  MergedPlans m = MergePlans(
      f.rules, {Rewrites("first", 4, 1, "8"), Rewrites("second", 10, 1, "9")}, {}, {}, f.files);
  FailRule("first", &m.result, &m.edit_sets);
  CHECK(m.result.outcomes[0].status == RuleStatus::kFailed);
  CHECK(m.result.outcomes[0].edits == 0);
  REQUIRE(m.edit_sets.at("a.py").edits().size() == 1);
  CHECK(m.edit_sets.at("a.py").edits().front().rule_id == "second");
}

}  // namespace plan
}  // namespace muh
