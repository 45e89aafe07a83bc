#include "engine/verify.h"

#include <iostream>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "engine/exit_codes.h"
#include "engine/patch_apply.h"
#include "engine/unified_diff.h"

namespace muh {

namespace {

void Say(const Diagnostic& d) { spdlog::get("diag")->info(d.Format()); }

std::string OneLine(std::string_view text) {
  std::string out(text);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  for (char& c : out) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return out.size() > 70 ? out.substr(0, 67) + "..." : out;
}

// One drift error per site the rules would still rewrite: what is there, what
// the model derives, and the derivation.
void ReportSites(const Session& s) {
  for (const auto& [path, edits] : s.plan.edits) {
    const SourceText& file = s.files.at(path);
    for (const Edit& e : edits) {
      Position p = file.PositionOf(e.offset);
      std::string current = file.bytes().substr(e.offset, e.length);
      std::string msg;
      if (e.text.empty()) {
        msg = fmt::format("drift: rule '{}' would delete '{}'", e.rule_id, OneLine(current));
      } else if (e.length == 0) {
        msg = fmt::format("drift: rule '{}' would insert '{}'", e.rule_id, OneLine(e.text));
      } else {
        msg = fmt::format("drift: rule '{}' finds '{}' where the model derives '{}'", e.rule_id,
                          OneLine(current), OneLine(e.text));
      }
      s.Report(Diagnostic{path, p.line, p.column, Severity::kError, msg});
      std::string_view why = e.why;
      while (!why.empty()) {
        std::size_t nl = why.find('\n');
        spdlog::get("diag")->info("    {}", why.substr(0, nl));
        if (nl == std::string_view::npos) break;
        why.remove_prefix(nl + 1);
      }
    }
  }
}

std::string Summary(const PlanResult& plan) {
  int rewrites = 0, done = 0, skipped = 0;
  for (const RuleOutcome& o : plan.outcomes) {
    rewrites += o.status == RuleStatus::kRewrites;
    done += o.status == RuleStatus::kAlreadyApplied;
    skipped += o.status == RuleStatus::kSkipped;
  }
  return fmt::format("{} rules: {} to apply, {} already applied, {} skipped", plan.outcomes.size(),
                     rewrites, done, skipped);
}

int Drift(const std::string& what) {
  spdlog::get("diag")->info("verify: drift: {}", what);
  return kExitDrift;
}

// Shows where the committed and regenerated patches differ, on stdout.
int Stale(const std::string& patch_path, const std::string& committed,
          const std::string& regenerated) {
  std::cout << UnifiedDiff(patch_path, committed, regenerated);
  return Drift(fmt::format(
      "{} is stale: the rules or the model now produce a different patch (shown on stdout, "
      "committed -> regenerated)",
      patch_path));
}

}  // namespace

int RunVerify(const CommandOptions& opts) {
  Session s;
  OpenSession(opts.session, &s);
  if (!s.loaded) {
    s.ReportAll(s.load_errors);
    return kExitBadInput;
  }
  s.ReportAll(s.plan.diagnostics);
  if (!s.plan.ok()) {
    return Drift(fmt::format("the rules no longer apply cleanly to {}", opts.session.tree_path));
  }
  std::string regenerated = RenderDiff(s.files, s.plan.new_contents);
  if (opts.patch_path.empty()) {
    if (regenerated.empty()) {
      std::cout << fmt::format("verify: clean: nothing left to change ({})\n", Summary(s.plan));
      return kExitClean;
    }
    ReportSites(s);
    return Drift(fmt::format("{} file{} would change", s.plan.new_contents.size(),
                             s.plan.new_contents.size() == 1 ? "" : "s"));
  }

  std::string committed, err;
  if (!ReadWholeFile(opts.patch_path, &committed, &err)) {
    Say(MakeError(opts.patch_path, 0, 0, err));
    return kExitBadInput;
  }
  std::vector<FilePatch> patch;
  std::vector<Diagnostic> errors;
  if (!ParsePatch(opts.patch_path, committed, &patch, &errors)) {
    for (const Diagnostic& d : errors) Say(d);
    return kExitBadInput;
  }
  if (committed == regenerated) {
    std::cout << fmt::format("verify: clean: {} matches the rules ({})\n", opts.patch_path,
                             Summary(s.plan));
    return kExitClean;
  }

  bool patched = regenerated.empty();
  // Apply the committed patch (forwards to a pristine tree, backwards to a
  // patched one); every file it names must take it exactly.
  std::map<std::string, SourceText> undone = s.files;
  for (const FilePatch& fp : patch) {
    std::string current;
    Diagnostic derr;
    if (!s.tree.Read(fp.path, &current, &derr)) {
      s.Report(derr);
      return Drift(fmt::format("{} names a file the tree does not have", opts.patch_path));
    }
    std::string result;
    if (!ApplyFilePatch(opts.patch_path, fp, current, patched, &result, &derr)) {
      Say(derr);
      return Drift(fmt::format("{} no longer applies to {}{}", opts.patch_path,
                               opts.session.tree_path, patched ? " (in reverse)" : ""));
    }
    undone[fp.path] = SourceText(fp.path, std::move(result));
  }
  if (!patched) {
    // The patch applies but differs: the rules, the model or a hand edit moved.
    ReportSites(s);
    return Stale(opts.patch_path, committed, regenerated);
  }
  // A patched tree: undoing the committed patch must give a tree for which
  // the rules produce that very patch.
  PlanResult replan = Plan(s.rules, *s.rules.values, undone, s.tree_paths);
  std::string reproduced = RenderDiff(undone, replan.new_contents);
  if (reproduced == committed) {
    std::cout << fmt::format(
        "verify: clean: {} is applied and the rules reproduce it ({})\n", opts.patch_path,
        Summary(s.plan));
    return kExitClean;
  }
  return Stale(opts.patch_path, committed, reproduced);
}

}  // namespace muh
