// `muhpatch status RULES TREE`: one row per knob site, for a reviewer to see
// the whole picture at once: the rule, where the site is, what it holds, what
// the model derives, whether the site runs on the card (live, dead or
// unknown, from engine/liveness), and what `diff` would do with it (rewrite,
// leave it at its value, leave dead code alone, skip it with the
// precondition or the model's reason, or fail).
// Rows carry ids, paths, lines and values, never source lines around them.
#pragma once

#include <string>
#include <vector>

#include "engine/liveness/assumptions.h"
#include "engine/plan/planner.h"
#include "engine/rules/rule.h"

namespace muh {

struct StatusRow {
  std::string rule_id;
  std::string path;  // tree-relative; empty when the rule has no site to show
  int line = 0;
  std::string now;       // the site's value, on one line
  std::string model;     // what the rule would write, on one line
  std::string state;     // "will rewrite", "at value", "dead", "skipped", "no value", "failing"
  std::string liveness;  // the site's: "live", "dead", "unknown", or "" when not analysed
  std::string reason;    // why, for skipped, no value and failing rows
  // The assumptions the site's verdict rests on (SiteVerdict::assumptions).
  std::vector<std::string> assumptions;
};

// The rows of `plan` (made by the rules of `rules`), in rule order, then by
// position.
std::vector<StatusRow> StatusRows(const RuleSet& rules, const PlanResult& plan);

// "text" (aligned columns), "json" or "markdown" (a table for a PR comment).
// The text and markdown end with the assumptions in force (each marked
// when it is vLLM's default); JSON gives each row the assumptions its
// verdict rests on.
std::string FormatStatus(const std::vector<StatusRow>& rows, const std::string& format,
                         const std::vector<Assumption>& assumptions = {});

}  // namespace muh
