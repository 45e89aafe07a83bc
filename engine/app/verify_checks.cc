#include "engine/app/verify_checks.h"

#include <fmt/format.h>

#include <algorithm>

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

// The rule a planner message is about: the last `rule 'ID'` or `rules 'A'
// and 'B'` it names (rule ids hold no quote, rule_checker.cc).
std::string RuleIdOf(const std::string& message) {
  std::size_t at = message.find("rule '");
  std::size_t skip = 6;
  if (std::size_t two = message.find("rules '"); two != std::string::npos && two <= at) {
    at = message.find("and '", two);
    skip = 5;
  }
  if (at == std::string::npos) return "";
  std::size_t end = message.find('\'', at + skip);
  return end == std::string::npos ? "" : message.substr(at + skip, end - at - skip);
}

bool Active(const std::string& status) { return status == "rewrites" || status == "at value"; }

const Site* SiteAt(const RuleOutcome* o, const std::string& path, std::size_t offset) {
  if (o == nullptr) return nullptr;
  for (const Site& s : o->found) {
    if (s.path == path && s.begin <= offset && offset <= s.end) return &s;
  }
  return nullptr;
}

// One finding per site the rules would still rewrite: what is there, what
// the model derives, and the derivation. A site holding neither upstream's
// value nor the model's is "hand-edited".
// With `with_kept`, also the hand-tuned sites the plan keeps.
void AddSites(const VerifyInput& in, std::vector<Finding>* out, bool only_hand_edited = false,
              bool with_kept = false) {
  for (const auto& [path, edits] : in.plan.edits) {
    const SourceText& file = in.workspace.files.at(path);
    for (const Edit& e : edits) {
      Position p = file.PositionOf(e.offset);
      std::string current = file.bytes().substr(e.offset, e.length);
      std::string kind = "site";
      std::string msg;
      const Site* site = SiteAt(in.plan.Find(e.rule_id), path, e.offset);
      if (only_hand_edited && (site == nullptr || !site->hand_tuned)) continue;
      if (e.text.empty()) {
        msg = fmt::format("drift: rule '{}' would delete '{}'", e.rule_id, OneLine(current));
      } else if (e.length == 0) {
        std::vector<std::string> lines = Lines(e.text);
        std::string first = lines.empty() ? "" : lines.front();
        first.erase(0, first.find_first_not_of(" \t"));
        msg = fmt::format("drift: rule '{}' would insert {} line{} starting '{}'", e.rule_id,
                          lines.size(), lines.size() == 1 ? "" : "s", OneLine(first));
      } else if (site != nullptr && !site->pin_reason.empty()) {
        msg = fmt::format("drift: rule '{}' finds '{}' where it pins '{}' ({})", e.rule_id,
                          OneLine(current), OneLine(e.text), site->pin_reason);
      } else if (site != nullptr && site->hand_tuned) {
        kind = "hand-edited";
        msg = fmt::format(
            "drift: rule '{}' finds '{}', a hand-edited value (upstream's is '{}', the model "
            "derives '{}')",
            e.rule_id, OneLine(current), OneLine(site->upstream), OneLine(e.text));
      } else {
        msg = fmt::format("drift: rule '{}' finds '{}' where the model derives '{}'", e.rule_id,
                          OneLine(current), OneLine(e.text));
      }
      out->push_back({kind, Diagnostic{path, p.line, p.column, Severity::kError, msg}, Lines(e.why),
                      e.rule_id});
    }
  }
  if (!with_kept) return;
  // The hand-tuned values the plan keeps: no edit, but a reason a patch
  // no longer applies.
  for (const RuleOutcome& o : in.plan.outcomes) {
    for (const Site& site : o.found) {
      if (!site.kept) continue;
      std::string msg = fmt::format(
          "drift: rule '{}' finds '{}', a hand-edited value (upstream's is '{}', the model "
          "derives '{}')",
          o.rule_id, OneLine(site.current), OneLine(site.upstream), OneLine(site.wanted));
      out->push_back({"hand-edited",
                      Diagnostic{site.path, site.line, site.column, Severity::kError, msg},
                      Lines(site.why), o.rule_id});
    }
  }
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

// The committed patch applied to the tree's files, forwards or backwards.
// Every file it names must take it exactly.
bool ApplyCommitted(const VerifyInput& in, bool reverse, std::map<std::string, SourceText>* out) {
  for (const FilePatch& fp : in.patch) {
    std::string current, result;
    Diagnostic ignored;
    if (!in.workspace.tree.Read(fp.path, &current, &ignored)) return false;
    if (!ApplyFilePatch(in.patch_path, fp, current, reverse, &result, &ignored)) return false;
    (*out)[fp.path] = SourceText(fp.path, std::move(result));
  }
  return true;
}

// Every hunk of the committed patch that does not apply in `reverse`'s
// direction, located where its lines are now in the tree.
std::vector<Finding> FailingHunkFindings(const VerifyInput& in, bool reverse) {
  std::vector<Finding> out;
  for (const FilePatch& fp : in.patch) {
    std::string current;
    Diagnostic ignored;
    if (!in.workspace.tree.Read(fp.path, &current, &ignored)) continue;
    for (const HunkFailure& f : FailingHunks(fp, current, reverse)) {
      std::string head =
          fmt::format("drift: hunk {} of {} ({}:{}) no longer applies{}", f.hunk + 1, fp.path,
                      in.patch_path, f.patch_line, reverse ? " in reverse" : "");
      std::size_t line = f.expected;
      std::string why;
      if (f.now_at != 0) {
        line = f.now_at;
        why = fmt::format("its lines are at line {} now (the hunk says {})", f.now_at, f.expected);
      } else {
        line = f.differs_at != 0 ? f.differs_at : f.expected;
        why = f.wanted.empty() ? fmt::format("line {} should be empty", line)
                               : fmt::format("line {} should be '{}'", line, OneLine(f.wanted));
        if (f.changed_lines_at != 0) {
          why += fmt::format("; the line it changes is at line {}, under other context",
                             f.changed_lines_at);
        } else {
          why += ", and the lines it changes are nowhere in the file";
        }
      }
      out.push_back(
          {"hunk",
           Diagnostic{fp.path, static_cast<int>(line), 0, Severity::kError, head + ": " + why},
           {},
           ""});
    }
  }
  return out;
}

std::size_t Count(const std::vector<Finding>& fs) { return fs.size(); }

}  // namespace

CheckResult CheckRulesApply(const VerifyInput& in) {
  CheckResult r;
  for (const Diagnostic& d : in.plan.diagnostics) {
    r.findings.push_back({"plan", d, {}, RuleIdOf(d.message)});
  }
  if (!in.plan.ok()) {
    r.drift = true;
    r.summary = fmt::format("the rules no longer apply cleanly to {}", in.tree_path);
  }
  return r;
}

CheckResult CheckCopies(const VerifyInput& in) {
  CheckResult r;
  for (const ForeignMatch& m : in.foreign) {
    // A rule that is skipped (or has no valid value) manages nothing: its
    // matches elsewhere are not drift.
    const RuleOutcome* o = in.plan.Find(m.rule_id);
    if (o != nullptr && ManagesNothing(o->status)) {
      continue;
    }
    r.findings.push_back(
        {"foreign",
         Diagnostic{m.path, m.line, m.column, Severity::kError,
                    fmt::format("drift: rule '{}' matches here, outside its files: a moved "
                                "or copied knob (list the path under 'also-matches' if it "
                                "belongs here)",
                                m.rule_id)},
         {},
         m.rule_id});
  }
  if (!r.findings.empty()) {
    r.drift = true;
    r.summary =
        fmt::format("a knob was moved or copied outside its rule's files in {}", in.tree_path);
  }
  return r;
}

CheckResult CheckNothingLeft(const VerifyInput& in) {
  if (in.plan.new_contents.empty()) {
    return Clean(fmt::format("nothing left to change ({})", PlanSummary(in.plan)));
  }
  std::size_t n = in.plan.new_contents.size();
  CheckResult r = Drift(fmt::format("{} file{} would change", n, n == 1 ? "" : "s"));
  AddSites(in, &r.findings);
  return r;
}

CheckResult CheckRuleStates(const VerifyInput& in) {
  CheckResult r;
  if (in.patch_path.empty()) return r;
  std::map<std::string, std::string> then = PreambleStatuses(in.preamble);
  if (then.empty()) return r;  // a patch without a preamble records no states
  for (const RuleOutcome& o : in.plan.outcomes) {
    auto it = then.find(o.rule_id);
    std::string before = it == then.end() ? "absent" : it->second;
    std::string now = RuleStatusName(o.status);
    // A failure, then or now, is the plan check's to report.
    if (Active(before) == Active(now) || before == "failed" || now == "failed") continue;
    Diagnostic where =
        o.decided_at ? *o.decided_at : Diagnostic{in.inputs.rules.path, 0, 0, Severity::kError, ""};
    where.severity = Severity::kError;
    std::string why = o.decided_at ? o.decided_at->message : o.reason;
    where.message = fmt::format(
        "drift: rule '{}' was '{}' when {} was made and is '{}' now{}; regenerate the patch",
        o.rule_id, before, in.patch_path, now, why.empty() ? "" : " (" + why + ")");
    r.findings.push_back({"state", where, {}, o.rule_id});
  }
  if (!r.findings.empty()) {
    r.drift = true;
    r.summary = fmt::format("{} was made while rules were in another state", in.patch_path);
  }
  return r;
}

CheckResult CheckCommittedPatch(const VerifyInput& in) {
  std::vector<FilePatch> regenerated;
  std::vector<Diagnostic> ignored_errors;
  ParsePatch("regenerated", in.regenerated, &regenerated, &ignored_errors);
  if (SameChange(in.patch, regenerated)) {
    return Clean(fmt::format("{} matches the rules ({})", in.patch_path, PlanSummary(in.plan)));
  }
  std::vector<Finding> unreadable;
  for (const FilePatch& fp : in.patch) {
    std::string ignored;
    Diagnostic derr;
    if (!in.workspace.tree.Read(fp.path, &ignored, &derr)) {
      unreadable.push_back({"patch-file", derr, {}, ""});
    }
  }
  if (!unreadable.empty()) {
    CheckResult r = Drift(fmt::format("{} names a file the tree does not have", in.patch_path));
    r.findings = std::move(unreadable);
    return r;
  }
  std::string stale = fmt::format(
      "{} is stale: the rules, the model or the tree changed, and the patch they produce now "
      "differs (committed -> regenerated, on stdout)",
      in.patch_path);
  const std::map<std::string, SourceText>& files = in.workspace.files;
  std::map<std::string, SourceText> scratch = files;
  if (!in.plan.new_contents.empty() && ApplyCommitted(in, false, &scratch)) {
    // A pristine tree whose committed patch applies but differs from what
    // the rules produce now: the rules or the model moved.
    CheckResult r = Drift(stale, UnifiedDiff(in.patch_path, in.committed, in.regenerated));
    r.findings.push_back({"stale", MakeError(in.patch_path, 0, 0, "drift: " + stale), {}, ""});
    return r;
  }
  // Otherwise the tree should be patched: undoing the committed patch must
  // give a tree for which the rules produce that very patch.
  std::map<std::string, SourceText> undone = files;
  if (!ApplyCommitted(in, true, &undone)) {
    // Neither way: every hunk that fails, in the direction with fewer.
    std::vector<Finding> forward = FailingHunkFindings(in, false);
    std::vector<Finding> backward = FailingHunkFindings(in, true);
    bool reverse = Count(backward) < Count(forward);
    CheckResult r = Drift(
        fmt::format("{} no longer applies to {}{}: {} hunk{} fail{}", in.patch_path, in.tree_path,
                    reverse ? " (in reverse)" : "", reverse ? backward.size() : forward.size(),
                    (reverse ? backward.size() : forward.size()) == 1 ? "" : "s",
                    (reverse ? backward.size() : forward.size()) == 1 ? "s" : ""));
    r.findings = reverse ? std::move(backward) : std::move(forward);
    // A patched tree: also name the sites whose values moved since; a
    // pristine one: the sites someone tuned by hand.
    AddSites(in, &r.findings, /*only_hand_edited=*/!reverse, /*with_kept=*/true);
    return r;
  }
  PlanResult replan =
      in.replan ? in.replan(undone) : Plan(in.inputs.rules, undone, in.workspace.tree_paths);
  std::string reproduced = RenderPatch(undone, replan);
  std::vector<FilePatch> reproduced_patch;
  ParsePatch("reproduced", reproduced, &reproduced_patch, &ignored_errors);
  if (!SameChange(in.patch, reproduced_patch)) {
    CheckResult r = Drift(stale, UnifiedDiff(in.patch_path, in.committed, reproduced));
    r.findings.push_back({"stale", MakeError(in.patch_path, 0, 0, "drift: " + stale), {}, ""});
    return r;
  }
  if (in.plan.new_contents.empty()) {
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
