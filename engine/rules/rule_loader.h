// Loads a rule file in two steps, as ast-grep does: YAML is first read into
// a raw mirror of the file, then each raw rule is checked and compiled into
// a Rule. Every error is `rules.yaml:LINE:COL: error: ...` at the key or
// value at fault, and all errors are reported, not just the first.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/model/value_source.h"
#include "engine/rules/rule.h"

namespace muh {

// Builds the source of named values once the file's `values:`, `workload:`
// and `search_spaces:` are read (the model, typically). May add errors;
// returns null to use only the file's `values:` table.
using ValuesFactory =
    std::function<std::shared_ptr<const ValueSource>(const RuleSet&, std::vector<Diagnostic>*)>;

// Parses and checks `text`, the content of the rule file `display_path`.
// Names used in templates are resolved against what `make_values` returns
// combined with the file's own `values:` table (a name may not be in both).
// Pure: no disk access.
bool LoadRules(const std::string& display_path, const std::string& text,
               const ValuesFactory& make_values, RuleSet* out, std::vector<Diagnostic>* errors);

}  // namespace muh
