// Planner::RuleMatches: a rule's sites in one file, as query matches. A
// `value-of` rule's come from its question (reaching_values.h) instead of
// its query: each value the variable may hold at its use on the rule's
// path, the one capture `@value`; a value shared with the other path also
// carries the condition, so that PlanMatch changes it on this path only
// (see rule_planner.h).
#include <fmt/format.h>

#include "engine/plan/rule_planner.h"
#include "engine/rules/rule_value_of.h"

namespace muh {
namespace plan {

namespace {

// A shared value's extra capture: the condition as the tree writes it,
// named for which way it goes on the rule's path.
constexpr const char* kWhereTrue = "_where_true";
constexpr const char* kWhereFalse = "_where_false";

}  // namespace

std::vector<QueryMatch> Planner::RuleMatches(const Rule& rule, const std::string& path,
                                             RuleOutcome* outcome) {
  if (!rule.value_of) return rule.query->Run(*SyntaxTreeOf(path));
  ReachingValues found = FindReachingValues(*SyntaxTreeOf(path), *rule.value_of);
  if (!found.problem.empty()) {
    if (outcome != nullptr) {
      out_->diagnostics.push_back(At(path, found.problem_at, Severity::kError,
                                     fmt::format("rule '{}': {}", rule.id, found.problem)));
      outcome->status = RuleStatus::kFailed;
      outcome->lost = true;
    }
    return {};
  }
  std::vector<QueryMatch> matches;
  for (const ReachingValue& v : found.values) {
    QueryMatch m;
    m.captures.push_back(Capture{kValueOfTarget, v.begin, v.end, v.text, ""});
    if (v.shared) {
      m.captures.push_back(Capture{found.condition_true ? kWhereTrue : kWhereFalse, v.begin, v.end,
                                   found.condition_text, ""});
    }
    matches.push_back(std::move(m));
  }
  return matches;
}

std::string OnRulePathOnly(const QueryMatch& match, const std::string& kept,
                           const std::string& value) {
  for (bool condition_true : {true, false}) {
    if (const Capture* c = match.Find(condition_true ? kWhereTrue : kWhereFalse))
      return OnThisPath(c->text, condition_true, kept, value);
  }
  return value;
}

}  // namespace plan
}  // namespace muh
