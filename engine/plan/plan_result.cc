#include "engine/plan/plan_result.h"

#include <fmt/format.h>

#include "engine/base/plural.h"
#include "engine/plan/plan_counts.h"

namespace muh {

bool ManagesNothing(RuleStatus s) { return s == RuleStatus::kSkipped || s == RuleStatus::kNoValue; }

const char* RuleStatusName(RuleStatus s) {
  switch (s) {
    case RuleStatus::kRewrites:
      return "rewrites";
    case RuleStatus::kAlreadyApplied:
      return "at value";
    case RuleStatus::kSkipped:
      return "skipped";
    case RuleStatus::kNoValue:
      return "no value";
    case RuleStatus::kFailed:
      return "failed";
    case RuleStatus::kDead:
      return "dead";
    case RuleStatus::kHandTuned:
      return "hand-tuned";
    case RuleStatus::kRetired:
      return "retired";
  }
  return "failed";
}

namespace {

constexpr RuleStatus kAllStatuses[] = {RuleStatus::kRewrites,  RuleStatus::kAlreadyApplied,
                                       RuleStatus::kSkipped,   RuleStatus::kNoValue,
                                       RuleStatus::kFailed,    RuleStatus::kDead,
                                       RuleStatus::kHandTuned, RuleStatus::kRetired};

}  // namespace

bool IsRuleStatusName(std::string_view name) {
  for (RuleStatus s : kAllStatuses) {
    if (name == RuleStatusName(s)) return true;
  }
  return false;
}

std::string RuleStatusNames() {
  std::string out;
  for (RuleStatus s : kAllStatuses)
    out += (out.empty() ? "" : ", ") + std::string(RuleStatusName(s));
  return out;
}

const std::string& Site::LivenessReason() const {
  static const std::string kNone;
  return liveness ? liveness->reason : kNone;
}

bool PlanResult::AnyFailed() const {
  for (const RuleOutcome& o : outcomes) {
    if (o.status == RuleStatus::kFailed) return true;
  }
  return false;
}

const RuleOutcome* PlanResult::Find(const std::string& rule_id) const {
  for (const RuleOutcome& o : outcomes) {
    if (o.rule_id == rule_id) return &o;
  }
  return nullptr;
}

const Diagnostic* PlanResult::FirstError(const std::string& rule_id) const {
  for (const Diagnostic& d : diagnostics) {
    if (d.severity == Severity::kError && d.rule_id == rule_id) return &d;
  }
  return nullptr;
}

std::string ReasonWithoutRule(const RuleOutcome& o) {
  std::string reason = o.reason;
  for (const char* what : {"skipped", "retired"}) {
    const std::string head = "rule '" + o.rule_id + "' " + what + ": ";
    if (reason.rfind(head, 0) == 0) reason.erase(0, head.size());
  }
  return reason;
}

std::string PlanSummary(const PlanResult& plan) {
  const PlanCounts c = CountPlan(plan);
  std::string out =
      fmt::format("{}: {} rewrite, {} already at {} value, {} skipped", Counted(c.rules, "rule"),
                  c.rewrite, c.at_value, c.at_value == 1 ? "its" : "their", c.skipped);
  if (c.dead > 0) out += fmt::format(", {} dead", c.dead);
  if (c.kept_sites > 0) out += fmt::format(", {} kept", Counted(c.kept_sites, "hand-tuned site"));
  if (c.no_value > 0) out += fmt::format(", {} without a valid value", c.no_value);
  if (c.retired > 0) out += fmt::format(", {} retired", c.retired);
  if (c.failed > 0) out += fmt::format(", {} failed", c.failed);
  return out;
}

}  // namespace muh
