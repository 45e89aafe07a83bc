// What a plan says on stderr, quiet by default: one located line for each
// site that needs the user (a rule that failed, a hand-tuned value
// overwritten, a site rewritten though nobody can tell whether it runs) and
// one summary line counting the rules left alone (skipped, without a
// valid value, dead, already at their value). -v lists each of those with
// its reason at its site; `muhpatch status` explains them in a table.
// Derivations are --explain's (commands.cc). Pure: a plan in, lines out.
#pragma once

#include <string>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/plan/plan_counts.h"
#include "engine/plan/plan_result.h"

namespace muh {

struct OutcomeReport {
  // The plan's errors and warnings, then one note per site rewritten whose
  // liveness is unknown; tree-relative, in order.
  std::vector<Diagnostic> needs_you;
  // One note per site of a rule left alone, with the reason (for -v).
  std::vector<Diagnostic> left_alone;
  // "17 rules: 3 rewrite, 4 skipped, 10 dead; 40 sites: 12 live, 20 dead,
  // 8 unknown (-v lists ...)"; empty when no rule is left alone.
  std::string summary;
};

// `rules_path`: the rule file, whose name a note about a precondition that
// matched nowhere carries (it is not a place in the tree). `listed`: the
// run lists the rules left alone (-v), so the summary does not offer -v.
OutcomeReport ReportOutcomes(const PlanResult& plan, const std::string& rules_path, bool listed);

// Only the summary line (verify's text and GitHub output); its counts are
// CountPlan's, as JSON's "summary" (verify_report.h).
std::string LeftAloneSummary(const PlanResult& plan, bool listed);
std::string LeftAloneSummary(const PlanCounts& counts, bool listed);

}  // namespace muh
