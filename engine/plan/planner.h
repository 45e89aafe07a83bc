// The planner: for each rule, query the files in its scope, check the match
// count and preconditions, compute values, and collect edits. Then apply the
// edits in memory and re-parse, refusing any rewrite that breaks the syntax.
// Pure: file contents in, new contents and diagnostics out.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/base/source_text.h"
#include "engine/model/value_source.h"
#include "engine/plan/edit.h"
#include "engine/rules/rule.h"

namespace muh {

enum class RuleStatus {
  kRewrites,        // the rule produced at least one edit
  kAlreadyApplied,  // every site already holds the rule's value
  kSkipped,         // an optional precondition was not met
  kFailed,          // an error was reported for it
};

struct RuleOutcome {
  std::string rule_id;
  RuleStatus status = RuleStatus::kFailed;
  int sites = 0;  // matches found
  int edits = 0;  // edits that change bytes
};

struct PlanResult {
  std::map<std::string, std::vector<Edit>> edits;   // by path, sorted
  std::map<std::string, std::string> new_contents;  // only files that change
  std::vector<RuleOutcome> outcomes;                // in rule order
  std::vector<Diagnostic> diagnostics;              // errors and skip notes
  bool ok() const { return !HasErrors(diagnostics); }
};

// Plans every rule of `rules` over `files`, with the values the rule set
// resolves names against (tree path -> content). `files`
// must hold every file the rules and their preconditions name (see
// FilesNeeded). Deterministic: rules in file order, paths sorted.
PlanResult Plan(const RuleSet& rules, const std::map<std::string, SourceText>& files,
                const std::vector<std::string>& tree_paths);

// "17 rules: 8 rewrite, 5 already at their value, 4 skipped"
std::string PlanSummary(const PlanResult& plan);

// The concatenated diffs of every changed file, sorted by path.
std::string RenderDiff(const std::map<std::string, SourceText>& files,
                       const std::map<std::string, std::string>& new_contents);

}  // namespace muh
