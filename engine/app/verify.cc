#include "engine/app/verify.h"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <iostream>
#include <nlohmann/json.hpp>

#include "engine/app/tree_search.h"
#include "engine/base/exit_codes.h"
#include "engine/patch/patch_apply.h"
#include "engine/patch/unified_diff.h"

namespace muh {

namespace {

struct Finding {
  std::string kind;  // "plan", "site", "foreign", "patch", "input"
  Diagnostic where;
  std::vector<std::string> details;  // derivation lines
};

// Everything verify found, rendered at the end in the chosen format.
class VerifyReport {
 public:
  explicit VerifyReport(const Session* s) : s_(s) {}

  // Tree-relative files are shown under the tree root; kind "patch" and
  // "input" findings name files as the user gave them.
  void Add(const std::string& kind, Diagnostic d, std::vector<std::string> details = {}) {
    if (s_ != nullptr && kind != "patch" && kind != "input") d = s_->Shown(d);
    findings_.push_back({kind, std::move(d), std::move(details)});
  }
  int Finish(const std::string& format, int code, const std::string& status,
             const std::string& patch_diff) const;

 private:
  const Session* s_;
  std::vector<Finding> findings_;
};

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

const char* SeverityWord(Severity s) {
  return s == Severity::kError ? "error" : s == Severity::kWarning ? "warning" : "note";
}

int VerifyReport::Finish(const std::string& format, int code, const std::string& status,
                         const std::string& patch_diff) const {
  const char* verdict = code == kExitClean ? "clean" : code == kExitDrift ? "drift" : "error";
  if (format == "json") {
    nlohmann::ordered_json j;
    j["status"] = verdict;
    j["exit_code"] = code;
    j["message"] = status;
    j["findings"] = nlohmann::json::array();
    for (const Finding& f : findings_) {
      j["findings"].push_back({{"kind", f.kind},
                               {"severity", SeverityWord(f.where.severity)},
                               {"file", f.where.file},
                               {"line", f.where.line},
                               {"column", f.where.column},
                               {"message", f.where.message},
                               {"details", f.details}});
    }
    if (!patch_diff.empty()) j["patch_diff"] = patch_diff;
    std::cout << j.dump(2) << "\n";
    return code;
  }
  auto diag = spdlog::get("diag");
  for (const Finding& f : findings_) {
    if (format == "github") {
      const char* level = f.where.severity == Severity::kError ? "error" : "notice";
      std::string props = "file=" + f.where.file;
      if (f.where.line > 0) props += fmt::format(",line={}", f.where.line);
      if (f.where.column > 0) props += fmt::format(",col={}", f.where.column);
      // Workflow commands end at a newline; %0A carries the details.
      std::string msg = f.where.message;
      for (const std::string& d : f.details) msg += "%0A" + d;
      std::cout << fmt::format("::{} {}::{}\n", level, props, msg);
      continue;
    }
    diag->info(f.where.Format());
    for (const std::string& d : f.details) diag->info("    {}", d);
  }
  if (format != "github" && !patch_diff.empty()) std::cout << patch_diff;
  std::string last = fmt::format("verify: {}: {}", verdict, status);
  if (code == kExitBadInput && format == "text") return code;  // the errors say it all
  if (code == kExitClean) {
    std::cout << last << "\n";
  } else {
    diag->info(last);
  }
  return code;
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
void AddSites(const Session& s, VerifyReport* report) {
  for (const auto& [path, edits] : s.plan.edits) {
    const SourceText& file = s.files.at(path);
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
      report->Add("site", Diagnostic{path, p.line, p.column, Severity::kError, msg}, Lines(e.why));
    }
  }
}

}  // namespace

int RunVerify(const CommandOptions& opts) {
  const std::string& fmt_name = opts.format;
  Session s;
  // Whole-tree search: a knob that moved or was copied outside its rule's
  // files is drift even when its old site still looks fine. It needs no
  // plan, so it runs while the plan is made.
  SearchStats stats;
  std::vector<ForeignMatch> foreign;
  OpenSession(opts.session, &s, [&](const Session& loaded) {
    foreign = SearchOutsideScope(
        loaded.rules, loaded.tree_paths,
        [&](const std::string& path, std::string* bytes) {
          Diagnostic ignored;
          return loaded.tree.Read(path, bytes, &ignored);
        },
        opts.threads, &stats);
  });
  VerifyReport report(&s);
  if (!s.loaded) {
    for (const Diagnostic& d : s.load_errors) report.Add("load", d);
    return report.Finish(fmt_name, kExitBadInput, "cannot load the rules or the tree", "");
  }
  // The committed patch is read first: a bad --patch is bad input (exit 2)
  // whatever state the tree is in.
  std::string committed;
  std::vector<FilePatch> patch;
  if (!opts.patch_path.empty()) {
    std::string err;
    if (!ReadWholeFile(opts.patch_path, &committed, &err)) {
      report.Add("input", MakeError(opts.patch_path, 0, 0, err));
      return report.Finish(fmt_name, kExitBadInput, "cannot read the committed patch", "");
    }
    std::vector<Diagnostic> errors;
    if (!ParsePatch(opts.patch_path, committed, &patch, &errors)) {
      for (const Diagnostic& d : errors) report.Add("input", d);
      return report.Finish(fmt_name, kExitBadInput, "the committed patch is malformed", "");
    }
  }
  for (const Diagnostic& d : s.plan.diagnostics) report.Add("plan", d);
  spdlog::debug(
      "whole-tree search: {} files, {} read, {} parsed ({} of them only in the "
      "statements holding the literals; {} bytes parsed)",
      stats.files, stats.read, stats.parsed, stats.partial, stats.parsed_bytes);
  for (const ForeignMatch& m : foreign) {
    report.Add("foreign",
               Diagnostic{m.path, m.line, m.column, Severity::kError,
                          fmt::format("drift: rule '{}' matches here, outside its files: a moved "
                                      "or copied knob (list the path under 'also-matches' if it "
                                      "belongs here)",
                                      m.rule_id)});
  }
  if (!s.plan.ok() || !foreign.empty()) {
    return report.Finish(
        fmt_name, kExitDrift,
        fmt::format("the rules no longer apply cleanly to {}", opts.session.tree_path), "");
  }
  std::string regenerated = RenderDiff(s.files, s.plan.new_contents);
  if (opts.patch_path.empty()) {
    if (regenerated.empty()) {
      return report.Finish(fmt_name, kExitClean,
                           fmt::format("nothing left to change ({})", PlanSummary(s.plan)), "");
    }
    AddSites(s, &report);
    return report.Finish(fmt_name, kExitDrift,
                         fmt::format("{} file{} would change", s.plan.new_contents.size(),
                                     s.plan.new_contents.size() == 1 ? "" : "s"),
                         "");
  }

  if (committed == regenerated) {
    return report.Finish(
        fmt_name, kExitClean,
        fmt::format("{} matches the rules ({})", opts.patch_path, PlanSummary(s.plan)), "");
  }

  // Apply the committed patch to the tree, forwards (a pristine tree) or
  // backwards (a patched one); every file it names must take it exactly.
  std::vector<Diagnostic> unreadable;
  for (const FilePatch& fp : patch) {
    std::string ignored;
    Diagnostic derr;
    if (!s.tree.Read(fp.path, &ignored, &derr)) unreadable.push_back(derr);
  }
  if (!unreadable.empty()) {
    for (const Diagnostic& d : unreadable) report.Add("patch-file", d);
    return report.Finish(fmt_name, kExitDrift,
                         fmt::format("{} names a file the tree does not have", opts.patch_path),
                         "");
  }
  auto apply_all = [&](bool reverse, std::map<std::string, SourceText>* out, Diagnostic* failure) {
    for (const FilePatch& fp : patch) {
      std::string current;
      if (!s.tree.Read(fp.path, &current, failure)) return false;
      std::string result;
      if (!ApplyFilePatch(opts.patch_path, fp, current, reverse, &result, failure)) return false;
      (*out)[fp.path] = SourceText(fp.path, std::move(result));
    }
    return true;
  };
  std::string stale = fmt::format(
      "{} is stale: the rules, the model or the tree changed, and the patch they produce now "
      "differs (committed -> regenerated, on stdout)",
      opts.patch_path);
  std::map<std::string, SourceText> scratch = s.files;
  Diagnostic forward_failure;
  if (!regenerated.empty() && apply_all(false, &scratch, &forward_failure)) {
    // A pristine tree whose committed patch applies but differs from what the
    // rules produce now: the rules or the model moved.
    return report.Finish(fmt_name, kExitDrift, stale,
                         UnifiedDiff(opts.patch_path, committed, regenerated));
  }
  // Otherwise the tree should be patched: undoing the committed patch must
  // give a tree for which the rules produce that very patch.
  std::map<std::string, SourceText> undone = s.files;
  Diagnostic reverse_failure;
  if (!apply_all(true, &undone, &reverse_failure)) {
    report.Add("patch", regenerated.empty() ? reverse_failure : forward_failure);
    return report.Finish(
        fmt_name, kExitDrift,
        fmt::format("{} no longer applies to {}{}", opts.patch_path, opts.session.tree_path,
                    regenerated.empty() ? " (in reverse)" : ""),
        "");
  }
  PlanResult replan = Plan(s.rules, *s.rules.values, undone, s.tree_paths);
  std::string reproduced = RenderDiff(undone, replan.new_contents);
  if (reproduced != committed) {
    return report.Finish(fmt_name, kExitDrift, stale,
                         UnifiedDiff(opts.patch_path, committed, reproduced));
  }
  if (regenerated.empty()) {
    return report.Finish(fmt_name, kExitClean,
                         fmt::format("{} is applied and the rules reproduce it ({})",
                                     opts.patch_path, PlanSummary(s.plan)),
                         "");
  }
  // The patch is applied and still right, but the tree was edited since.
  AddSites(s, &report);
  return report.Finish(fmt_name, kExitDrift,
                       fmt::format("{} is applied, but the tree was edited since at the sites "
                                   "above",
                                   opts.patch_path),
                       "");
}

}  // namespace muh
