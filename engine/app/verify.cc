#include "engine/app/verify.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>

#include "engine/app/diag_output.h"
#include "engine/app/next_command.h"
#include "engine/app/outcome_report.h"
#include "engine/app/patch_written.h"
#include "engine/app/pre_image.h"
#include "engine/app/verify_checks.h"
#include "engine/app/workspace_search.h"
#include "engine/base/exit_codes.h"
#include "engine/base/logging.h"
#include "engine/base/parallel.h"
#include "engine/io/tree_io.h"
#include "engine/patch/unified_diff.h"

namespace muh {

namespace {

// Parses --patch (read before the plan, or not, with `read_error`) as
// `git apply -p STRIP` reads it. False with the reasons in `findings` (kind
// "input"): a bad --patch is bad input whatever state the tree is in.
bool ReadCommittedPatch(const std::string& path, int strip, const std::string* read_error,
                        VerifyInput* in, std::vector<Finding>* findings) {
  if (read_error != nullptr) {
    findings->push_back({"input", MakeError(path, 0, 0, *read_error), {}, ""});
    return false;
  }
  std::vector<Diagnostic> errors;
  if (!ReadPatch(path, in->committed, strip, &in->patch, &errors, &in->preamble)) {
    for (const Diagnostic& d : errors) findings->push_back({"input", d, {}, ""});
    return false;
  }
  return true;
}

// The gated rules (UngatedRules' complement) that the plan found running.
RuleMask GatedRulesThatRan(const RuleSet& rules, const PlanResult& plan) {
  RuleMask run;
  for (const Rule& r : rules.rules) {
    const RuleOutcome* o = plan.Find(r.id);
    run.push_back(!r.preconditions.empty() && !(o != nullptr && ManagesNothing(o->status)));
  }
  return run;
}

// The plan, drafted beside the liveness analysis and decided by its
// verdicts (PlanWithLiveness); on another thread meanwhile, the whole-tree search for knobs outside
// their rule's files (it needs no plan). A thread the system cannot start runs its work here
// instead (BackgroundTask).
PlanResult PlanAndSearch(const OpenedRun& run, const CommandOptions& opts,
                         std::vector<ForeignMatch>* foreign, SearchResult* found) {
  unsigned threads = opts.threads;
  const Workspace& w = run.workspace;
  const RuleSet& rules = run.inputs.rules;
  TreeSearchScope scope;
  BackgroundTask search([&] {
    scope = ScopeTreeSearch(rules, w);
    *found = SearchInScope(rules, w, scope, threads, UngatedRules(rules));
  });
  PlanResult plan = PlanWithLiveness(run.inputs, w, w.files, opts.include_dead);
  search.Join();
  RuleMask gated = GatedRulesThatRan(rules, plan);
  if (std::find(gated.begin(), gated.end(), true) != gated.end()) {
    MergeLaterSearch(rules, SearchInScope(rules, w, scope, threads, gated), found);
  }
  *foreign = found->matches;
  const SearchStats& stats = found->stats;
  logging::Debug("whole-tree search: {} files, {} read, {} parsed ({} in part; {} bytes)",
                 stats.files, stats.read, stats.parsed, stats.excerpts, stats.parsed_bytes);
  return plan;
}

}  // namespace

int RunVerify(const CommandOptions& opts) {
  const auto start = std::chrono::steady_clock::now();
  auto ms = [&start] {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
  };
  std::vector<Finding> findings;
  OpenedRun run;
  if (int code = OpenRun(opts, TreeAccess::kRead, &run); code != kExitClean) {
    for (const Diagnostic& d : run.errors) findings.push_back({"load", d, {}, ""});
    return PrintVerifyReport(findings, opts.format, code, "cannot load the rules or the tree", "");
  }
  // The committed patch is read once (it may be a pipe): its `+` values are
  // muhpatch's, not hand-tuned; a --patch that cannot be read or parsed is
  // ReadCommittedPatch's to report.
  std::string committed, read_error;
  bool read = opts.patch_path.empty() || ReadWholeFile(opts.patch_path, &committed, &read_error);
  if (read && !opts.patch_path.empty()) MarkWrittenByPatchText(opts.patch_path, committed, &run);
  logging::Debug("verify: rules, model and tree opened: {:.1f} ms", ms());
  std::vector<ForeignMatch> foreign;
  SearchResult searched;
  PlanResult plan = PlanAndSearch(run, opts, &foreign, &searched);
  logging::Debug("verify: planned, searched, liveness decided: {:.1f} ms", ms());
  VerifyInput in{run.inputs,
                 run.workspace,
                 plan,
                 foreign,
                 opts.tree_path,
                 opts.patch_path,
                 "",
                 {},
                 {},
                 "",
                 "",
                 "",
                 "",
                 "",
                 opts.include_dead};
  in.apply_command = CommandLine(opts, "apply");
  in.status_command = CommandLine(opts, "status");
  in.committed = std::move(committed);
  if (!opts.patch_path.empty() &&
      !ReadCommittedPatch(opts.patch_path, opts.strip, read ? nullptr : &read_error, &in,
                          &findings)) {
    return PrintVerifyReport(findings, opts.format, kExitBadInput,
                             in.committed.empty() && in.patch.empty()
                                 ? "cannot read the committed patch"
                                 : "the committed patch is malformed",
                             "");
  }
  in.regenerated = RenderPatch(run.workspace.files, plan);
  // A tree that carries its patch gets it made again from the pre-image; a
  // plain diff would write an empty patch over it.
  if (!in.patch.empty()) {
    PreImage pre = PreImageOf(run.workspace, in.patch, plan);
    in.carries_patch = !pre.pristine && pre.ok();
  }
  in.refresh =
      RefreshCommand(opts, in.carries_patch, in.regenerated.empty() && !in.committed.empty());
  in.refresh_unpatched = RefreshPatchCommand(opts);

  // Every check runs and everything it finds is reported; the verdict's
  // reason is the first drifting check's.
  using Check = CheckResult (*)(const VerifyInput&);
  const std::vector<Check> checks = {
      CheckRulesApply,
      CheckCopies,
      CheckRuleStates,
      opts.patch_path.empty() ? CheckNothingLeft : CheckCommittedPatch,
  };
  std::string summary;
  std::string patch_diff;
  bool drift = false;
  for (Check check : checks) {
    CheckResult r = check(in);
    for (Finding& f : r.findings) {
      if (f.where.file != opts.patch_path) f.where = run.workspace.Shown(f.where);
      findings.push_back(std::move(f));
    }
    if (summary.empty() || (r.drift && !drift)) summary = r.summary;
    if (patch_diff.empty()) patch_diff = r.patch_diff;
    drift = drift || r.drift;
  }
  logging::Debug("verify: checks done: {:.1f} ms", ms());
  // A file the search could not read or query leaves the tree unvouched
  // for: bad input (exit 2), whatever the checks found.
  for (const Diagnostic& d : searched.unreadable) {
    findings.push_back({"unreadable", run.workspace.Shown(d), {}, ""});
  }
  for (const Diagnostic& d : searched.over_budget) {
    findings.push_back({"over-budget", run.workspace.Shown(d), {}, ""});
  }
  if (!searched.unreadable.empty() || !searched.over_budget.empty()) {
    return PrintVerifyReport(findings, opts.format, kExitBadInput,
                             "the whole-tree search could not search every file", patch_diff);
  }
  const PlanCounts counts = CountPlan(plan);
  return PrintVerifyReport(findings, opts.format, drift ? kExitDrift : kExitClean, summary,
                           patch_diff, LeftAloneSummary(counts, Verbosity() > 0), &counts);
}

}  // namespace muh
