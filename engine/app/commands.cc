#include "engine/app/commands.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <iostream>

#include "engine/app/rule_test_runner.h"
#include "engine/base/exit_codes.h"
#include "engine/model/model_report.h"
#include "engine/patch/unified_diff.h"
#include "engine/rules/rule_loader.h"

namespace muh {

namespace {

// Loads and plans; reports every diagnostic. False when the run must stop.
bool Prepare(const CommandOptions& opts, Session* s) {
  OpenSession(opts.session, s);
  if (!s->loaded) {
    s->ReportAll(s->load_errors);
    return false;
  }
  s->ReportAll(s->plan.diagnostics);
  return s->plan.ok();
}

// Under --explain, says on stderr which rule and derivation made each edit.
void Explain(const CommandOptions& opts, const Session& s) {
  if (!opts.explain) return;
  for (const auto& [path, edits] : s.plan.edits) {
    for (const Edit& e : edits) {
      Position p = s.files.at(path).PositionOf(e.offset);
      std::string head = fmt::format("rule '{}' writes '{}'", e.rule_id,
                                     e.text.size() > 60 ? e.text.substr(0, 57) + "..." : e.text);
      for (char& c : head) {
        if (c == '\n' || c == '\r') c = ' ';
      }
      s.Report(Diagnostic{path, p.line, p.column, Severity::kNote, head});
      std::string why = e.why;
      std::size_t at = 0;
      while (at < why.size()) {
        std::size_t nl = why.find('\n', at);
        if (nl == std::string::npos) nl = why.size();
        spdlog::get("diag")->info("    {}", why.substr(at, nl - at));
        at = nl + 1;
      }
    }
  }
}

}  // namespace

int RunModel(const CommandOptions& opts) {
  std::vector<Diagnostic> errors;
  Profile profile;
  if (!BuildProfile(opts.session, &profile, &errors)) {
    for (const Diagnostic& d : errors) spdlog::get("diag")->info(d.Format());
    return kExitBadInput;
  }
  RuleSet rules;
  std::shared_ptr<ModelValues> model;
  if (!opts.session.rules_path.empty()) {
    std::string text, err;
    if (!ReadWholeFile(opts.session.rules_path, &text, &err)) {
      spdlog::get("diag")->info(MakeError(opts.session.rules_path, 0, 0, err).Format());
      return kExitBadInput;
    }
    auto factory = [&](const RuleSet& r, std::vector<Diagnostic>* errs) {
      model = BuildModel(profile, r, errs);
      return std::shared_ptr<const ValueSource>(model);
    };
    LoadRules(opts.session.rules_path, text, factory, &rules, &errors);
  } else {
    model = BuildModel(profile, rules, &errors);
  }
  if (!errors.empty() || !model) {
    for (const Diagnostic& d : errors) spdlog::get("diag")->info(d.Format());
    return kExitBadInput;
  }
  std::cout << FormatModelReport(*model, opts.explain);
  return kExitClean;
}

int RunRuleTestsCommand(const CommandOptions& opts) {
  std::vector<Diagnostic> errors;
  Profile profile;
  RuleSet rules;
  std::string rules_text, tests_text, err;
  if (!BuildProfile(opts.session, &profile, &errors)) {
  } else if (!ReadWholeFile(opts.session.rules_path, &rules_text, &err)) {
    errors.push_back(MakeError(opts.session.rules_path, 0, 0, err));
  } else if (!ReadWholeFile(opts.tests_path, &tests_text, &err)) {
    errors.push_back(MakeError(opts.tests_path, 0, 0, err));
  } else {
    auto factory = [&](const RuleSet& r, std::vector<Diagnostic>* errs) {
      return std::shared_ptr<const ValueSource>(BuildModel(profile, r, errs));
    };
    LoadRules(opts.session.rules_path, rules_text, factory, &rules, &errors);
  }
  if (!errors.empty()) {
    for (const Diagnostic& d : errors) spdlog::get("diag")->info(d.Format());
    return kExitBadInput;
  }
  RuleTestReport report = RunRuleTests(rules, opts.tests_path, tests_text);
  for (const std::string& e : report.load_errors) spdlog::get("diag")->info("{}: error", e);
  for (const std::string& f : report.failures) std::cout << "FAIL " << f << "\n";
  for (const std::string& id : report.untested) {
    std::cout << fmt::format("untested: rule '{}' has no test case\n", id);
  }
  std::cout << fmt::format("{} passed, {} failed\n", report.passed, report.failed);
  bool ok = report.load_errors.empty() && report.failed == 0 && report.passed > 0 &&
            report.untested.empty();
  return ok ? kExitClean : kExitDrift;
}

int RunDiff(const CommandOptions& opts) {
  Session s;
  if (!Prepare(opts, &s)) return kExitBadInput;
  std::string diff = RenderDiff(s.files, s.plan.new_contents);
  std::cout << diff << std::flush;
  Explain(opts, s);
  spdlog::info("{}", PlanSummary(s.plan));
  return kExitClean;
}

int RunApply(const CommandOptions& opts) {
  // Lock first: planning must see the tree as the write will find it.
  TreeIo tree;
  Diagnostic derr;
  if (!TreeIo::Open(opts.session.tree_path, &tree, &derr)) {
    spdlog::get("diag")->info(derr.Format());
    return kExitBadInput;
  }
  TreeIo::Lock lock;
  if (!tree.AcquireLock(true, &lock, &derr)) {
    spdlog::get("diag")->info(derr.Format());
    return kExitBusy;
  }
  std::vector<Diagnostic> recovery_errs;
  const WriteResult recovered = tree.RecoverInterruptedApply(&recovery_errs);
  for (const Diagnostic& d : recovery_errs) spdlog::get("diag")->info(d.Format());
  if (!recovered.ok()) return ExitCodeFor(recovered);
  for (const std::string& r : recovered.removed) {
    spdlog::info("removed {}, left by an interrupted apply", r);
  }
  Session s;
  CommandOptions locked = opts;
  locked.session.lock_shared = false;
  if (!Prepare(locked, &s)) return kExitBadInput;
  if (s.plan.new_contents.empty()) {
    spdlog::info("nothing to change; {}", PlanSummary(s.plan));
    return kExitClean;
  }
  std::vector<std::string> paths;
  for (const auto& [path, text] : s.plan.new_contents) paths.push_back(path);
  std::vector<Diagnostic> errs;
  if (!s.tree.CheckWritable(paths, &errs)) {
    s.ReportAll(errs);
    return kExitBadInput;
  }
  Explain(opts, s);
  std::map<std::string, FileUpdate> updates;
  for (const auto& [path, text] : s.plan.new_contents) {
    updates[path] = {s.files.at(path).bytes(), text};
  }
  const WriteResult written = s.tree.WriteAll(updates, &errs);
  s.ReportAll(errs);
  if (!written.ok()) return ExitCodeFor(written);
  spdlog::info("rewrote {} files; {}", paths.size(), PlanSummary(s.plan));
  return kExitClean;
}

}  // namespace muh
