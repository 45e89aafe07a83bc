// The subcommands. Each takes parsed options and returns an exit code from
// exit_codes.h; stdout carries only the product (a diff or a report).
#pragma once

#include <string>
#include <vector>

#include "engine/app/inputs.h"
#include "engine/app/patch_input.h"
#include "engine/app/site_liveness.h"
#include "engine/app/workspace.h"
#include "engine/base/diagnostic.h"
#include "engine/plan/planner.h"

namespace muh {

struct CommandOptions {
  InputOptions inputs;
  std::string tree_path;
  // --patch: verify's committed patch; for diff, apply and status the patch
  // muhpatch wrote before, whose `+` values are not hand-tuned.
  std::string patch_path;
  // diff --base-patch: the patch muhpatch wrote before, made again from the
  // pre-image (the tree with it undone); -o: where the patch goes (stdout
  // when empty), written whole or not at all.
  std::string base_patch_path;
  std::string output_path;
  int strip = -1;               // verify -p N: leading path components to strip (-1: git's default)
  std::string tests_path;       // test TESTS
  bool explain = false;         // --explain: say why each edit / value is what it is
  std::string format = "text";  // --format: verify text/json/sarif/github, status, diff (cli.cc)
  unsigned threads = 0;         // --threads: workers for the whole-tree search; 0 = one per core
  bool keep_going = false;      // apply --keep-going: write the rules that planned
  bool include_dead = false;    // --include-dead: rewrite sites the liveness analysis calls dead
};

// The start of every command: the inputs loaded (inputs.h); with a tree,
// the tree opened once (workspace.h) and the patch it is given read and
// parsed once (patch_input.h), its `+` lines marked as muhpatch's
// (patch_written.h).
struct OpenedRun {
  Inputs inputs;
  Workspace workspace;
  PatchInput patch;                // --patch, or diff's --base-patch; empty when none
  WrittenByMuhpatch written;       // the tree's lines that `patch` wrote
  std::vector<Diagnostic> errors;  // why it could not open; tree files shown under the root
};

// Opens the run every command starts with: without a tree (`model`,
// `test`), the inputs alone. kExitClean when `run` is ready; otherwise the
// exit code of the cause, with the reasons in run->errors (a patch that
// cannot be read or parsed: kExitBadInput, its reasons in run->patch too).
int OpenRun(const CommandOptions& opts, TreeAccess access, OpenedRun* run);

// The plan over the opened tree with every site's liveness recorded and, unless
// --include-dead, the dead sites left alone; its diagnostics reported on stderr.
PlanResult PlanAndReport(const OpenedRun& run, const CommandOptions& opts);

// PlanAndReport's report of a plan made already.
void ReportPlan(const OpenedRun& run, const CommandOptions& opts, const PlanResult& plan);

// Writes diff's product: to -o FILE atomically, saying so when an empty
// patch replaces a non-empty one, else to stdout (coloured as --color says
// when it is a patch). A patch that is not `whole` (some rules failed) is
// not written to -o FILE, which is left as it was, and says so (it may hold
// the patch under review, which the rules that planned alone would
// replace); to stdout it goes as it is. kExitClean, or kExitInternal after
// reporting why not.
int WriteDiffOutput(const CommandOptions& opts, const std::string& out, bool is_patch, bool whole);

// The plan over the opened tree with every site's liveness recorded (the
// analysis runs beside the plan's draft: PlanWithLiveness) and, unless `include_dead`, the dead
// sites left alone; nothing reported.
PlanResult PlanTree(const OpenedRun& run, bool include_dead);

// The plan with liveness (no reporting): `analysis` over the same files.
PlanResult PlanLive(const OpenedRun& run, const std::map<std::string, SourceText>& files,
                    const LivenessAnalysis& analysis, bool include_dead);

int RunDiff(const CommandOptions& opts);
int RunApply(const CommandOptions& opts);
// `status RULES TREE`: one row per knob site (status.h); exit 6 when a rule fails.
int RunStatus(const CommandOptions& opts);
// RunVerify lives in verify.h.
// `test RULES TESTS`: the rule tests of TESTS against RULES.
int RunRuleTestsCommand(const CommandOptions& opts);
// `model [RULES]`: the profile, the workload and every derived value.
int RunModel(const CommandOptions& opts);

}  // namespace muh
