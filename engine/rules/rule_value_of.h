// A rule's `value-of:` (raw_value_of.h), checked: the question the planner
// asks of each file (reaching_values.h), and the query that finds every
// assignment of the variable in the function, which stands for the rule
// where a query is needed (the whole-tree search for a copied knob).
// Errors are located at the key at fault, or inside the condition.
#pragma once

#include <optional>
#include <string>

#include "engine/python/reaching_values.h"
#include "engine/rules/raw_value_of.h"

namespace muh {

struct RuleValueOf {
  ValueQuestion question;
  std::string query;
};

// The capture a `value-of` rule's sites have: the value it rewrites.
inline constexpr const char* kValueOfTarget = "value";

std::optional<RuleValueOf> CheckValueOf(const RawValueOf& v, YamlReader* reader);

}  // namespace muh
