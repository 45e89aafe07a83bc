#include "engine/app/verify_checks.h"

#include <fmt/format.h>

#include "engine/patch/unified_diff.h"

namespace muh {

namespace {

std::vector<std::string> Lines(std::string_view text) {
  std::vector<std::string> out;
  while (!text.empty()) {
    std::size_t nl = text.find('\n');
    out.emplace_back(text.substr(0, nl));
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return out;
}

std::string OneLine(std::string_view text) {
  std::string out(text);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  for (char& c : out) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return out.size() > 70 ? out.substr(0, 67) + "..." : out;
}

// One drift finding per site the rules would still rewrite: what is there,
// what the model derives, and the derivation.
void AddSites(const VerifyInput& in, std::vector<Finding>* out) {
  for (const auto& [path, edits] : in.plan.edits) {
    const SourceText& file = in.workspace.files.at(path);
    for (const Edit& e : edits) {
      Position p = file.PositionOf(e.offset);
      std::string current = file.bytes().substr(e.offset, e.length);
      std::string msg;
      if (e.text.empty()) {
        msg = fmt::format("drift: rule '{}' would delete '{}'", e.rule_id, OneLine(current));
      } else if (e.length == 0) {
        std::vector<std::string> lines = Lines(e.text);
        std::string first = lines.empty() ? "" : lines.front();
        first.erase(0, first.find_first_not_of(" \t"));
        msg = fmt::format("drift: rule '{}' would insert {} line{} starting '{}'", e.rule_id,
                          lines.size(), lines.size() == 1 ? "" : "s", OneLine(first));
      } else {
        msg = fmt::format("drift: rule '{}' finds '{}' where the model derives '{}'", e.rule_id,
                          OneLine(current), OneLine(e.text));
      }
      out->push_back(
          {"site", Diagnostic{path, p.line, p.column, Severity::kError, msg}, Lines(e.why)});
    }
  }
}

std::string Stale(const VerifyInput& in) {
  return fmt::format(
      "{} is stale: the rules, the model or the tree changed, and the patch they produce now "
      "differs (committed -> regenerated, on stdout)",
      in.patch_path);
}

CheckResult Drift(std::string summary, std::string patch_diff = "") {
  CheckResult r;
  r.drift = true;
  r.summary = std::move(summary);
  r.patch_diff = std::move(patch_diff);
  return r;
}

CheckResult Clean(std::string summary) {
  CheckResult r;
  r.summary = std::move(summary);
  return r;
}

// Applies the committed patch to the tree's files, forwards (a pristine
// tree) or backwards (a patched one); every file it names must take it
// exactly.
bool ApplyCommitted(const VerifyInput& in, bool reverse, std::map<std::string, SourceText>* out,
                    Diagnostic* failure) {
  for (const FilePatch& fp : in.patch) {
    std::string current;
    if (!in.workspace.tree.Read(fp.path, &current, failure)) return false;
    std::string result;
    if (!ApplyFilePatch(in.patch_path, fp, current, reverse, &result, failure)) return false;
    (*out)[fp.path] = SourceText(fp.path, std::move(result));
  }
  return true;
}

}  // namespace

CheckResult CheckRulesApply(const VerifyInput& in) {
  CheckResult r;
  for (const Diagnostic& d : in.plan.diagnostics) r.findings.push_back({"plan", d, {}});
  if (!in.plan.ok()) {
    r.drift = true;
    r.summary = fmt::format("the rules no longer apply cleanly to {}", in.tree_path);
  }
  return r;
}

CheckResult CheckCopies(const VerifyInput& in) {
  CheckResult r;
  for (const ForeignMatch& m : in.foreign) {
    r.findings.push_back(
        {"foreign",
         Diagnostic{m.path, m.line, m.column, Severity::kError,
                    fmt::format("drift: rule '{}' matches here, outside its files: a moved "
                                "or copied knob (list the path under 'also-matches' if it "
                                "belongs here)",
                                m.rule_id)},
         {}});
  }
  if (!r.findings.empty()) {
    r.drift = true;
    r.summary = fmt::format("the rules no longer apply cleanly to {}", in.tree_path);
  }
  return r;
}

CheckResult CheckNothingLeft(const VerifyInput& in) {
  if (in.regenerated.empty()) {
    return Clean(fmt::format("nothing left to change ({})", PlanSummary(in.plan)));
  }
  std::size_t n = in.plan.new_contents.size();
  CheckResult r = Drift(fmt::format("{} file{} would change", n, n == 1 ? "" : "s"));
  AddSites(in, &r.findings);
  return r;
}

CheckResult CheckCommittedPatch(const VerifyInput& in) {
  if (in.committed == in.regenerated) {
    return Clean(fmt::format("{} matches the rules ({})", in.patch_path, PlanSummary(in.plan)));
  }
  std::vector<Finding> unreadable;
  for (const FilePatch& fp : in.patch) {
    std::string ignored;
    Diagnostic derr;
    if (!in.workspace.tree.Read(fp.path, &ignored, &derr))
      unreadable.push_back({"patch-file", derr, {}});
  }
  if (!unreadable.empty()) {
    CheckResult r = Drift(fmt::format("{} names a file the tree does not have", in.patch_path));
    r.findings = std::move(unreadable);
    return r;
  }
  const std::map<std::string, SourceText>& files = in.workspace.files;
  std::map<std::string, SourceText> scratch = files;
  Diagnostic forward_failure;
  if (!in.regenerated.empty() && ApplyCommitted(in, false, &scratch, &forward_failure)) {
    // A pristine tree whose committed patch applies but differs from what
    // the rules produce now: the rules or the model moved.
    return Drift(Stale(in), UnifiedDiff(in.patch_path, in.committed, in.regenerated));
  }
  // Otherwise the tree should be patched: undoing the committed patch must
  // give a tree for which the rules produce that very patch.
  std::map<std::string, SourceText> undone = files;
  Diagnostic reverse_failure;
  if (!ApplyCommitted(in, true, &undone, &reverse_failure)) {
    CheckResult r = Drift(fmt::format("{} no longer applies to {}{}", in.patch_path, in.tree_path,
                                      in.regenerated.empty() ? " (in reverse)" : ""));
    r.findings.push_back({"patch", in.regenerated.empty() ? reverse_failure : forward_failure, {}});
    return r;
  }
  PlanResult replan = Plan(in.inputs.rules, undone, in.workspace.tree_paths);
  std::string reproduced = RenderDiff(undone, replan.new_contents);
  if (reproduced != in.committed) {
    return Drift(Stale(in), UnifiedDiff(in.patch_path, in.committed, reproduced));
  }
  if (in.regenerated.empty()) {
    return Clean(fmt::format("{} is applied and the rules reproduce it ({})", in.patch_path,
                             PlanSummary(in.plan)));
  }
  // The patch is applied and still right, but the tree was edited since.
  CheckResult r = Drift(fmt::format(
      "{} is applied, but the tree was edited since at the sites above", in.patch_path));
  AddSites(in, &r.findings);
  return r;
}

}  // namespace muh
