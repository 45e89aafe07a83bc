// Step 2 of loading a rule file: each raw rule (raw_rule_file.h) is checked
// and compiled into a Rule. Queries compile once each, in parallel; every
// capture, value and function a rule names must exist, and every error is
// located at the YAML key or the character at fault. All errors are
// reported, not just the first.
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

// Checks `raw` into `out`. Names in templates resolve against the file's
// own `values:` table and `model` (may be null: the table alone); a name in
// both is an error. Queries compile into `queries` when given (see
// CheckRules). Pure.
bool CheckRuleFile(const RawRuleFile& raw, std::shared_ptr<const ValueSource> model, RuleSet* out,
                   std::vector<Diagnostic>* errors, QueryCache* queries = nullptr);

// The query texts the kind of site `r` names compiles (its `query:`; a
// `pattern:` compiles to nodes, not text), for compiling up front; none when
// they do not compile. Pure.
std::vector<std::string> KindQueryTexts(const RawRule& r);

}  // namespace muh
