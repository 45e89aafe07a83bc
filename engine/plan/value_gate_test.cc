#include "engine/plan/value_gate.h"

#include <doctest/doctest.h>

namespace muh {
namespace plan {

namespace {

// A knob `block` whose kernel takes 16, 32 and 64.
class Blocks : public TableValues {
 public:
  std::string DomainProblem(std::string_view name, const std::string& value) const override {
    if (name != "block" || value == "16" || value == "32" || value == "64") return "";
    return value + " is not 16, 32 or 64";
  }
};

Template With(const std::string& text) {
  Template t;
  std::string error;
  std::size_t at = 0;
  REQUIRE(Template::Parse(text, &t, &error, &at));
  return t;
}

std::string Said(const PlanResult& plan) {
  std::string out;
  for (const Diagnostic& d : plan.diagnostics) out += d.Format() + "\n";
  return out;
}

}  // namespace

TEST_CASE("the gate records a failing value whoever chose it, and nothing for one that passes") {
  Blocks values;
  Site site;
  CheckValue(values, With("{{block}}"), ValueOrigin::kModel, "32", nullptr, &site);
  CHECK(site.outside_domain.empty());
  CheckValue(values, With("x"), ValueOrigin::kKept, "48", nullptr, &site);  // names no knob
  CHECK(site.outside_domain.empty());
  Rule::Pin pin{"48", "a guess", {7, 5}, ""};
  CheckValue(values, With("{{block}}"), ValueOrigin::kPin, "48", &pin, &site);
  REQUIRE(site.outside_domain.size() == 1);
  CHECK(site.outside_domain[0].problem == "48 is not 16, 32 or 64");
  CHECK(site.outside_domain[0].pin_line == 7);
}

TEST_CASE("the gate's verdict by who chose the value") {
  Blocks values;
  PlanResult plan;
  RuleOutcome& o = plan.outcomes.emplace_back();
  o.rule_id = "r";
  Site live;
  live.path = "a.py";
  live.line = 3;
  live.column = 9;
  live.liveness = SiteVerdict{Liveness::kLive, ""};
  Site dead = live;
  dead.line = 4;
  dead.liveness = SiteVerdict{Liveness::kDead, ""};
  Rule::Pin pin{"48", "a guess", {7, 5}, ""};
  CheckValue(values, With("{{block}}"), ValueOrigin::kPin, "48", &pin, &live);
  CheckValue(values, With("{{block}}"), ValueOrigin::kPin, "48", &pin, &dead);  // said once
  CheckValue(values, With("{{block}}"), ValueOrigin::kKept, "12", nullptr, &dead);
  CheckValue(values, With("{{block}}"), ValueOrigin::kModel, "128", nullptr, &live);
  o.found = {live, dead};
  CHECK(GateValues("r.yaml", &plan) == std::vector<std::string>{"r"});
  CHECK(Said(plan) ==
        "r.yaml:7:5: error: rule 'r' pins '48', which its kernel does not take: 48 is not 16, 32 "
        "or 64; pin a value it takes, or say why with `unchecked: REASON`\n"
        "a.py:3:9: error: rule 'r' would write '128', the model's value, which its kernel does "
        "not take: 128 is not 16, 32 or 64; the model offers only values that pass, so this is a "
        "bug in muhpatch: please report it, and `pin:` a value meanwhile\n"
        "a.py:4:9: note: rule 'r' keeps '12', a hand-tuned value that fails its kernel's check: 12 "
        "is "
        "not 16, 32 or 64 (the site is dead on the served platform)\n");
}

TEST_CASE("the gate: a pin `unchecked:` is a warning, and a kept value on a dead site a note") {
  Blocks values;
  PlanResult plan;
  RuleOutcome& o = plan.outcomes.emplace_back();
  o.rule_id = "r";
  Site dead;
  dead.path = "a.py";
  dead.line = 2;
  dead.column = 1;
  dead.liveness = SiteVerdict{Liveness::kDead, ""};
  Rule::Pin pin{"48", "a guess", {7, 5}, "ixformer pads it"};
  CheckValue(values, With("{{block}}"), ValueOrigin::kPin, "48", &pin, &dead);
  CheckValue(values, With("{{block}}"), ValueOrigin::kKept, "12", nullptr, &dead);
  o.found = {dead};
  CHECK(GateValues("r.yaml", &plan).empty());
  CHECK(Said(plan) ==
        "r.yaml:7:5: warning: rule 'r' pins '48' unchecked (ixformer pads it): 48 is not 16, 32 "
        "or 64\n"
        "a.py:2:1: note: rule 'r' keeps '12', a hand-tuned value that fails its kernel's check: 12 "
        "is "
        "not 16, 32 or 64 (the site is dead on the served platform)\n");
}

TEST_CASE("a `with:` that names no knob writes a constant of the kind it replaces") {
  CHECK(NamesKnob(With("{{block}}")));
  CHECK(NamesKnob(With("{{block}} * 1024")));
  CHECK_FALSE(NamesKnob(With("48 * 1024")));
  CHECK_FALSE(NamesKnob(With("{{@value}}")));
  // A value of the rule file's own table is the author's: no knob.
  TableValues table;
  table.Set("mine", Value{});
  CHECK_FALSE(NamesKnob(With("{{mine}} * 1024"), &table));
  CHECK(NamesKnob(With("{{block}} * 1024"), &table));
  auto problem = [](const std::string& replaced, const std::string& value) {
    Site site;
    CheckKind(replaced, ValueOrigin::kRule, value, nullptr, &site);
    return site.outside_domain.empty() ? std::string() : site.outside_domain[0].problem;
  };
  CHECK(problem("32", "48").empty());
  CHECK(problem("32 * 1024", "2 ** 15").empty());
  CHECK(problem("True", "False").empty());
  CHECK(problem("'a'", "\"b\"").empty());
  CHECK(problem("x * 2", "anything").empty());  // an expression stands there: no kind
  CHECK(problem("32", "x") == "the site holds an integer ('32'), and 'x' is no constant");
  CHECK(problem("32", "\"16\"") == "the site holds an integer ('32'), and '\"16\"' is a string");
  CHECK(problem("32", "16.0") == "the site holds an integer ('32'), and '16.0' is no constant");
  CHECK(problem("False", "0") == "the site holds a bool ('False'), and '0' is an integer");
}

}  // namespace plan
}  // namespace muh
