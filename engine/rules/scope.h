// Which files each rule reads: its `files:` patterns (and its
// preconditions') resolved against the tree's listing. Pure.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/rules/rule.h"

namespace muh {

// Paths matched by `patterns`, sorted and unique. A literal path must be in
// `tree_paths` and a glob must match at least one; each miss adds an error
// located at the pattern's entry of `locs` (or at `loc` when `locs` is
// shorter) in the rule file `rules_path`.
std::vector<std::string> ResolvePatterns(const std::vector<std::string>& patterns,
                                         const std::vector<RuleLoc>& locs,
                                         const std::vector<std::string>& tree_paths,
                                         const std::string& rules_path, RuleLoc loc,
                                         const std::string& rule_id,
                                         std::vector<Diagnostic>* errors);

// Every file any rule or precondition needs, sorted and unique.
std::vector<std::string> FilesNeeded(const RuleSet& rules,
                                     const std::vector<std::string>& tree_paths,
                                     std::vector<Diagnostic>* errors);

}  // namespace muh
