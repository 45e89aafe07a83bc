#include "engine/app/verify.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <optional>

#include "engine/app/diag_output.h"
#include "engine/app/next_command.h"
#include "engine/app/outcome_report.h"
#include "engine/app/pre_image.h"
#include "engine/app/verify_checks.h"
#include "engine/app/workspace_search.h"
#include "engine/base/exit_codes.h"
#include "engine/base/logging.h"
#include "engine/base/parallel.h"
#include "engine/patch/unified_diff.h"

namespace muh {

namespace {

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
PlanResult PlanAndSearch(const OpenedRun& run, const CommandOptions& opts, LivenessNaming naming,
                         SearchResult* found) {
  unsigned threads = opts.threads;
  const Workspace& w = run.workspace;
  const RuleSet& rules = run.inputs.rules;
  TreeSearchScope scope;
  BackgroundTask search([&] {
    scope = ScopeTreeSearch(rules, w);
    *found = SearchInScope(rules, w, scope, threads, UngatedRules(rules));
  });
  PlanResult plan = PlanWithLiveness(run.inputs, w, w.files, opts.include_dead, nullptr,
                                     run.written, nullptr, naming);
  search.Join();
  RuleMask gated = GatedRulesThatRan(rules, plan);
  if (std::find(gated.begin(), gated.end(), true) != gated.end()) {
    MergeLaterSearch(rules, SearchInScope(rules, w, scope, threads, gated), found);
  }
  const SearchStats& stats = found->stats;
  logging::Debug("whole-tree search: {} files, {} read, {} parsed ({} in part; {} bytes)",
                 stats.files, stats.read, stats.parsed, stats.excerpts, stats.parsed_bytes);
  return plan;
}

// What a finding tells the user to run next, spelled for this run.
NextCommands NextCommandsFor(const CommandOptions& opts, bool carries_patch) {
  NextCommands next;
  next.refresh = RefreshCommand(opts, carries_patch);
  next.apply = CommandLine(opts, "apply");
  next.status = CommandLine(opts, "status");
  return next;
}

// The one VerifyInput of a run: every field the checks read, derived here
// before any check runs.
VerifyInput CheckInput(const OpenedRun& run, const CommandOptions& opts, const PlanResult& plan,
                       const SearchResult& searched) {
  std::string regenerated = RenderPatch(run.workspace.files, plan);
  // A tree that carries its patch gets it made again from the pre-image; a
  // plain diff would write an empty patch over it.
  bool carries_patch = false;
  if (!run.patch.files.empty()) {
    PreImage pre = PreImageOf(run.workspace, run.patch.files, plan);
    carries_patch = !pre.pristine && pre.ok();
  }
  // A patch made with --include-dead says so, and its refresh keeps the
  // flag; without it the refresh would drop the dead rules' hunks (a helper
  // probe of 68f0163). A patch of a muhpatch that did not say so (it
  // records no site left alone either) is taken to have had the flag when
  // a rule it rewrote is dead now.
  CommandOptions refresh = opts;
  const PatchPreamble& then = run.patch.preamble;
  if (then.include_dead) refresh.include_dead = true;
  for (const RuleOutcome& o : plan.outcomes) {
    if (then.include_dead) break;
    auto was = then.statuses.find(o.rule_id);
    if (o.status == RuleStatus::kDead && was != then.statuses.end() && was->second == "rewrites") {
      refresh.include_dead = true;
    }
  }
  NextCommands next = NextCommandsFor(refresh, carries_patch);
  return VerifyInput{
      run.inputs,
      run.workspace,
      run.patch,
      opts,
      plan,
      searched.matches,
      std::move(regenerated),
      carries_patch,
      std::move(next),
  };
}

}  // namespace

int RunVerify(const CommandOptions& given) {
  CommandOptions opts = given;
  const auto start = std::chrono::steady_clock::now();
  auto ms = [&start] {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
        .count();
  };
  std::vector<Finding> findings;
  OpenedRun run;
  if (int code = OpenRun(opts, TreeAccess::kRead, &run); code != kExitClean) {
    // A --patch that cannot be read or parsed is bad input whatever state
    // the tree is in.
    if (!run.patch.ok()) {
      for (const Diagnostic& d : run.patch.errors) findings.push_back({"input", d, {}, ""});
      return PrintVerifyReport(findings, opts.format, kExitBadInput,
                               run.patch.unreadable ? "cannot read the committed patch"
                                                    : "the committed patch is malformed",
                               "");
    }
    for (const Diagnostic& d : run.errors) findings.push_back({"load", d, {}, ""});
    return PrintVerifyReport(findings, opts.format, code, "cannot load the rules or the tree", "");
  }
  if (auto other = OtherRulesRecorded(run.patch, opts.inputs.only_rules)) {
    findings.push_back({"input", *other, {}, ""});
    return PrintVerifyReport(findings, opts.format, kExitBadInput,
                             "--rule leaves out rules the committed patch records", "");
  }
  // A patch made with --include-dead is verified with it: the patch says
  // how it was made (its first line), and without the flag each of its
  // dead rules would read as drift that no refresh could mend (a helper
  // probe of 2893764).
  if (run.patch.preamble.include_dead && !opts.include_dead) {
    opts.include_dead = true;
    logging::Info("{} was made with --include-dead (its first line says so): verified with it",
                  run.patch.path);
  }
  logging::Debug("verify: rules, model and tree opened: {:.1f} ms", ms());
  SearchResult searched;
  // Naming the assumptions a verdict rests on runs the analysis again with
  // each one open. Text at the default verbosity shows no verdict of a
  // clean run (its plan notes wait for -v), so it plans without, and plans
  // again with them when a finding is shown (the same verdicts: only their
  // reasons differ). -v and the other formats show every note.
  const bool named_first = Verbosity() > 0 || opts.format != "text";
  PlanResult plan = PlanAndSearch(run, opts, {named_first, true}, &searched);
  logging::Debug("verify: planned, searched, liveness decided: {:.1f} ms", ms());

  // Every check runs and everything it finds is reported; the verdict's
  // reason is the first drifting check's.
  std::string summary;
  std::string patch_diff;
  bool drift = false;
  auto check_all = [&](const PlanResult& planned) {
    findings.clear();
    summary.clear();
    patch_diff.clear();
    drift = false;
    const VerifyInput in = CheckInput(run, opts, planned, searched);
    using Check = CheckResult (*)(const VerifyInput&);
    const std::vector<Check> checks = {
        CheckRulesApply, CheckCopies,
        CheckPreamble,   CheckRuleStates,
        CheckLeftSites,  opts.patch_path.empty() ? CheckNothingLeft : CheckCommittedPatch,
    };
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
  };
  check_all(plan);
  const bool shown = std::any_of(findings.begin(), findings.end(), [](const Finding& f) {
    return !(f.where.severity == Severity::kNote && f.kind == "plan");
  });
  if (!named_first && (drift || shown)) {
    plan = PlanWithLiveness(run.inputs, run.workspace, run.workspace.files, opts.include_dead,
                            nullptr, run.written, nullptr, {true, false});
    check_all(plan);
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
