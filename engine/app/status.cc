#include "engine/app/status.h"

#include <fmt/format.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "engine/base/one_line.h"
#include "engine/base/source_text.h"

namespace muh {

namespace {

// Occurrences of `what` on lines that are not comments.
std::size_t Count(std::string_view text, std::string_view what) {
  std::size_t n = 0;
  while (!text.empty()) {
    std::size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    std::size_t first = line.find_first_not_of(" \t");
    if (first != std::string_view::npos && line[first] != '#') {
      for (std::size_t at = line.find(what); at != std::string_view::npos;
           at = line.find(what, at + what.size())) {
        ++n;
      }
    }
    if (nl == std::string_view::npos) break;
    text.remove_prefix(nl + 1);
  }
  return n;
}

// Why a skipped rule is skipped: its note's words, with the place that
// decided it when that is in the tree (the site that blocked a precondition).
std::string SkipReason(const RuleSet& rules, const PlanResult& plan, const RuleOutcome& o) {
  std::string reason = ReasonWithoutRule(o);
  for (const Diagnostic& d : plan.diagnostics) {
    if (d.message != o.reason || d.file.empty() || d.file == rules.path || d.line <= 0) continue;
    return fmt::format("{} ({}:{})", reason, d.file, d.line);
  }
  return reason;
}

StatusRow RowAt(const std::string& rule_id, const Diagnostic& where) {
  StatusRow row;
  row.rule_id = rule_id;
  if (where.line > 0) {
    row.path = where.file;
    row.line = where.line;
  }
  return row;
}

}  // namespace

std::vector<StatusRow> StatusRows(const RuleSet& rules, const PlanResult& plan) {
  std::vector<StatusRow> rows;
  for (const Rule& rule : rules.rules) {
    const RuleOutcome* o = plan.Find(rule.id);
    if (o == nullptr) continue;
    if (o->status == RuleStatus::kFailed || (o->found.empty())) {
      const Diagnostic* err = plan.FirstError(rule.id);
      Diagnostic where = err != nullptr ? *err : o->decided_at.value_or(Diagnostic{});
      if (where.file == rules.path) where = Diagnostic{};
      StatusRow row = RowAt(rule.id, where);
      row.state = o->status == RuleStatus::kFailed ? "failing" : RuleStatusName(o->status);
      row.reason = err != nullptr ? err->message : ReasonWithoutRule(*o);
      rows.push_back(row);
      continue;
    }
    for (const Site& site : o->found) {
      StatusRow row;
      row.rule_id = rule.id;
      row.path = site.path;
      row.line = site.line;
      if (rule.action == ActionKind::kAppendEntries) {
        std::size_t have = Count(site.current, "Config(");
        std::size_t add = 0;
        auto edits = plan.edits.find(site.path);
        if (edits != plan.edits.end()) {
          for (const Edit& e : edits->second) {
            if (e.rule_id == rule.id) add += Count(e.text, "Config(");
          }
        }
        row.now = fmt::format("{} entries", have);
        row.model = add == 0 ? row.now : fmt::format("+{} entries", add);
      } else if (site.deletes) {
        row.now = "(line present)";
        row.model = "(line deleted)";
      } else {
        row.now = OneLine(site.current, 40);
        row.model = OneLine(site.wanted, 40);
      }
      bool rewrites = false;
      auto edits = plan.edits.find(site.path);
      if (edits != plan.edits.end()) {
        for (const Edit& e : edits->second) {
          rewrites = rewrites || (e.rule_id == rule.id && e.offset <= site.end &&
                                  site.begin <= e.offset + e.length);
        }
      }
      switch (o->status) {
        case RuleStatus::kNoValue:
          row.state = "no value";
          row.model = "-";
          row.reason = ReasonWithoutRule(*o);
          break;
        case RuleStatus::kSkipped:
          row.state = "skipped";
          row.model = "-";
          row.reason = SkipReason(rules, plan, *o);
          break;
        default:
          row.state = rewrites ? "will rewrite" : "at value";
          if (site.kept) {
            row.state = "hand-tuned";
            row.reason = fmt::format(
                "kept: neither upstream's '{}' nor the rule's (--retune "
                "overwrites it)",
                OneLine(site.upstream, 40));
          } else if (site.hand_tuned) {
            row.reason = "hand-tuned: neither upstream's value nor the model's (--retune)";
          }
          if (!site.pin_reason.empty() && row.reason.empty()) {
            row.reason = fmt::format("pinned: {} (the model's own: {})", site.pin_reason,
                                     OneLine(site.model, 40));
          }
          if (site.Is(Liveness::kDead) && !rewrites && !site.kept) row.state = "dead";
          break;
      }
      row.liveness = site.LivenessShown("");
      if (site.liveness) row.assumptions = site.liveness->assumptions;
      // A skipped rule's reason is its precondition, whatever the site's liveness.
      if (site.liveness && !site.Is(Liveness::kLive) && !site.kept &&
          o->status != RuleStatus::kSkipped) {
        row.reason = site.LivenessReason();
      }
      rows.push_back(row);
    }
  }
  return rows;
}

std::string FormatStatus(const std::vector<StatusRow>& rows, const std::string& format,
                         const std::vector<Assumption>& assumptions) {
  auto site = [](const StatusRow& r) {
    return r.path.empty() ? std::string("-") : fmt::format("{}:{}", r.path, r.line);
  };
  if (format == "json") {
    nlohmann::ordered_json j = nlohmann::json::array();
    for (const StatusRow& r : rows) {
      j.push_back({{"rule", r.rule_id},
                   {"file", EscapeInvalidUtf8(r.path)},
                   {"line", r.line},
                   {"now", EscapeInvalidUtf8(r.now)},
                   {"model", EscapeInvalidUtf8(r.model)},
                   {"state", r.state},
                   {"liveness", r.liveness},
                   {"reason", EscapeInvalidUtf8(r.reason)},
                   {"assumptions", r.assumptions}});
    }
    return j.dump(2) + "\n";
  }
  if (format == "markdown") {
    auto cell = [](std::string s) {
      std::string out;
      for (char c : s) {
        if (c == '|')
          out += "\\|";
        else if (c == '`')
          out += "'";
        else
          out += c;
      }
      return out;
    };
    std::string out =
        "| rule | site | now | model | runs | state | why |\n|---|---|---|---|---|---|---|\n";
    for (const StatusRow& r : rows) {
      out += fmt::format("| `{}` | `{}` | `{}` | `{}` | {} | {} | {} |\n", r.rule_id, site(r),
                         cell(r.now), cell(r.model), r.liveness.empty() ? "-" : r.liveness, r.state,
                         cell(r.reason));
    }
    if (!assumptions.empty()) {
      out += "\nAssumed:";
      for (const Assumption& a : assumptions) out += (&a == &assumptions[0] ? " " : "; ") + a.text;
      out += "\n";
    }
    return out;
  }
  std::vector<std::string> head = {"RULE", "SITE", "NOW", "MODEL", "RUNS", "STATE"};
  std::vector<std::size_t> width(head.size());
  for (std::size_t k = 0; k < head.size(); ++k) width[k] = head[k].size();
  for (const StatusRow& r : rows) {
    std::vector<std::string> cells = {
        r.rule_id, site(r), r.now, r.model, r.liveness.empty() ? "-" : r.liveness, r.state};
    for (std::size_t k = 0; k < cells.size(); ++k) width[k] = std::max(width[k], cells[k].size());
  }
  auto line = [&](const std::vector<std::string>& cells, const std::string& reason) {
    std::string out;
    for (std::size_t k = 0; k < cells.size(); ++k) {
      out += cells[k];
      if (k + 1 < cells.size()) out += std::string(width[k] - cells[k].size() + 2, ' ');
    }
    if (!reason.empty()) out += ": " + reason;
    return out + "\n";
  };
  std::string out = line(head, "");
  for (const StatusRow& r : rows) {
    out += line({r.rule_id, site(r), r.now.empty() ? "-" : r.now, r.model.empty() ? "-" : r.model,
                 r.liveness.empty() ? "-" : r.liveness, r.state},
                r.reason);
  }
  if (!assumptions.empty()) out += "assumptions in force:\n";
  for (const Assumption& a : assumptions) out += "  " + a.text + "\n";
  return out;
}

}  // namespace muh
