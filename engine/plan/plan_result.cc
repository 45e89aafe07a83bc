#include "engine/plan/plan_result.h"

#include <fmt/format.h>

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
  }
  return "failed";
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

std::string PlanSummary(const PlanResult& plan) {
  int rewrites = 0, done = 0, skipped = 0, no_value = 0, failed = 0, dead = 0, kept = 0;
  for (const RuleOutcome& o : plan.outcomes) {
    rewrites += o.status == RuleStatus::kRewrites;
    done += o.status == RuleStatus::kAlreadyApplied;
    skipped += o.status == RuleStatus::kSkipped;
    no_value += o.status == RuleStatus::kNoValue;
    failed += o.status == RuleStatus::kFailed;
    dead += o.status == RuleStatus::kDead;
    for (const Site& s : o.found) kept += s.kept;
  }
  std::string out = fmt::format("{} rules: {} rewrite, {} already at their value, {} skipped",
                                plan.outcomes.size(), rewrites, done, skipped);
  if (dead > 0) out += fmt::format(", {} dead", dead);
  if (kept > 0) {
    out += fmt::format(", {} hand-tuned site{} kept", kept, kept == 1 ? "" : "s");
  }
  if (no_value > 0) out += fmt::format(", {} without a valid value", no_value);
  if (failed > 0) out += fmt::format(", {} failed", failed);
  return out;
}

}  // namespace muh
