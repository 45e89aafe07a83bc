#include "engine/app/commands.h"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <new>
#include <optional>

#include "engine/app/base_patch.h"
#include "engine/app/diag_output.h"
#include "engine/app/outcome_report.h"
#include "engine/app/patch_input.h"
#include "engine/app/patch_written.h"
#include "engine/app/pr_summary.h"
#include "engine/app/rule_test_runner.h"
#include "engine/app/site_liveness.h"
#include "engine/app/status.h"
#include "engine/app/tree_facts.h"
#include "engine/app/workspace_search.h"
#include "engine/base/checked_output.h"
#include "engine/base/colour.h"
#include "engine/base/exit_codes.h"
#include "engine/base/logging.h"
#include "engine/base/out_of_memory.h"
#include "engine/base/parallel.h"
#include "engine/base/plural.h"
#include "engine/io/atomic_file.h"
#include "engine/io/held_signals.h"
#include "engine/model/model_report.h"
#include "engine/patch/unified_diff.h"
#include "engine/plan/planner.h"
#include "engine/rules/rule_loader.h"

namespace muh {

namespace {

// The patch the command is given: diff's --base-patch, else --patch (diff
// takes one or the other).
const std::string& GivenPatchPath(const CommandOptions& opts) {
  return opts.base_patch_path.empty() ? opts.patch_path : opts.base_patch_path;
}

}  // namespace

int OpenRun(const CommandOptions& opts, TreeAccess access, OpenedRun* run) {
  if (opts.tree_path.empty()) {
    return LoadInputs(opts.inputs, &run->inputs, &run->errors) ? kExitClean : kExitBadInput;
  }
  Workspace& w = run->workspace;
  std::vector<Diagnostic> errors;  // the tree's
  // The rules load first: opening for apply recovers an interrupted apply,
  // which must not happen before the rules have loaded.
  InputOptions first = opts.inputs;
  first.say_unused_measurements = false;  // said once the tree's facts are in
  if (!LoadInputs(first, &run->inputs, &run->errors)) return kExitBadInput;
  int code = OpenTree(opts.tree_path, access, &w, &errors);
  w.rules_path = run->inputs.rules.path;
  // A reader does not recover an interrupted apply (apply does, holding the
  // tree's lock alone), but says that one left its journal.
  if (code == kExitClean && access == TreeAccess::kRead) {
    if (std::optional<Diagnostic> journal = w.tree.InterruptedApply()) errors.push_back(*journal);
  }
  if (code == kExitClean) code = ReadRuleFiles(run->inputs.rules, &w, &errors);
  if (code == kExitClean) {
    // The facts the tree states feed the model: load again with them.
    InputOptions with = opts.inputs;
    std::vector<Diagnostic> unread;
    const Inputs& loaded = run->inputs;
    with.tree_facts = ReadTreeFacts(run->inputs.rules, w.files, w.tree_paths, &unread,
                                    [&](const std::string& path, const std::string& name) {
                                      return StoredElsewhere(loaded, w, path, name);
                                    });
    for (const Diagnostic& d : unread) logging::Diag(w.Shown(d).Format());
    if (!with.tree_facts.empty()) {
      std::shared_ptr<QueryCache> queries = std::move(run->inputs.queries);
      run->inputs = Inputs{};
      run->inputs.queries = std::move(queries);
      if (!LoadInputs(with, &run->inputs, &run->errors)) return kExitBadInput;
    } else if (opts.inputs.say_unused_measurements) {
      SayUnusedMeasurements(*run->inputs.model);
    }
  }
  for (const Diagnostic& d : errors) run->errors.push_back(w.Shown(d));
  if (code != kExitClean) return code;
  // What recovery did, and the journal a reader found: said, not errors.
  for (const Diagnostic& d : run->errors) logging::Diag(d.Format());
  run->errors.clear();
  // The patch, read once (it may be a pipe): its `+` values are muhpatch's,
  // not hand-tuned.
  run->patch = ReadPatchInput(GivenPatchPath(opts), opts.strip);
  if (!run->patch.ok()) {
    run->errors = run->patch.errors;
    return kExitBadInput;
  }
  run->written = WrittenByPatch(run->patch, w.files);
  return kExitClean;
}

namespace {

// A rule that found no site in its files may have a knob that moved: search
// the rest of the tree for it and say where it matches now.
void ReportMovedKnobs(const OpenedRun& run, const PlanResult& plan) {
  const Workspace& w = run.workspace;
  RuleSet lost;
  lost.path = run.inputs.rules.path;
  lost.exclude = run.inputs.rules.exclude;
  for (const Rule& r : run.inputs.rules.rules) {
    const RuleOutcome* o = plan.Find(r.id);
    if (o != nullptr && o->status == RuleStatus::kFailed && o->lost) lost.rules.push_back(r);
  }
  if (lost.rules.empty()) return;
  SearchResult searched = SearchTree(lost, w, 0);
  for (const Diagnostic& d : searched.unreadable) w.Report(d);
  for (const Diagnostic& d : searched.over_budget) w.Report(d);
  for (const ForeignMatch& m : searched.matches) {
    w.Report(Diagnostic{m.path, m.line, m.column, Severity::kNote,
                        fmt::format("rule '{}' matches here, outside its files: did the knob "
                                    "move? (update its 'files')",
                                    m.rule_id)});
  }
}

}  // namespace

PlanResult PlanLive(const OpenedRun& run, const std::map<std::string, SourceText>& files,
                    const LivenessAnalysis& analysis, bool include_dead) {
  return Plan(run.inputs.rules, files, run.workspace.tree_paths, {&analysis, include_dead},
              run.written);
}

PlanResult PlanTree(const OpenedRun& run, bool include_dead) {
  return PlanWithLiveness(run.inputs, run.workspace, run.workspace.files, include_dead, nullptr,
                          run.written);
}

PlanResult PlanAndReport(const OpenedRun& run, const CommandOptions& opts) {
  PlanResult plan = PlanTree(run, opts.include_dead);
  ReportPlan(run, opts, plan);
  return plan;
}

void ReportPlan(const OpenedRun& run, const CommandOptions& opts, const PlanResult& plan) {
  const Workspace& w = run.workspace;
  // Quiet by default (outcome_report.h): what needs the user, located; the
  // rules left alone counted in one line, and listed under -v.
  OutcomeReport report = ReportOutcomes(plan, run.inputs.rules.path, Verbosity() > 0);
  w.ReportAll(report.needs_you);
  ReportMovedKnobs(run, plan);
  if (Verbosity() > 0) w.ReportAll(report.left_alone);
  if (!report.summary.empty()) {
    logging::Diag(fmt::format("muhpatch: {}", report.summary));
  } else {
    logging::Info("{}", PlanSummary(plan));
  }
  if (opts.explain) {
    for (const RuleOutcome& o : plan.outcomes) {
      for (const Site& site : o.found) {
        if (!site.pin_reason.empty()) {
          w.Report(Diagnostic{site.path, site.line, site.column, Severity::kNote,
                              fmt::format("rule '{}': pinned to '{}': {} (the model's own value: "
                                          "'{}')",
                                          o.rule_id, site.wanted, site.pin_reason, site.model)});
        }
        if (!site.liveness) continue;
        w.Report(Diagnostic{site.path, site.line, site.column, Severity::kNote,
                            fmt::format("rule '{}': site is {}: {}", o.rule_id,
                                        site.LivenessShown(""), site.LivenessReason())});
      }
    }
  }
}

namespace {

void ReportErrors(const std::vector<Diagnostic>& errors) {
  for (const Diagnostic& d : errors) logging::Diag(d.Format());
}

// OpenRun, saying on stderr why the run cannot open.
int StartRun(const CommandOptions& opts, TreeAccess access, OpenedRun* run) {
  const int code = OpenRun(opts, access, run);
  if (code != kExitClean) ReportErrors(run->errors);
  return code;
}

// Under --explain, says on stderr which rule and derivation made each edit.
void Explain(const CommandOptions& opts, const Workspace& w, const PlanResult& plan) {
  if (!opts.explain) return;
  for (const auto& [path, edits] : plan.edits) {
    for (const Edit& e : edits) {
      Position p = w.files.at(path).PositionOf(e.offset);
      std::string head = fmt::format("rule '{}' writes '{}'", e.rule_id,
                                     e.text.size() > 60 ? e.text.substr(0, 57) + "..." : e.text);
      for (char& c : head) {
        if (c == '\n' || c == '\r') c = ' ';
      }
      w.Report(Diagnostic{path, p.line, p.column, Severity::kNote, head});
      std::string why = e.why;
      std::size_t at = 0;
      while (at < why.size()) {
        std::size_t nl = why.find('\n', at);
        if (nl == std::string::npos) nl = why.size();
        logging::Diag(fmt::format("    {}", why.substr(at, nl - at)));
        at = nl + 1;
      }
    }
  }
}

// Out of memory while saying what WriteAll did: said without allocating,
// with the exit code of what is on disk. A failed write that changed
// nothing (or rolled back) is out of memory (4) like any other.
int ApplyOutOfMemory(const Workspace& w, const WriteResult& written, int planned) {
  ReleaseMemoryReserve();
  if (written.state == WriteState::kWritten) {
    WriteStderrLine(
        {"muhpatch: warning: out of memory after apply wrote every file; some of its "
         "notes are not shown"});
    return planned;
  }
  if (written.state == WriteState::kTorn) {
    std::string_view root = w.tree.root();
    while (root.size() > 1 && root.back() == '/') root.remove_suffix(1);
    for (const std::string& f : written.new_files) {
      WriteStderrLine({root, "/", f, ": error: left with its new content"});
    }
    WriteOutOfMemory(
        " while reporting a failed apply; .muhpatch-journal records the files left with their "
        "new content, and the next apply rolls them back");
    return kExitWriteFailed;
  }
  WriteOutOfMemory("");
  return kExitInternal;
}

}  // namespace

int RunModel(const CommandOptions& opts) {
  OpenedRun run;
  if (int code = StartRun(opts, TreeAccess::kRead, &run); code != kExitClean) return code;
  std::string report = FormatModelReport(*run.inputs.model, opts.explain);
  if (!opts.tree_path.empty()) {
    // With a tree: the facts it states count, where each quantity is
    // written, and whether that code runs on the served platform (the
    // values are derived either way).
    PlanResult plan = PlanTree(run, /*include_dead=*/true);
    report += fmt::format("\nSites in {} (where each quantity is written, and whether it runs):\n",
                          opts.tree_path);
    for (const Rule& rule : run.inputs.rules.rules) {
      std::vector<std::string> names;
      for (const TemplatePart& part : rule.with.parts()) {
        if (part.kind == TemplatePart::Kind::kValue || part.kind == TemplatePart::Kind::kCall) {
          names.push_back(part.text);
        }
      }
      if (rule.tiers && rule.tiers->has_bound_with) {
        for (const TemplatePart& part : rule.tiers->bound_with.parts()) {
          if (part.kind == TemplatePart::Kind::kCall) names.push_back(part.text);
        }
      }
      if (!rule.entries.empty()) names.push_back(rule.entries);
      const RuleOutcome* o = plan.Find(rule.id);
      std::string quantities = fmt::format("{}", fmt::join(names, ", "));
      if (o == nullptr || o->found.empty()) {
        report += fmt::format("  {}: rule '{}': {}\n", quantities.empty() ? "-" : quantities,
                              rule.id, o == nullptr ? "not planned" : RuleStatusName(o->status));
        continue;
      }
      for (const Site& site : o->found) {
        // A tier family's site: its tier or bound, the range the code gives it.
        std::string tier;
        if (site.kept && !site.tier.empty()) {
          tier = fmt::format(" [{}, keeps {}: hand-tuned; the model derives {}]", site.tier,
                             site.current, site.wanted);
        } else if (!site.tier.empty()) {
          tier = site.wanted == site.current
                     ? fmt::format(" [{}, at value]", site.tier)
                     : fmt::format(" [{}, writes {}]", site.tier, site.wanted);
        }
        report +=
            fmt::format("  {}: rule '{}' at {}:{}{}: {}{}\n", quantities.empty() ? "-" : quantities,
                        rule.id, site.path, site.line, tier, site.LivenessShown("not analysed"),
                        site.LivenessReason().empty() ? "" : ": " + site.LivenessReason());
      }
    }
  }
  std::string err;
  if (!WriteStdout(report, &err)) {
    ReportErrors({MakeError("stdout", 0, 0, err)});
    return kExitInternal;
  }
  return kExitClean;
}

int RunRuleTestsCommand(const CommandOptions& opts) {
  OpenedRun run;  // no tree: the inputs alone
  if (int code = StartRun(opts, TreeAccess::kRead, &run); code != kExitClean) return code;
  std::string tests_text, err;
  if (!ReadWholeFile(opts.tests_path, &tests_text, &err)) {
    ReportErrors({MakeError(opts.tests_path, 0, 0, err)});
    return kExitBadInput;
  }
  RuleTestReport report = RunRuleTests(run.inputs.rules, opts.tests_path, tests_text);
  ReportErrors(report.load_errors);
  for (const std::string& f : report.failures) std::cout << "FAIL " << f << "\n";
  for (const std::string& id : report.untested) {
    std::cout << fmt::format("untested: rule '{}' has no test case\n", id);
  }
  std::cout << fmt::format("{} passed, {} failed\n", report.passed, report.failed);
  if (!report.load_errors.empty()) return kExitBadInput;
  if (report.failed > 0 || report.passed == 0) {
    logging::Diag(
        fmt::format("muhpatch: test: exit {}: {}", static_cast<int>(kExitDrift),
                    report.failed > 0
                        ? Counted(static_cast<std::size_t>(report.failed), "rule test") + " failed"
                        : std::string("no rule test ran")),
        true);
    return kExitDrift;
  }
  if (!report.untested.empty()) {
    logging::Diag(
        fmt::format("muhpatch: test: exit {}: {} no test case; every rule needs at least one",
                    static_cast<int>(kExitUntested),
                    Counted(report.untested.size(), "rule has", "rules have")),
        true);
    return kExitUntested;
  }
  return kExitClean;
}

int RunDiff(const CommandOptions& opts) {
  if (!opts.base_patch_path.empty()) {
    if (opts.format == "markdown" || !opts.patch_path.empty()) {
      logging::Diag(
          "muhpatch: error: --base-patch makes the patch itself: it takes neither "
          "--format markdown nor --patch",
          true);
      return kExitBadInput;
    }
    return RunDiffFromBase(opts);
  }
  OpenedRun run;
  if (int code = StartRun(opts, TreeAccess::kRead, &run); code != kExitClean) return code;
  // As verify and --base-patch: a --patch recording rules --rule leaves
  // out would lose their records in the patch made now (a helper probe of
  // 2893764: `--rule R --patch P -o P` cut P to R's lines).
  if (auto other = OtherRulesRecorded(run.patch, opts.inputs.only_rules)) {
    ReportErrors({*other});
    return kExitBadInput;
  }
  const Workspace& w = run.workspace;
  PlanResult plan = PlanAndReport(run, opts);
  // The rules that planned are printed even when others failed.
  // --format markdown: the pull-request summary (pr_summary.h) instead.
  bool markdown = opts.format == "markdown";
  if (int code = WriteDiffOutput(
          opts, markdown ? FormatPrSummary(w.files, plan) : RenderPatch(w.files, plan), !markdown,
          markdown || plan.ok());
      code != kExitClean) {
    return code;
  }
  Explain(opts, w, plan);
  return plan.ok() ? kExitClean : kExitRulesFailed;
}

int WriteDiffOutput(const CommandOptions& opts, const std::string& out, bool is_patch, bool whole) {
  std::string err;
  if (opts.output_path.empty()) {
    if (WriteStdout(is_patch && ColourStdout() ? ColourUnifiedDiff(out) : out, &err)) {
      return kExitClean;
    }
    ReportErrors({MakeError("stdout", 0, 0, err)});
    return kExitInternal;
  }
  if (!whole) {
    // A helper probe of f751cf4: verify's own `next:` command, run after a
    // rule had failed, wrote an empty patch over the one under review, and
    // verify then passed.
    logging::Diag(fmt::format("muhpatch: error: {}: not written, and kept as it was: the rules "
                              "failed (the errors above); fix them and run this again",
                              opts.output_path),
                  /*important=*/true);
    return kExitClean;
  }
  std::string before;
  if (out.empty() && ReadWholeFile(opts.output_path, &before, &err) && !before.empty()) {
    auto lines = static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n'));
    if (opts.base_patch_path.empty()) {
      // A helper probe of d751784: verify's advice, run on a tree that
      // carries the patch, emptied the committed patch. Only --base-patch,
      // which undoes the patch first, may find that nothing is left.
      logging::Diag(
          fmt::format("muhpatch: warning: {}: not written, and kept as it was ({}): the rules "
                      "change nothing in {} (a tree that carries the patch: --base-patch makes "
                      "it again; remove {} to drop the patch)",
                      opts.output_path, Counted(lines, "line"), opts.tree_path, opts.output_path),
          /*important=*/true);
      return kExitClean;
    }
    logging::Diag(fmt::format("muhpatch: warning: {}: an empty patch replaces one of {}: the "
                              "rules change nothing in {} without the patch",
                              opts.output_path, Counted(lines, "line"), opts.tree_path),
                  /*important=*/true);
  }
  if (!WriteFileAtomically(opts.output_path, out, &err)) {
    ReportErrors({MakeError(opts.output_path, 0, 0, err)});
    return kExitInternal;
  }
  return kExitClean;
}

int RunApply(const CommandOptions& opts) {
  OpenedRun run;
  if (int code = StartRun(opts, TreeAccess::kWrite, &run); code != kExitClean) return code;
  Workspace& w = run.workspace;
  PlanResult plan = PlanAndReport(run, opts);
  if (!plan.ok() && !opts.keep_going) {
    logging::Diag("muhpatch: nothing written: some rules failed (--keep-going writes the others)");
    return kExitRulesFailed;
  }
  int planned = plan.ok() ? kExitClean : kExitRulesFailed;
  if (plan.new_contents.empty()) {
    logging::Info("nothing to change; {}", PlanSummary(plan));
    return planned;
  }
  std::vector<Diagnostic> errs;
  Explain(opts, w, plan);
  std::map<std::string, FileUpdate> updates;
  for (const auto& [path, text] : plan.new_contents) {
    updates[path] = {w.files.at(path).bytes(), text};
  }
  // A signal during the write ends muhpatch only after it and its report
  // (held_signals.h): the holder goes when this returns.
  HeldSignals held;
  const WriteResult written = w.tree.WriteAll(updates, &errs);
  try {
    w.ReportAll(errs);
    if (!written.ok()) return ExitCodeFor(written);
    logging::Info("rewrote {}; {}", Counted(updates.size(), "file"), PlanSummary(plan));
    return planned;
  } catch (const std::bad_alloc&) {
    return ApplyOutOfMemory(w, written, planned);
  }
}

int RunStatus(const CommandOptions& opts) {
  OpenedRun run;
  if (int code = StartRun(opts, TreeAccess::kRead, &run); code != kExitClean) return code;
  std::vector<Assumption> assumptions;
  PlanResult plan = PlanWithLiveness(run.inputs, run.workspace, run.workspace.files,
                                     opts.include_dead, nullptr, run.written, &assumptions);
  std::vector<StatusRow> rows = StatusRows(run.inputs.rules, plan);
  std::string err;
  if (!WriteStdout(FormatStatus(rows, opts.format, assumptions), &err)) {
    ReportErrors({MakeError("stdout", 0, 0, err)});
    return kExitInternal;
  }
  logging::Info("{}", PlanSummary(plan));
  return plan.ok() ? kExitClean : kExitRulesFailed;
}

}  // namespace muh
