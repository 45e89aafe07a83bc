// verify's checks, in the manner of clang-tidy's: each is independent, reads
// what the run loaded, and returns its findings; the driver (verify.cc) runs
// them in order and reports everything they found.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "engine/app/commands.h"
#include "engine/app/inputs.h"
#include "engine/app/patch_input.h"
#include "engine/app/verify_report.h"
#include "engine/app/workspace.h"
#include "engine/patch/patch_apply.h"
#include "engine/plan/planner.h"
#include "engine/search/tree_search.h"

namespace muh {

// What a finding tells the user to run next (next_command.h).
struct NextCommands {
  std::string refresh;  // writes the patch afresh
  std::string apply;    // rewrites the tree
  std::string status;   // lists the rules' sites
};

// Everything a check may read: the opened run (its inputs, its tree and the
// committed patch, empty without --patch), its options, its plan and the
// whole-tree search's matches, and what is derived from them. The driver
// (verify.cc) builds it in one place before any check runs; nothing is
// filled in afterwards.
struct VerifyInput {
  const Inputs& inputs;
  const Workspace& workspace;
  const PatchInput& patch;
  // opts.tree_path as the user gave it; with opts.include_dead, the tree
  // with the committed patch undone is planned as the run planned the
  // tree, with its own liveness.
  const CommandOptions& opts;
  const PlanResult& plan;
  const std::vector<ForeignMatch>& foreign;
  std::string regenerated;  // the patch the rules produce for the tree as it is
  // The tree carries the committed patch, its knobs' values aside
  // (pre_image.h): `next.refresh` makes it again from the pre-image.
  bool carries_patch = false;
  NextCommands next;
};

struct CheckResult {
  std::vector<Finding> findings;
  bool drift = false;
  std::string summary;     // the verdict line's reason, when this check decided it
  std::string patch_diff;  // committed -> regenerated, for a stale patch
};

// Match counts, preconditions and unparsable files: the plan's diagnostics.
CheckResult CheckRulesApply(const VerifyInput& in);
// Knobs moved or copied outside their rule's files.
CheckResult CheckCopies(const VerifyInput& in);
// With --patch: a rule whose status (rewrites or at value, against skipped,
// no value or failed) differs from the one the committed patch's preamble
// records; the finding names the site that changed it.
// The preamble's status lines as muhpatch writes them: one a rule, each a
// status's name, each for a rule of the rule file.
CheckResult CheckPreamble(const VerifyInput& in);
CheckResult CheckRuleStates(const VerifyInput& in);
// With --patch: a site the committed patch left alone (dead, at value, kept
// by hand: its preamble's `left:` record, left_record.h) whose value is not
// the one recorded: it was edited since the patch was made.
CheckResult CheckLeftSites(const VerifyInput& in);
// Without --patch: every site the rules would still rewrite is drift.
CheckResult CheckNothingLeft(const VerifyInput& in);
// With --patch: the tree is pristine, the committed patch applies to it as
// `git apply` applies it (offsets allowed) and gives what the rules write;
// or the tree carries the patch, and undoing it gives a tree for which the
// rules write the tree as it is. Otherwise drift: a change muhpatch never
// makes (a rename, a mode), a file the tree lacks, a stale patch (other
// edits than the rules', or hunks git would refuse, each located where its
// lines are now), or sites edited since.
CheckResult CheckCommittedPatch(const VerifyInput& in);

}  // namespace muh
