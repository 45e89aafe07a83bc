// One gate for every value that reaches a kernel (internal to engine/plan).
// Whoever chose the value a rule writes or keeps at a site (the model, from
// its derivation or a measurement; a pin; a maintainer's hand-tuned value
// kept), it is checked here against the knob's domain: the values its
// consuming kernel takes (ValueSource::DomainProblem). The plan of a site
// records each value that fails (CheckValue); the merge turns them into
// diagnostics by who chose the value (GateValues):
// - the model's: an error, and the rule fails (the model falls to its next
//   passing candidate before it offers one, so this is a bug in it);
// - a pin's: an error at the pin, and the rule fails, unless the pin says
//   `unchecked: REASON` (then a warning naming the reason, every run);
// - a kept value's: an error at the site on a live or unknown site, and the
//   rule fails; a note on a dead one;
// - the rule's own literal (a `with:` naming no knob, whose kernel domain is
//   unknown): it must at least be a constant of the kind it replaces
//   (CheckKind); an error at the site otherwise, and the rule fails.
#pragma once

#include <string>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/model/value_source.h"
#include "engine/plan/plan_result.h"
#include "engine/python/later_transforms.h"
#include "engine/rules/rule.h"
#include "engine/rules/template.h"

namespace muh {
namespace plan {

// Adds to `site` the value `value`, chosen by `origin`, that the template
// `with` writes there, when it is outside the domain of the knob `with`
// sizes; nothing when it passes or `with` names no knob. `pin` is the pin
// for kPin.
void CheckValue(const ValueSource& values, const Template& with, ValueOrigin origin,
                const std::string& value, const Rule::Pin* pin, Site* site);

// Whether `with` names a knob of the model (a value or a call), whose
// domain CheckValue checks; a value of the rule file's own `values:` table
// (`table`, may be null) is none: the rule's author chose it.
bool NamesKnob(const Template& with, const ValueSource* table = nullptr);

// For a `with` that names no knob, whose written value no domain checks:
// adds `value` to `site` when `replaced`, the text it replaces, is a
// constant (an integer, a bool, None or a string) and `value` is no
// constant of the same kind (`x`, `"16"` or `16.0` where `32` stands).
// `origin` is kRule, or kPin with `pin`.
void CheckKind(const std::string& replaced, ValueOrigin origin, const std::string& value,
               const Rule::Pin* pin, Site* site);

// The gate's entry for a value written or kept at a site, in place of
// `replaced`: the knob's domain where `with` names one (CheckValue), else
// the kind of constant `replaced` is (CheckKind; a value the model offers
// for such a template is the rule's own, kRule). `table` is the rule
// file's `values:` (may be null).
void CheckWritten(const ValueSource& values, const ValueSource* table, const Template& with,
                  ValueOrigin origin, const std::string& value, const std::string& replaced,
                  const Rule::Pin* pin, Site* site);

// The values `value` becomes on its way to the kernel (`transforms`, the
// code's own, later_transforms.h; each may apply or not, in order; those
// the knob's domain accounts for are left out), each checked as CheckValue
// checks `value`, the problem naming the statements that made it. A
// transform muhpatch cannot evaluate (no literal operand, another
// operation, in a loop) is a problem itself: the value the kernel gets is
// not known. Nothing for a `with` that names no knob, or a value that is
// no integer.
void CheckReached(const ValueSource& values, const Template& with, ValueOrigin origin,
                  const std::string& value, const std::vector<SelfTransform>& transforms,
                  const Rule::Pin* pin, Site* site);

// The diagnostics of the values that failed at the sites of `plan`, by who
// chose them (see above), each naming its rule; returns the rules they fail.
std::vector<std::string> GateValues(const std::string& rules_path, PlanResult* plan);

}  // namespace plan
}  // namespace muh
