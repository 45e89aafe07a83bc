// A rule's `pattern:`, `inside:` and `where:` (code_pattern.h), checked and
// compiled to the query text the rule then runs. Errors are located in the
// rule file: inside the pattern at the character at fault, at the `where:`
// entry for a bad constraint.
#pragma once

#include <optional>
#include <string>

#include "engine/rules/raw_rule_file.h"
#include "engine/rules/yaml_reader.h"

namespace muh {

struct RulePatternText {
  std::string query;  // the alternatives, one query pattern each
  std::string knob;   // code_pattern.h's, of the first alternative that names one
  std::string shape;
};

// The query text of `r`'s pattern, or nullopt with errors reported through
// `reader` (null: silently, for a first pass that only gathers texts).
std::optional<RulePatternText> RulePatternQuery(const RawRule& r, YamlReader* reader);

}  // namespace muh
