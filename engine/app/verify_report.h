// What verify found, and how it is printed: text diagnostics on stderr (the
// verdict too), one JSON object, a SARIF log (sarif.h), or GitHub workflow
// annotations (annotations.h). A finding is a value; checks (verify_checks.h) return them.
#pragma once

#include <string>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/plan/plan_counts.h"

namespace muh {

struct Finding {
  // "load", "input": the run could not start (exit 2);
  // "plan": a rule no longer applies (match count, syntax, precondition);
  // "foreign": a knob found outside its rule's files (moved or copied);
  // "site": a knob the rules would still rewrite;
  // "hand-edited": a knob holding neither upstream's nor the model's value;
  // "state": a rule's status differs from the one the patch was made in;
  // "stale": the committed patch differs from what the rules produce;
  // "hunk": a hunk of the committed patch that git apply would refuse;
  // "patch-file": a file the committed patch names is not in the tree;
  // "patch-change": the committed patch renames a file, changes its mode,
  // creates or deletes it (changes muhpatch never makes).
  std::string kind;
  Diagnostic where;
  std::vector<std::string> details;  // derivation lines
  std::string rule_id;               // the rule it concerns, when one does
  // For a "state" finding the liveness analysis decided: the assumptions
  // the site's verdict now rests on (SiteVerdict::assumptions).
  std::vector<std::string> assumptions = {};
};

// Prints `findings`, then the verdict line `verify: <verdict>: <summary>`,
// in `format` ("text", "json", "sarif" or "github"), and returns `code`. The
// verdict line goes to stderr (in JSON, it is the object's "message").
// When verify could not run (exit 2 or 4), every format says why on stderr
// too: each such finding as `file:line:col: error: message`, then the
// verdict, before the report goes to stdout.
// `patch_diff` (committed -> regenerated) goes to stdout in JSON, and in
// text under -v; a stale rule's finding prints its two lines in text.
// Quiet by default (outcome_report.h): in text, notes print only under -v
// and a finding's derivation only under --explain; text and GitHub
// output end with `rules_summary` (the rules left alone, counted)
// before the verdict. A GitHub annotation is one line, a SARIF message one
// line unless --explain; JSON keeps every finding's details, and gives
// `counts` (the plan's, when there is one) as "summary": the same counts
// as `rules_summary`'s, rules by outcome and sites by liveness.
int PrintVerifyReport(const std::vector<Finding>& findings, const std::string& format, int code,
                      const std::string& summary, const std::string& patch_diff,
                      const std::string& rules_summary = "", const PlanCounts* counts = nullptr);

}  // namespace muh
