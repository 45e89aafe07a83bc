// Loads a rule file in two steps, as ast-grep does: YAML is first read into
// a raw mirror of the file (raw_rule_file.h), then each raw rule is checked
// and compiled into a Rule (rule_checker.h). Every error is
// `rules.yaml:LINE:COL: error: ...` at the key or value at fault, and all
// errors are reported, not just the first. yaml-cpp's exceptions (a node of
// an unexpected shape) become located errors here; they never escape.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/model/value_source.h"
#include "engine/query/query_cache.h"
#include "engine/rules/raw_rule_file.h"
#include "engine/rules/rule.h"

namespace muh {

// Step 1: reads `text`, the content of the rule file `display_path`.
bool ReadRules(const std::string& display_path, const std::string& text, RawRuleFile* out,
               std::vector<Diagnostic>* errors);

// Step 2: checks what step 1 read against the values of `model` (may be
// null: the file's `values:` table alone). Queries compile into `queries`
// when given (a second check of the same file, with other facts, then
// compiles none again), else into a cache of this call's own.
bool CheckRules(const RawRuleFile& raw, std::shared_ptr<const ValueSource> model, RuleSet* out,
                std::vector<Diagnostic>* errors, QueryCache* queries = nullptr);

// Both steps, for callers whose model does not depend on the file. Pure.
bool LoadRules(const std::string& display_path, const std::string& text,
               std::shared_ptr<const ValueSource> model, RuleSet* out,
               std::vector<Diagnostic>* errors);

}  // namespace muh
