#include "engine/app/outcome_report.h"

#include <fmt/format.h>

#include <algorithm>

#include "engine/base/one_line.h"
#include "engine/base/plural.h"
#include "engine/plan/plan_counts.h"

namespace muh {

namespace {

// Whether `plan` keeps an edit of `rule_id` at `site`.
bool Rewritten(const PlanResult& plan, const std::string& rule_id, const Site& site) {
  auto it = plan.edits.find(site.path);
  if (it == plan.edits.end()) return false;
  return std::any_of(it->second.begin(), it->second.end(), [&](const Edit& e) {
    return e.rule_id == rule_id && e.offset <= site.end && site.begin <= e.offset + e.length;
  });
}

// A warning about a hand-tuned value at a site the plan no longer rewrites
// (dead, left alone): nothing is overwritten, so nothing needs the user.
bool Withdrawn(const PlanResult& plan, const Diagnostic& d) {
  if (d.severity != Severity::kWarning) return false;
  for (const RuleOutcome& o : plan.outcomes) {
    for (const Site& s : o.found) {
      if (s.hand_tuned && s.path == d.file && s.line == d.line && s.column == d.column &&
          !Rewritten(plan, o.rule_id, s)) {
        return true;
      }
    }
  }
  return false;
}

// The note that made `o` skipped, without the words that name the rule.
const Diagnostic* SkipNote(const PlanResult& plan, const RuleOutcome& o) {
  for (const Diagnostic& d : plan.diagnostics) {
    if (d.severity == Severity::kNote && d.message == o.reason) return &d;
  }
  return nullptr;
}

void ListLeftAlone(const PlanResult& plan, const std::string& rules_path, const RuleOutcome& o,
                   std::vector<Diagnostic>* out) {
  auto note = [&](const Site& s, std::string message) {
    out->push_back(MakeNote(s.path, s.line, s.column, std::move(message)));
  };
  if (o.status == RuleStatus::kSkipped || o.status == RuleStatus::kNoValue ||
      o.status == RuleStatus::kRetired) {
    const Diagnostic* why = SkipNote(plan, o);
    if (o.found.empty() || o.status == RuleStatus::kNoValue) {
      // No knob found (or the note is at it already): the note as it was.
      if (why != nullptr) out->push_back(*why);
      return;
    }
    std::string reason = o.reason;
    if (why != nullptr && !why->file.empty() && why->file != rules_path && why->line > 0) {
      reason += fmt::format(" ({}:{})", why->file, why->line);
    }
    for (const Site& s : o.found) note(s, reason);
    return;
  }
  for (const Site& s : o.found) {
    if (Rewritten(plan, o.rule_id, s)) continue;
    if (s.Is(Liveness::kDead) && s.current != s.wanted) {
      note(s, fmt::format("rule '{}' left alone: dead: {} (--include-dead rewrites it)", o.rule_id,
                          s.LivenessReason()));
    } else if (s.Is(Liveness::kDead)) {
      note(s, fmt::format("rule '{}' at its value '{}', and dead: {}", o.rule_id,
                          OneLine(s.current, 40), s.LivenessReason()));
    } else {
      note(s, fmt::format("rule '{}' at its value '{}'", o.rule_id, OneLine(s.current, 40)));
    }
  }
}

}  // namespace

// Whether `d` is the note of a hand-tuned value the plan keeps: that site
// needs the user (keep it, pin it or retune it), so it is never folded away.
static bool AtKeptSite(const PlanResult& plan, const Diagnostic& d) {
  for (const RuleOutcome& o : plan.outcomes) {
    for (const Site& s : o.found) {
      if (s.kept && s.path == d.file && s.line == d.line && s.column == d.column) return true;
    }
  }
  return false;
}

std::string LeftAloneSummary(const PlanResult& plan, bool listed) {
  return LeftAloneSummary(CountPlan(plan), listed);
}

std::string LeftAloneSummary(const PlanCounts& c, bool listed) {
  if (c.LeftAlone() == 0) return "";
  std::string out = fmt::format("{}: {} rewrite", Counted(c.rules, "rule"), c.rewrite);
  if (c.at_value > 0) {
    out += fmt::format(", {} already at {} value", c.at_value, c.at_value == 1 ? "its" : "their");
  }
  if (c.skipped > 0) out += fmt::format(", {} skipped", c.skipped);
  if (c.no_value > 0) out += fmt::format(", {} without a valid value", c.no_value);
  if (c.dead > 0) out += fmt::format(", {} dead", c.dead);
  if (c.hand_tuned > 0) out += fmt::format(", {} keeping a hand-tuned value", c.hand_tuned);
  if (c.retired > 0) out += fmt::format(", {} retired", c.retired);
  if (c.failed > 0) out += fmt::format(", {} failed", c.failed);
  out += "; " + SitesByLiveness(c);
  if (listed) return out + " (`muhpatch status` says why each is left alone)";
  return out +
         fmt::format(" (-v lists the {} left alone; `muhpatch status` says why)", c.LeftAlone());
}

OutcomeReport ReportOutcomes(const PlanResult& plan, const std::string& rules_path, bool listed) {
  OutcomeReport r;
  for (const Diagnostic& d : plan.diagnostics) {
    // Notes (a skip, a missing value, dead sites left alone) are the
    // summary's to count and -v's to list.
    if ((d.severity == Severity::kNote && !AtKeptSite(plan, d)) || Withdrawn(plan, d)) continue;
    r.needs_you.push_back(d);
  }
  for (const RuleOutcome& o : plan.outcomes) {
    if (o.status == RuleStatus::kRewrites) {
      for (const Site& s : o.found) {
        if (!s.Is(Liveness::kUnknown) || !Rewritten(plan, o.rule_id, s)) continue;
        r.needs_you.push_back(MakeNote(
            s.path, s.line, s.column,
            fmt::format("rule '{}' rewrites a site that may not run: cannot tell whether it runs "
                        "on the served platform ({})",
                        o.rule_id, s.LivenessReason())));
      }
    }
    // A rule keeping a hand-tuned value is left alone too (LeftAlone), but
    // its kept sites need the user: their notes are in `needs_you` already.
    if ((LeftAlone(o.status) && o.status != RuleStatus::kHandTuned) ||
        o.status == RuleStatus::kRewrites) {
      ListLeftAlone(plan, rules_path, o, &r.left_alone);
    }
  }
  r.summary = LeftAloneSummary(plan, listed);
  return r;
}

}  // namespace muh
