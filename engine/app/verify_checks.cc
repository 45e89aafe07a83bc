#include "engine/app/verify_checks.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <tuple>

#include "engine/app/foreign_hunks.h"
#include "engine/app/kept_sites.h"
#include "engine/app/next_command.h"
#include "engine/app/site_liveness.h"
#include "engine/base/one_line.h"
#include "engine/base/plural.h"
#include "engine/patch/unified_diff.h"
#include "engine/plan/keep_hand_tuned.h"
#include "engine/plan/left_record.h"
#include "engine/plan/stale_edits.h"

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

// A value or line shown in a finding, its blanks as they are.
std::string Shown(std::string_view text) { return OneLineExact(text, 70); }

// `d` with the next command to run after its message.
Diagnostic Next(Diagnostic d, const std::string& next) {
  if (!next.empty()) d.message += "; next: " + next;
  return d;
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
// the model derives, the derivation, and the command that writes it. A
// site holding neither upstream's value nor the model's is "hand-edited".
// With `with_kept`, also the hand-tuned sites the plan keeps.
// `kept_next`, when given, is the advice for a kept value instead of the
// refresh (a tree holding part of the patch is written again first).
void AddSites(const VerifyInput& in, std::vector<Finding>* out, bool only_hand_edited = false,
              bool with_kept = false, const std::string* kept_next = nullptr) {
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
        msg = fmt::format("drift: rule '{}' would delete '{}'", e.rule_id, Shown(current));
      } else if (e.length == 0) {
        std::vector<std::string> lines = Lines(e.text);
        std::string first = lines.empty() ? "" : lines.front();
        first.erase(0, first.find_first_not_of(" \t"));
        msg = fmt::format("drift: rule '{}' would insert {} starting '{}'", e.rule_id,
                          Counted(lines.size(), "line"), Shown(first));
      } else if (site != nullptr && !site->pin_reason.empty()) {
        msg = fmt::format("drift: rule '{}' finds '{}' where it pins '{}' ({})", e.rule_id,
                          Shown(current), Shown(e.text), site->pin_reason);
      } else if (site != nullptr && site->hand_tuned) {
        kind = "hand-edited";
        msg = fmt::format(
            "drift: rule '{}' finds '{}', a hand-edited value (upstream's is '{}', the model "
            "derives '{}')",
            e.rule_id, Shown(current), Shown(site->upstream), Shown(e.text));
      } else {
        msg = fmt::format("drift: rule '{}' finds '{}' where the model derives '{}'", e.rule_id,
                          Shown(current), Shown(e.text));
      }
      out->push_back(
          {kind, Next(Diagnostic{path, p.line, p.column, Severity::kError, msg}, in.next.apply),
           Lines(e.why), e.rule_id});
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
          o.rule_id, Shown(site.current), Shown(site.upstream), Shown(site.wanted));
      // Kept: the patch is the one to bring up to date (or --retune
      // overwrites the value).
      out->push_back({"hand-edited",
                      Next(Diagnostic{site.path, site.line, site.column, Severity::kError, msg},
                           kept_next != nullptr ? *kept_next : in.next.refresh),
                      Lines(site.why), o.rule_id});
    }
  }
}

// For a rule that was or is dead: its first site with the verdict it has
// now (dead, or else live or unknown) and a reason to show; null otherwise.
const Site* VerdictSite(const RuleOutcome& o, const std::string& before, const std::string& now) {
  if (before != "dead" && now != "dead") return nullptr;
  for (const Site& s : o.found) {
    if (!s.liveness || s.LivenessReason().empty()) continue;
    if ((now == "dead") == s.Is(Liveness::kDead)) return &s;
  }
  return nullptr;
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

// The bytes of `path`: as the rules read them, else from the tree; false
// when the tree has no such file.
bool TreeBytes(const VerifyInput& in, const std::string& path, std::string* out) {
  auto it = in.workspace.files.find(path);
  if (it != in.workspace.files.end()) {
    *out = it->second.bytes();
    return true;
  }
  Diagnostic ignored;
  return in.workspace.tree.Read(path, out, &ignored);
}

// One hunk git would refuse, in the file it names.
struct Miss {
  const FilePatch* file;
  HunkMiss miss;
};

// The committed patch applied to the tree as `git apply` applies it,
// forwards or (reverse) backwards: the new bytes of every file it names,
// and every hunk git would refuse.
std::map<std::string, std::string> ApplyCommitted(const VerifyInput& in, bool reverse,
                                                  std::vector<Miss>* misses) {
  std::map<std::string, std::string> out;
  for (const FilePatch& fp : in.patch.files) {
    auto it = out.find(fp.path);
    std::string current;
    if (it != out.end()) {
      current = it->second;  // a file the patch names twice takes both, in turn
    } else if (!TreeBytes(in, fp.path, &current)) {
      continue;
    }
    std::vector<HunkMiss> file_misses;
    out[fp.path] = ApplyAsGit(fp, current, reverse, &file_misses);
    for (HunkMiss& m : file_misses) misses->push_back({&fp, std::move(m)});
  }
  return out;
}

// Whether `changed` (path -> bytes; other files as the tree has them) and
// `want` agree on every file either changes.
bool SameTree(const VerifyInput& in, const std::map<std::string, std::string>& changed,
              const std::map<std::string, std::string>& want) {
  auto bytes = [&in](const std::map<std::string, std::string>& m, const std::string& path) {
    auto it = m.find(path);
    std::string b;
    if (it != m.end()) return it->second;
    TreeBytes(in, path, &b);
    return b;
  };
  for (const auto& [path, text] : changed) {
    if (bytes(want, path) != text) return false;
  }
  for (const auto& [path, text] : want) {
    if (bytes(changed, path) != text) return false;
  }
  return true;
}

// Two lines that differ, quoted for a message: shortened as Shown does,
// but around their first difference when that would hide it; an empty line
// is said to be one.
std::pair<std::string, std::string> Contrast(const std::string& a, const std::string& b) {
  auto quote = [](const std::string& s) { return s.empty() ? "an empty line" : "'" + s + "'"; };
  std::string x = Shown(a), y = Shown(b);
  if (x != y || a == b) return {quote(x), quote(y)};
  std::size_t at = 0;
  while (at < a.size() && at < b.size() && a[at] == b[at]) ++at;
  std::size_t from = at > 30 ? at - 30 : 0;
  return {quote("..." + Shown(a.substr(from))), quote("..." + Shown(b.substr(from)))};
}

// Why git refuses the hunk, and where its lines are now.
std::string MissReason(const HunkMiss& m) {
  if (m.now_at == 0) {
    return fmt::format("none of its lines is in the file now (the hunk says line {})", m.expected);
  }
  std::string where = m.span == 1 ? fmt::format("its lines are at line {} now", m.now_at)
                                  : fmt::format("its lines are at lines {}-{} now", m.now_at,
                                                m.now_at + m.span - 1);
  where += fmt::format(" (the hunk says {})", m.expected);
  if (m.line_ends) {
    auto ending = [](const std::string& l) {
      return l.size() >= 2 && l.compare(l.size() - 2, 2, "\r\n") == 0 ? "CRLF"
             : !l.empty() && l.back() == '\n'                         ? "LF"
                                                                      : "no newline";
    };
    return where + fmt::format(", but they end in {} in the hunk and in {} in the file",
                               ending(m.wanted), ending(m.has));
  }
  if (m.anchored) {
    return where + (m.expected == 1 ? ", but it starts the file, and git applies it only there"
                                    : ", but it has no context after its change, and git "
                                      "applies it only at the end of the file");
  }
  auto [has, wanted] = Contrast(m.has, m.wanted);
  return where + fmt::format(", where line {} is {} and the hunk has {} ({})", m.differs_at, has,
                             wanted,
                             m.context ? "a context line changed" : "a line it changes differs");
}

// One finding per rule line a stale patch leaves otherwise than the rules
// write it: where, and the two versions of the line.
std::vector<Finding> StaleFindings(const VerifyInput& in, const std::vector<StaleEdit>& edits) {
  std::vector<Finding> out;
  for (const StaleEdit& e : edits) {
    std::string msg = fmt::format("drift: rule '{}' writes this line otherwise than {}", e.rule_id,
                                  in.patch.path);
    auto [committed, regenerated] = Contrast(e.committed, e.regenerated);
    if (e.deleted) regenerated = "(the line is deleted)";
    out.push_back({"stale",
                   Next(Diagnostic{e.path, e.line, 0, Severity::kError, msg}, in.next.refresh),
                   {"committed:   " + committed, "regenerated: " + regenerated},
                   e.rule_id});
  }
  return out;
}

std::vector<Finding> MissFindings(const VerifyInput& in, const std::vector<Miss>& misses,
                                  bool reverse, const std::string& next) {
  std::vector<Finding> out;
  for (const Miss& x : misses) {
    const HunkMiss& m = x.miss;
    std::size_t line = m.differs_at != 0 ? m.differs_at : m.now_at != 0 ? m.now_at : m.expected;
    std::string msg = fmt::format("drift: hunk {} of {} ({}:{}) no longer applies{}: {}",
                                  m.hunk + 1, x.file->path, in.patch.path, m.patch_line,
                                  reverse ? " in reverse" : "", MissReason(m));
    out.push_back(
        {"hunk",
         Next(Diagnostic{x.file->path, static_cast<int>(line), 0, Severity::kError, msg}, next),
         {},
         ""});
  }
  return out;
}

// Whether a hunk that git refuses forwards holds, where it differs, the
// line as the patch writes it: the tree carries part of that hunk (one of
// its values edited back since apply, a helper probe of e2916b3), and a
// patch made from this tree would drop the rest.
bool PartlyApplied(const Miss& x) {
  const HunkMiss& m = x.miss;
  if (m.differs_at == 0 || m.context || m.hunk >= x.file->hunks.size()) return false;
  for (const auto& [kind, text] : x.file->hunks[m.hunk].body) {
    if (kind != '+') continue;
    std::string_view line = text;
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.remove_suffix(1);
    if (line == m.has) return true;
  }
  return false;
}

}  // namespace

CheckResult CheckRulesApply(const VerifyInput& in) {
  CheckResult r;
  for (const Diagnostic& d : in.plan.diagnostics) {
    // An error is drift: its rule's sites, as status shows them, are where
    // to look next.
    std::string next;
    if (d.severity == Severity::kError) {
      next =
          d.rule_id.empty() ? in.next.status : in.next.status + " --rule " + ShellWord(d.rule_id);
    }
    r.findings.push_back({"plan", Next(d, next), {}, d.rule_id});
  }
  if (!in.plan.ok()) {
    r.drift = true;
    r.summary = fmt::format("the rules no longer apply cleanly to {}", in.opts.tree_path);
  }
  return r;
}

CheckResult CheckCopies(const VerifyInput& in) {
  CheckResult r;
  // A rule with several sites matches a copied function once a site, all
  // at the first capture: one finding a place (a helper probe of e2916b3).
  std::set<std::tuple<std::string, std::string, int, int>> seen;
  for (const ForeignMatch& m : in.foreign) {
    if (!seen.emplace(m.rule_id, m.path, m.line, m.column).second) continue;
    // A rule that is skipped (or has no valid value) manages nothing: its
    // matches elsewhere are not drift.
    const RuleOutcome* o = in.plan.Find(m.rule_id);
    if (o != nullptr && ManagesNothing(o->status)) {
      continue;
    }
    std::string msg = fmt::format(
        "drift: rule '{}' matches here, outside its files: a moved or copied knob (list the path "
        "under 'also-matches' if it belongs here)",
        m.rule_id);
    r.findings.push_back({"foreign",
                          Next(Diagnostic{m.path, m.line, m.column, Severity::kError, msg},
                               in.next.status + " --rule " + ShellWord(m.rule_id)),
                          {},
                          m.rule_id});
  }
  if (!r.findings.empty()) {
    r.drift = true;
    r.summary =
        fmt::format("a knob was moved or copied outside its rule's files in {}", in.opts.tree_path);
  }
  return r;
}

CheckResult CheckNothingLeft(const VerifyInput& in) {
  if (in.plan.new_contents.empty()) {
    return Clean(fmt::format("nothing left to change ({})", PlanSummary(in.plan)));
  }
  std::size_t n = in.plan.new_contents.size();
  CheckResult r = Drift(fmt::format("{} would change", Counted(n, "file")));
  AddSites(in, &r.findings);
  return r;
}

CheckResult CheckPreamble(const VerifyInput& in) {
  CheckResult r;
  if (in.patch.path.empty()) return r;
  const PatchPreamble& pre = in.patch.preamble;
  auto add = [&](const std::string& rule_id, int line, const std::string& what) {
    r.findings.push_back(
        {"state",
         Next(Diagnostic{in.patch.path, line, 1, Severity::kError, "drift: " + what},
              in.next.refresh),
         {},
         rule_id});
  };
  for (const PatchPreamble::Problem& p : pre.problems) add(p.rule_id, p.line, p.what);
  for (const auto& [id, line] : pre.status_lines) {
    const std::string& rule_id = id;  // a lambda may not capture a structured binding
    if (std::any_of(in.plan.outcomes.begin(), in.plan.outcomes.end(),
                    [&rule_id](const RuleOutcome& o) { return o.rule_id == rule_id; })) {
      continue;
    }
    add(rule_id, line,
        "the preamble records rule '" + rule_id +
            "', which the rule file does not have: it was removed or renamed since the patch "
            "was made, or the line was edited, and what the patch holds for it is not checked");
  }
  if (!r.findings.empty()) {
    r.drift = true;
    r.summary = fmt::format("{}'s preamble is not as muhpatch writes it; next: {}", in.patch.path,
                            in.next.refresh);
  }
  return r;
}

CheckResult CheckRuleStates(const VerifyInput& in) {
  CheckResult r;
  if (in.patch.path.empty()) return r;
  const std::map<std::string, std::string>& then = in.patch.preamble.statuses;
  if (then.empty()) return r;  // a patch without a preamble records no states
  const std::vector<HandTunedRecord>& recorded = in.patch.preamble.hand_tuned;
  for (const RuleOutcome& o : in.plan.outcomes) {
    // A line CheckPreamble distrusts is its finding, not a state flip.
    const std::string& rule_id = o.rule_id;
    if (std::any_of(in.patch.preamble.problems.begin(), in.patch.preamble.problems.end(),
                    [&rule_id](const PatchPreamble::Problem& p) { return p.rule_id == rule_id; })) {
      continue;
    }
    auto it = then.find(o.rule_id);
    if (it == then.end()) {
      // A status line removed by hand takes the rule's records with it (a
      // helper probe of e2916b3: a dead site edited then passed); a rule
      // added since the patch was made has none either.
      r.findings.push_back(
          {"state",
           Next(Diagnostic{in.patch.path, 1, 1, Severity::kError,
                           fmt::format("drift: the patch's preamble has no line for rule '{}' "
                                       "(it is '{}' now): the line was removed, or the rule is "
                                       "newer than the patch, and the sites it leaves alone "
                                       "are not recorded",
                                       o.rule_id, RuleStatusName(o.status))},
                in.next.refresh),
           {},
           o.rule_id});
      continue;
    }
    std::string before = it->second;
    std::string now = RuleStatusName(o.status);
    // A failure, then or now, is the plan check's to report.
    if (Active(before) == Active(now) || before == "failed" || now == "failed") continue;
    // The patch applied around a value kept by hand (kept_sites.h).
    if (before == "rewrites" && now == "hand-tuned" &&
        KeptSitesUntouched(in.patch.files, o, in.workspace.files, recorded))
      continue;
    Diagnostic where =
        o.decided_at ? *o.decided_at : Diagnostic{in.inputs.rules.path, 0, 0, Severity::kError, ""};
    where.severity = Severity::kError;
    std::string why = o.decided_at ? o.decided_at->message : o.reason;
    // A flip the liveness analysis decided: the site whose verdict it is,
    // with that verdict's evidence (file:line), and the assumptions the
    // verdict rests on (a changed one is what flipped it).
    std::vector<std::string> assumed;
    if (const Site* site = o.decided_at ? nullptr : VerdictSite(o, before, now)) {
      where = Diagnostic{site->path, site->line, site->column, Severity::kError, ""};
      why = fmt::format("its site is {}: {}", site->LivenessShown(""), site->LivenessReason());
      assumed = site->liveness->assumptions;
    }
    std::string resting;
    for (const std::string& a : assumed) resting += (resting.empty() ? ", resting on " : "; ") + a;
    // A patch made with --include-dead rewrites dead sites: checked without
    // the flag, each reads as this flip.
    // (A patch that says so on its first line is verified with the flag.)
    std::string flag = before == "rewrites" && now == "dead" && !in.opts.include_dead &&
                               !in.patch.preamble.include_dead
                           ? "; a patch made with --include-dead is verified with it too"
                           : "";
    where.message =
        fmt::format("drift: rule '{}' was '{}' when {} was made and is '{}' now{}{}{}", o.rule_id,
                    before, in.patch.path, now, resting, why.empty() ? "" : " (" + why + ")", flag);
    r.findings.push_back({"state", Next(where, in.next.refresh), {}, o.rule_id, assumed});
  }
  if (!r.findings.empty()) {
    r.drift = true;
    r.summary = fmt::format("{} was made while rules were in another state; next: {}",
                            in.patch.path, in.next.refresh);
  }
  return r;
}

CheckResult CheckLeftSites(const VerifyInput& in) {
  CheckResult r;
  if (in.patch.path.empty()) return r;
  // A patch of an older muhpatch records none: its sites left alone are
  // unwatched, which is said (a helper probe of 68f0163).
  // A rule dead, skipped or at its value leaves every site alone, so a
  // patch that records none of theirs is an older muhpatch's; a patch whose
  // rules all rewrote may have had nothing to record.
  bool leaves_sites = std::any_of(
      in.patch.preamble.statuses.begin(), in.patch.preamble.statuses.end(), [](const auto& s) {
        return s.second == "dead" || s.second == "skipped" || s.second == "at value";
      });
  // A patch without a preamble (`git diff`, `format-patch`) records no
  // state at all: said alike.
  if (in.patch.preamble.statuses.empty() && !LeftSites(in.plan).empty()) {
    r.findings.push_back(
        {"left-edited",
         Next(Diagnostic{in.patch.path, 1, 1, Severity::kNote,
                         "the patch has no muhpatch preamble (not written by `muhpatch diff`): "
                         "it records no site it leaves alone, and a hand edit there since is "
                         "not seen; make it with `muhpatch diff` to record them"},
              in.next.refresh),
         {},
         ""});
  }
  if (in.patch.preamble.left.empty() && leaves_sites && !LeftSites(in.plan).empty()) {
    r.findings.push_back(
        {"left-edited",
         Next(Diagnostic{in.patch.path, 1, 1, Severity::kNote,
                         "the patch records no site it leaves alone (made before muhpatch "
                         "recorded them): a hand edit there since is not seen; make it again "
                         "to record them"},
              in.next.refresh),
         {},
         ""});
  }
  // A patch that records left sites, with a dead or at-value rule's line
  // recording none while the rule has sites now: its record
  // was cut (a helper probe of 2893764: `; left:` stripped from one line,
  // and a dead site edited since passed).
  if (!in.patch.preamble.left.empty()) {
    const std::vector<LeftRecord> now = LeftSites(in.plan);
    for (const auto& [id, status] : in.patch.preamble.statuses) {
      // (A skipped rule may have matched nothing when the patch was made.)
      if (status != "dead" && status != "at value") continue;
      const std::string& rule_id = id;  // a lambda may not capture a structured binding
      auto of_rule = [&rule_id](const LeftRecord& rec) { return rec.rule_id == rule_id; };
      if (std::any_of(in.patch.preamble.left.begin(), in.patch.preamble.left.end(), of_rule) ||
          std::none_of(now.begin(), now.end(), of_rule)) {
        continue;
      }
      r.findings.push_back(
          {"left-edited",
           Next(Diagnostic{in.patch.path, 1, 1, Severity::kError,
                           fmt::format("drift: the preamble's line for rule '{}' ({}) records "
                                       "no site it leaves alone, as muhpatch writes it: the "
                                       "record was cut, and a hand edit there is not seen",
                                       rule_id, status)},
                in.next.refresh),
           {},
           rule_id});
    }
  }
  for (const LeftRecord& rec : in.patch.preamble.left) {
    const RuleOutcome* o = in.plan.Find(rec.rule_id);
    // A rule gone or failing now: the state and plan checks say so.
    if (o == nullptr || o->status == RuleStatus::kFailed || rec.index < 0) continue;
    if (static_cast<std::size_t>(rec.index) >= o->found.size()) {
      // The site is gone. A rule that must find its sites fails for it (the
      // plan check); a skipped one does not, and its record alone says that
      // its site was deleted or no longer matches (a helper probe of
      // e2916b3: `use_v1 = True` deleted under a skipped rule passed).
      if (in.plan.FirstError(rec.rule_id) != nullptr) continue;
      std::string msg = fmt::format(
          "drift: rule '{}' left a site alone here when {} was made, and finds {} now: it was "
          "deleted, or edited so that the rule's query no longer matches it",
          o->rule_id, in.patch.path,
          o->found.empty() ? "no site" : "only " + Counted(o->found.size(), "site"));
      r.findings.push_back(
          {"left-edited",
           Next(Diagnostic{rec.path, rec.line, 1, Severity::kError, msg}, in.next.refresh),
           {},
           o->rule_id});
      continue;
    }
    const Site& site = o->found[static_cast<std::size_t>(rec.index)];
    if (ValueFingerprint(site.current) == rec.fingerprint) continue;
    std::string msg = fmt::format(
        "drift: rule '{}' left this site alone when {} was made ({}:{}, {}), and its value is "
        "'{}' now: it was edited since",
        o->rule_id, in.patch.path, rec.path, rec.line,
        site.liveness ? site.LivenessShown("") : RuleStatusName(o->status), Shown(site.current));
    r.findings.push_back({"left-edited",
                          Next(Diagnostic{site.path, site.line, site.column, Severity::kError, msg},
                               in.next.refresh),
                          {},
                          o->rule_id});
  }
  if (std::any_of(r.findings.begin(), r.findings.end(),
                  [](const Finding& f) { return f.where.severity == Severity::kError; })) {
    r.drift = true;
    r.summary = fmt::format("a value {} left alone was edited since it was made; next: {}",
                            in.patch.path, in.next.refresh);
  }
  return r;
}

CheckResult CheckCommittedPatch(const VerifyInput& in) {
  // Renames, mode changes, new or deleted files: muhpatch writes none.
  std::vector<Finding> other;
  for (const FilePatch& fp : in.patch.files) {
    std::string what = fp.OtherChange();
    if (what.empty()) continue;
    std::string msg = fmt::format("drift: for {}, the patch {}: muhpatch never makes such a change",
                                  fp.path, what);
    other.push_back(
        {"patch-change", Next(MakeError(in.patch.path, fp.line, 1, msg), in.next.refresh), {}, ""});
  }
  if (!other.empty()) {
    CheckResult r = Drift(fmt::format("{} makes a change muhpatch never makes; next: {}",
                                      in.patch.path, in.next.refresh));
    r.findings = std::move(other);
    return r;
  }
  std::vector<Finding> unreadable;
  for (const FilePatch& fp : in.patch.files) {
    std::string ignored;
    Diagnostic derr;
    if (in.workspace.files.count(fp.path) == 0 &&
        !in.workspace.tree.Read(fp.path, &ignored, &derr)) {
      unreadable.push_back({"patch-file", Next(derr, in.next.refresh), {}, ""});
    }
  }
  if (!unreadable.empty()) {
    CheckResult r = Drift(fmt::format("{} names a file the tree does not have; next: {}",
                                      in.patch.path, in.next.refresh));
    r.findings = std::move(unreadable);
    return r;
  }
  // Hunks in files no rule reads: no patch made again keeps them.
  std::vector<Finding> foreign;
  // Under --rule the other rules' files count as no rule's: not asked then.
  for (Diagnostic& d : in.opts.inputs.only_rules.empty()
                           ? ForeignHunks(in.inputs.rules, in.patch.path, in.patch.files)
                           : std::vector<Diagnostic>{}) {
    d.message = "drift: " + d.message;
    foreign.push_back({"patch-change", d, {}, ""});
  }
  if (!foreign.empty()) {
    CheckResult r = Drift(fmt::format(
        "{} holds a change muhpatch did not make (each hunk above): take it out of the patch, "
        "then verify again",
        in.patch.path));
    r.findings = std::move(foreign);
    return r;
  }
  const std::string stale = fmt::format(
      "{} is stale: the rules, the model or the tree changed, and the patch they produce now "
      "differs (each rule's line above; -v prints committed -> regenerated on stdout); next: {}",
      in.patch.path, in.next.refresh);
  auto stale_finding = [&in, &stale]() {
    return Finding{"stale", MakeError(in.patch.path, 0, 0, "drift: " + stale), {}, ""};
  };
  // A pristine tree: the patch applies as git applies it, offsets allowed,
  // and its edits are the rules' (the same files result).
  std::vector<Miss> forward_misses;
  std::map<std::string, std::string> forward = ApplyCommitted(in, false, &forward_misses);
  if (forward_misses.empty()) {
    if (SameTree(in, forward, in.plan.new_contents)) {
      return Clean(fmt::format("{} matches the rules ({})", in.patch.path, PlanSummary(in.plan)));
    }
    if (!in.plan.new_contents.empty()) {
      // It applies but makes other edits: the rules or the model moved.
      CheckResult r = Drift(stale, UnifiedDiff(in.patch.path, in.patch.text, in.regenerated));
      r.findings = StaleFindings(in, StaleEdits(in.plan, in.workspace.files, in.patch.files,
                                                forward, in.plan.new_contents));
      r.findings.push_back(stale_finding());
      return r;
    }
  }
  // Otherwise the tree should be patched: undoing the committed patch must
  // give a tree for which the rules make that very change.
  std::vector<Miss> backward_misses;
  std::map<std::string, std::string> backward = ApplyCommitted(in, true, &backward_misses);
  if (!backward_misses.empty()) {
    // Neither way: git would refuse the patch. Every hunk it refuses, in
    // the direction with fewer.
    bool reverse = !forward_misses.empty() && backward_misses.size() < forward_misses.size();
    std::size_t n = reverse ? backward_misses.size() : forward_misses.size();
    // A patched tree: `apply` writes the sites back (a value edited since
    // the patch), or the patch must be made again from the tree without it.
    const bool unpatched_needed = reverse && !in.carries_patch && in.plan.new_contents.empty();
    // A tree that holds part of the patch, and not as a patched tree with
    // values kept by hand (carries_patch: the refresh from its pre-image
    // keeps them): a refresh from it would drop the rest; writing the
    // sites again (apply) does not touch the patch.
    const bool partly = !reverse && !in.carries_patch &&
                        std::any_of(forward_misses.begin(), forward_misses.end(),
                                    [](const Miss& x) { return PartlyApplied(x); });
    std::string next = partly ? (in.plan.new_contents.empty() ? in.next.status : in.next.apply)
                       : !reverse || in.carries_patch  ? in.next.refresh
                       : !in.plan.new_contents.empty() ? in.next.apply
                                                       : in.next.status;
    CheckResult r = Drift(fmt::format(
        "{} is stale: {} no longer appl{} to {}{}, as git apply would refuse {}{}; next: {}",
        in.patch.path, Counted(n, "hunk"), n == 1 ? "ies" : "y", in.opts.tree_path,
        reverse ? " (in reverse)" : "", n == 1 ? "it" : "them",
        partly ? "; the tree holds part of the patch, and a patch made from it would drop the "
                 "rest"
        : unpatched_needed
            ? "; make it again (`muhpatch diff -o` it) from the tree without the patch: a "
              "patch made from this tree would drop what it holds"
            : "",
        next));
    r.findings = MissFindings(in, reverse ? backward_misses : forward_misses, reverse, next);
    // A patched tree, or one holding part of the patch: also name the sites
    // whose values moved since; a pristine one: the sites someone tuned by
    // hand.
    AddSites(in, &r.findings, /*only_hand_edited=*/!reverse && !partly, /*with_kept=*/true,
             partly ? &next : nullptr);
    return r;
  }
  std::map<std::string, SourceText> undone = in.workspace.files;
  for (auto& [path, text] : backward) undone[path] = SourceText(path, text);
  // Undoing a committed patch gives other files: the rules plan them with
  // their own liveness, as diff did when the patch was made.
  PlanResult replan =
      PlanWithLiveness(in.inputs, in.workspace, undone, in.opts.include_dead, &undone);
  // The rules on the undone tree, with the values the tree keeps as tuned by
  // hand (keep_hand_tuned.h), must give the tree as it is.
  KeptPlan kept = KeepHandTuned(undone, replan, in.plan);
  std::map<std::string, std::string> reproduced = kept.new_contents;
  for (const auto& [path, text] : backward) reproduced.emplace(path, text);
  if (!SameTree(in, {}, reproduced)) {
    replan.new_contents = kept.new_contents;
    CheckResult r = Drift(stale, UnifiedDiff(in.patch.path, in.patch.text,
                                             RenderPatch(undone, replan, kept.hand_tuned)));
    std::map<std::string, std::string> as_is;  // the tree, which carries the committed patch
    for (const auto& [path, text] : backward) TreeBytes(in, path, &as_is[path]);
    r.findings = StaleFindings(in, StaleEdits(replan, undone, in.patch.files, as_is, reproduced));
    r.findings.push_back(stale_finding());
    return r;
  }
  if (in.plan.new_contents.empty()) {
    return Clean(fmt::format("{} is applied and the rules reproduce it ({})", in.patch.path,
                             PlanSummary(in.plan)));
  }
  // The patch is applied and still right, but the tree was edited since.
  CheckResult r = Drift(fmt::format(
      "{} is applied, but the tree was edited since at the sites above", in.patch.path));
  AddSites(in, &r.findings);
  return r;
}

}  // namespace muh
