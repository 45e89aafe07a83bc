#include "engine/app/pr_summary.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <string_view>
#include <vector>

#include "engine/base/one_line.h"
#include "engine/base/plural.h"
#include "engine/base/text.h"
#include "engine/model/facts.h"
#include "engine/patch/unified_diff.h"

namespace muh {

namespace {

struct Hunk {
  int old_start = 0;
  std::string header;  // `@@ -S,C +S,C @@`
};

std::vector<Hunk> Hunks(std::string_view diff) {
  std::vector<Hunk> hunks;
  while (!diff.empty()) {
    std::size_t nl = diff.find('\n');
    std::string_view line = diff.substr(0, nl);
    if (line.substr(0, 4) == "@@ -") {
      Hunk h;
      std::string text(line);
      std::sscanf(text.c_str(), "@@ -%d", &h.old_start);
      std::size_t close = line.find(" @@", 3);
      h.header =
          std::string(line.substr(0, close == std::string_view::npos ? line.size() : close + 3));
      hunks.push_back(h);
    }
    if (nl == std::string_view::npos) break;
    diff.remove_prefix(nl + 1);
  }
  return hunks;
}

// The hunk holding old line `line`: the last one starting at or before it.
std::size_t HunkOf(const std::vector<Hunk>& hunks, int line) {
  std::size_t at = 0;
  for (std::size_t i = 0; i < hunks.size(); ++i) {
    if (hunks[i].old_start <= line) at = i;
  }
  return at;
}

// `text` on one line: blanks folded, '|' escaped for a table cell, at most
// `max` bytes.
// OneLine, with `|` escaped so it stays inside its table cell.
std::string Cell(std::string_view text, std::size_t max = 200) {
  std::string out;
  for (char c : OneLine(text, max)) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

std::string Code(std::string_view text) {
  std::string s = Cell(text, 60);
  for (char& c : s) {
    if (c == '`') c = '\'';
  }
  return "`" + s + "`";
}

std::size_t Lines(std::string_view text) {
  std::size_t n = 0;
  for (char c : text) n += c == '\n';
  return n + (!text.empty() && text.back() != '\n');
}

struct Why {
  std::string derivation;
  std::string confidence;
};

// Reads an edit's derivation text (FormatDerivation's lines): each value's
// `name = value` line with its `decided by:`, and the facts among its inputs
// (`input: NAME = VALUE (CONFIDENCE; source)`), grouped by confidence.
Why Summarize(std::string_view text) {
  static constexpr Confidence kOrder[] = {Confidence::kConflicting, Confidence::kAssumed,
                                          Confidence::kClaimed, Confidence::kVendor,
                                          Confidence::kMeasured};
  std::vector<std::string> parts;
  std::vector<std::vector<std::string>> facts(std::size(kOrder));
  std::string_view why = text;
  while (!why.empty()) {
    std::size_t nl = why.find('\n');
    std::string_view line = why.substr(0, nl);
    std::string_view t = Trim(line);
    if (!line.empty() && line.front() != ' ' && line.find(" = ") != std::string_view::npos) {
      parts.emplace_back(line);
    } else if (t.substr(0, 12) == "decided by: " && !parts.empty()) {
      parts.back() += " (" + std::string(t.substr(12)) + ")";
    } else if (t.substr(0, 7) == "input: ") {
      std::size_t eq = t.find(" = ");
      std::size_t open = t.find(" (");
      if (eq != std::string_view::npos && open != std::string_view::npos) {
        std::string name(t.substr(7, eq - 7));
        std::string_view conf = t.substr(open + 2);
        for (std::size_t k = 0; k < std::size(kOrder); ++k) {
          std::string_view cn = ConfidenceName(kOrder[k]);
          if (conf.substr(0, cn.size()) == cn && conf.size() > cn.size() &&
              (conf[cn.size()] == ';' || conf[cn.size()] == ')')) {
            auto& list = facts[k];
            if (std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
            break;
          }
        }
      }
    }
    if (nl == std::string_view::npos) break;
    why.remove_prefix(nl + 1);
  }
  Why out;
  out.derivation = parts.empty() ? std::string(Trim(text.substr(0, text.find('\n'))))
                                 : fmt::format("{}", fmt::join(parts, "; "));
  std::vector<std::string> groups;
  for (std::size_t k = 0; k < std::size(kOrder); ++k) {
    if (!facts[k].empty()) {
      groups.push_back(fmt::format("{}: {}", ConfidenceName(kOrder[k]), fmt::join(facts[k], ", ")));
    }
  }
  out.confidence = groups.empty() ? "no hardware fact" : fmt::format("{}", fmt::join(groups, "; "));
  return out;
}

std::string Change(const SourceText& file, const Edit& e) {
  std::string_view old_text = std::string_view(file.bytes()).substr(e.offset, e.length);
  if (old_text.empty()) return fmt::format("inserts {} lines: {}", Lines(e.text), Code(e.text));
  if (e.text.empty()) return fmt::format("deletes {}", Code(old_text));
  return Code(old_text) + " → " + Code(e.text);
}

}  // namespace

std::string FormatPrSummary(const std::map<std::string, SourceText>& files,
                            const PlanResult& plan) {
  std::string rows;
  std::size_t edits = 0, changed_files = 0;
  for (const auto& [path, file_edits] : plan.edits) {
    auto now = plan.new_contents.find(path);
    auto file = files.find(path);
    if (now == plan.new_contents.end() || file == files.end() || file_edits.empty()) continue;
    ++changed_files;
    std::vector<Hunk> hunks = Hunks(UnifiedDiff(path, file->second.bytes(), now->second));
    for (const Edit& e : file_edits) {
      ++edits;
      Position p = file->second.PositionOf(e.offset);
      std::string where = fmt::format("`{}:{}`", Cell(path), p.line);
      if (!hunks.empty()) where += " `" + hunks[HunkOf(hunks, p.line)].header + "`";
      Why why = Summarize(e.why);
      rows +=
          fmt::format("| {} | `{}` | {} | {} | {} |\n", where, e.rule_id, Change(file->second, e),
                      Cell(why.derivation, 400), Cell(why.confidence, 400));
    }
  }
  std::string out;
  if (edits == 0) {
    out += fmt::format("### muhpatch: nothing to change\n\n{}\n", PlanSummary(plan));
  } else {
    out += fmt::format("### muhpatch: {} in {}\n\n", Counted(edits, "change"),
                       Counted(changed_files, "file"));
    out += "| hunk | rule | old → new | derivation | facts it rests on |\n";
    out += "|---|---|---|---|---|\n";
    out += rows;
    out += fmt::format("\n{}\n", PlanSummary(plan));
  }
  std::string others;
  for (const RuleOutcome& o : plan.outcomes) {
    if (o.status == RuleStatus::kSkipped || o.status == RuleStatus::kNoValue ||
        o.status == RuleStatus::kRetired) {
      others += fmt::format("- `{}` {}: {}\n", o.rule_id, RuleStatusName(o.status),
                            Cell(ReasonWithoutRule(o)));
    } else if (o.status == RuleStatus::kFailed) {
      // Its first error, where it is; the log has the others.
      const Diagnostic* err = plan.FirstError(o.rule_id);
      std::string why = "see the log";
      if (err != nullptr) {
        why = Cell(err->message, 400);
        if (err->line > 0) {
          why = fmt::format("`{}:{}`: {}", Cell(err->file), err->line, why);
        } else if (!err->file.empty()) {
          why = fmt::format("`{}`: {}", Cell(err->file), why);
        }
      }
      others +=
          fmt::format("- `{}` failed: {}; none of its edits is in the patch\n", o.rule_id, why);
    } else if (o.status == RuleStatus::kDead && !o.found.empty()) {
      // Every site is dead; the first one's reason, and how many there are.
      const Site& s = o.found.front();
      others += fmt::format(
          "- `{}` dead at `{}:{}`{}: {} (--include-dead rewrites it)\n", o.rule_id, Cell(s.path),
          s.line, o.found.size() > 1 ? " and " + Counted(o.found.size() - 1, "more site") : "",
          Cell(s.LivenessReason(), 400));
    }
    for (const Site& s : o.found) {
      if (!s.kept) continue;
      others += fmt::format(
          "- `{}` kept a hand-tuned value at `{}:{}`: `{}` (upstream's `{}`, the rule's `{}`; "
          "--retune overwrites it)\n",
          o.rule_id, Cell(s.path), s.line, Cell(s.current), Cell(s.upstream), Cell(s.wanted));
    }
  }
  if (!others.empty()) out += "\nNot rewritten:\n\n" + others;
  return out;
}

}  // namespace muh
