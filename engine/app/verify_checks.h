// verify's checks, in the manner of clang-tidy's: each is independent, reads
// what the run loaded, and returns its findings; the driver (verify.cc) runs
// them in order and reports everything they found.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "engine/app/inputs.h"
#include "engine/app/verify_report.h"
#include "engine/app/workspace.h"
#include "engine/patch/patch_apply.h"
#include "engine/plan/planner.h"
#include "engine/search/tree_search.h"

namespace muh {

// Everything a check may read: the loaded run, its plan, the whole-tree
// search's matches, and the committed patch when --patch named one.
struct VerifyInput {
  const Inputs& inputs;
  const Workspace& workspace;
  const PlanResult& plan;
  const std::vector<ForeignMatch>& foreign;
  std::string tree_path;   // as the user gave it
  std::string patch_path;  // empty without --patch
  std::string committed;   // the committed patch's bytes
  std::vector<FilePatch> patch;
  std::vector<std::string> preamble;  // the committed patch's lines before its first file
  std::string regenerated;            // the patch the rules produce for the tree as it is
  // What a finding tells the user to run next (next_command.h): the command
  // that writes the patch afresh, the one that rewrites the tree, and the
  // one that lists the rules' sites.
  std::string refresh, apply_command, status_command;
  // The plain `diff ... > PATCH`, for a finding that says to run it on the
  // tree without the patch.
  std::string refresh_unpatched;
  // --include-dead: the tree with the committed patch undone is planned as
  // the run planned the tree, with its own liveness.
  bool include_dead = false;
  // The tree carries the committed patch, its knobs' values aside
  // (pre_image.h): `refresh` makes it again from the pre-image.
  bool carries_patch = false;
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
CheckResult CheckRuleStates(const VerifyInput& in);
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
