// Loads a rule file in two steps, as ast-grep does: YAML is first read into
// a raw mirror of the file, then each raw rule is checked and compiled into
// a Rule. Every error is `rules.yaml:LINE:COL: error: ...` at the key or
// value at fault, and all errors are reported, not just the first.
#pragma once

#include <string>
#include <vector>

#include "engine/diagnostic.h"
#include "engine/rule.h"
#include "engine/value_source.h"

namespace muh {

// Parses and checks `text`, the content of the rule file `display_path`.
// Names used in templates are resolved against `values`, or against the
// file's own `values:` table when `values` is null. Pure: no disk access.
bool LoadRules(const std::string& display_path, const std::string& text,
               const ValueSource* values, RuleSet* out, std::vector<Diagnostic>* errors);

}  // namespace muh
