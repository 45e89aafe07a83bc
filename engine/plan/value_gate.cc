#include "engine/plan/value_gate.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "engine/base/one_line.h"
#include "engine/python/py_literal.h"

namespace muh {
namespace plan {

namespace {

// Records at `site` that `value`, chosen by `origin` (`pin` for a pin),
// fails: `problem` says why.
void Outside(ValueOrigin origin, const std::string& value, std::string problem,
             const Rule::Pin* pin, Site* site, bool by_code = false) {
  OutsideDomain out;
  out.origin = origin;
  out.value = value;
  out.problem = std::move(problem);
  out.by_code = by_code;
  if (pin != nullptr) {
    out.pin_line = pin->loc.line;
    out.pin_column = pin->loc.column;
    out.unchecked = pin->unchecked;
  }
  site->outside_domain.push_back(std::move(out));
}

// The knob `with` sizes: its first value or call; "" when none.
std::string KnobOf(const Template& with) {
  for (const TemplatePart& part : with.parts()) {
    if (part.kind == TemplatePart::Kind::kValue || part.kind == TemplatePart::Kind::kCall) {
      return part.text;
    }
  }
  return "";
}

}  // namespace

void CheckValue(const ValueSource& values, const Template& with, ValueOrigin origin,
                const std::string& value, const Rule::Pin* pin, Site* site) {
  std::string knob = KnobOf(with);
  if (knob.empty()) return;
  // The model's value as its template writes it (`8 if C else 4`, a
  // comment): the model checked the knob's own value where it chose it.
  if (origin == ValueOrigin::kModel && !CanonicalLiteral(value)) return;
  std::string problem = values.DomainProblem(knob, value);
  if (!problem.empty()) Outside(origin, value, std::move(problem), pin, site);
}

bool NamesKnob(const Template& with, const ValueSource* table) {
  for (const TemplatePart& part : with.parts()) {
    if (part.kind == TemplatePart::Kind::kCall) return true;
    if (part.kind == TemplatePart::Kind::kValue &&
        (table == nullptr || table->Find(part.text) == nullptr)) {
      return true;
    }
  }
  return false;
}

namespace {

// The kind of constant `text` denotes, or "" when it is none.
std::string ConstantKind(const std::string& text) {
  std::optional<std::string> c = CanonicalLiteral(text);
  if (!c || c->empty()) return "";
  if (*c == "True" || *c == "False") return "a bool";
  if (*c == "None") return "None";
  if (c->front() == '\'' || c->front() == '"') return "a string";
  return "an integer";
}

}  // namespace

void CheckKind(const std::string& replaced, ValueOrigin origin, const std::string& value,
               const Rule::Pin* pin, Site* site) {
  std::string want = ConstantKind(replaced);
  if (want.empty()) return;  // an expression stands there: no kind to keep
  std::string got = ConstantKind(value);
  if (got == want) return;
  Outside(origin, value,
          fmt::format("the site holds {} ('{}'), and '{}' is {}", want, OneLine(replaced, 40),
                      OneLine(value, 40), got.empty() ? "no constant" : got),
          pin, site);
}

void CheckReached(const ValueSource& values, const Template& with, ValueOrigin origin,
                  const std::string& value, const std::vector<SelfTransform>& transforms,
                  const Rule::Pin* pin, Site* site) {
  if (transforms.empty() || !NamesKnob(with)) return;
  std::string knob = KnobOf(with);
  std::optional<std::string> literal = CanonicalLiteral(value);
  if (!literal || literal->empty() || literal->size() > 15 ||
      literal->find_first_not_of("0123456789") != std::string::npos) {
    return;
  }
  std::vector<std::string> accounted = values.AccountedTransforms(knob);
  auto outside = [&](std::string problem) {
    Outside(origin, value, std::move(problem), pin, site, true);
  };
  // Each value reached, with the statements that made it.
  std::vector<std::pair<int64_t, std::string>> reached{{std::stoll(*literal), ""}};
  for (const SelfTransform& t : transforms) {
    // Each transform the domain accounts for, once: a second `// 2` (an
    // alias halved again) is the code's own.
    auto known = std::find(accounted.begin(), accounted.end(), t.Key());
    if (known != accounted.end()) {
      accounted.erase(known);
      continue;
    }
    std::vector<std::pair<int64_t, std::string>> more;
    for (const auto& [x, how] : reached) {
      std::optional<int64_t> y = t.Apply(x);
      if (!y) {
        outside(
            fmt::format("line {} (`{}`) may change it on the way to the kernel{}, and "
                        "what the kernel then gets is not known",
                        t.line, OneLine(t.text, 60),
                        t.repeats ? ", in a loop" : ", in a way muhpatch does not follow"));
        return;
      }
      more.emplace_back(*y, fmt::format("{}line {} (`{}`)", how.empty() ? "" : how + ", then ",
                                        t.line, OneLine(t.text, 60)));
    }
    reached.insert(reached.end(), more.begin(), more.end());
    if (reached.size() > 64) break;
  }
  for (std::size_t i = 1; i < reached.size(); ++i) {
    std::string problem = values.DomainProblem(knob, std::to_string(reached[i].first));
    if (problem.empty()) continue;
    outside(fmt::format("it reaches the kernel as {} through {}: {}", reached[i].first,
                        reached[i].second, problem));
    return;
  }
}

void CheckWritten(const ValueSource& values, const ValueSource* table, const Template& with,
                  ValueOrigin origin, const std::string& value, const std::string& replaced,
                  const Rule::Pin* pin, Site* site) {
  if (NamesKnob(with, table)) {
    CheckValue(values, with, origin, value, pin, site);
  } else {
    CheckKind(replaced, origin == ValueOrigin::kModel ? ValueOrigin::kRule : origin, value, pin,
              site);
  }
}

std::vector<std::string> GateValues(const std::string& rules_path, PlanResult* plan) {
  std::vector<std::string> failed;
  for (const RuleOutcome& o : plan->outcomes) {
    bool fails = false;
    auto say = [&](Diagnostic d) {
      d.rule_id = o.rule_id;
      fails = fails || d.severity == Severity::kError;
      plan->diagnostics.push_back(std::move(d));
    };
    // The pins first, one message for each, at the pin.
    std::set<std::tuple<int, int>> pins_said;
    for (const Site& site : o.found) {
      for (const OutsideDomain& v : site.outside_domain) {
        if (v.origin != ValueOrigin::kPin || !pins_said.insert({v.pin_line, v.pin_column}).second)
          continue;
        if (v.unchecked.empty()) {
          say(Diagnostic{
              rules_path, v.pin_line, v.pin_column, Severity::kError,
              fmt::format("rule '{}' pins '{}', which its kernel does not take: {}; pin a value "
                          "it takes, or say why with `unchecked: REASON`",
                          o.rule_id, OneLine(v.value, 60), v.problem)});
        } else {
          say(Diagnostic{rules_path, v.pin_line, v.pin_column, Severity::kWarning,
                         fmt::format("rule '{}' pins '{}' unchecked ({}): {}", o.rule_id,
                                     OneLine(v.value, 60), v.unchecked, v.problem)});
        }
      }
    }
    // Then the values at the sites: kept by hand, or the model's.
    for (const Site& site : o.found) {
      bool dead = site.Is(Liveness::kDead);
      for (const OutsideDomain& v : site.outside_domain) {
        if (v.origin == ValueOrigin::kKept) {
          say(Diagnostic{site.path, site.line, site.column,
                         dead ? Severity::kNote : Severity::kError,
                         fmt::format("rule '{}' keeps '{}', a hand-tuned value that fails its "
                                     "kernel's check: {}{}",
                                     o.rule_id, OneLine(v.value, 60), v.problem,
                                     dead ? " (the site is dead on the served platform)"
                                          : "; fix the value, or `pin:` one the kernel takes")});
        } else if (v.origin == ValueOrigin::kRule) {
          say(Diagnostic{
              site.path, site.line, site.column, Severity::kError,
              fmt::format("rule '{}' would write '{}', from a `with:` that names no knob "
                          "of the model (a literal, or the rule file's own values:), "
                          "so no kernel domain checks it: {}; write a constant of "
                          "that kind, or name the knob (`{{{{KNOB}}}}`) and `pin:` "
                          "the value",
                          o.rule_id, OneLine(v.value, 60), v.problem)});
        } else if (v.origin == ValueOrigin::kModel && v.by_code) {
          say(Diagnostic{site.path, site.line, site.column, Severity::kError,
                         fmt::format("rule '{}' would write '{}', the model's value, and the "
                                     "code changes it before the kernel gets it: {}; `pin:` a "
                                     "value the kernel takes on every path",
                                     o.rule_id, OneLine(v.value, 60), v.problem)});
        } else if (v.origin == ValueOrigin::kModel) {
          say(Diagnostic{site.path, site.line, site.column, Severity::kError,
                         fmt::format("rule '{}' would write '{}', the model's value, which its "
                                     "kernel does not take: {}; the model offers only values "
                                     "that pass, so this is a bug in muhpatch: please report it, "
                                     "and `pin:` a value meanwhile",
                                     o.rule_id, OneLine(v.value, 60), v.problem)});
        }
      }
    }
    if (fails) failed.push_back(o.rule_id);
  }
  return failed;
}

}  // namespace plan
}  // namespace muh
