// The one count of a plan that every summary prints (text, JSON, the
// markdown summary): rules by outcome, and their sites by whether they run
// on the served platform. Pure.
#pragma once

#include <cstddef>
#include <string>

#include "engine/plan/plan_result.h"

namespace muh {

// Whether a rule in state `s` is left alone: it changes nothing and did not
// fail (at its value, skipped, without a valid value, dead, or keeping a
// hand-tuned value). PlanCounts::LeftAlone counts these rules.
bool LeftAlone(RuleStatus s);

struct PlanCounts {
  // Rules, by RuleStatus.
  std::size_t rules = 0;
  std::size_t rewrite = 0;
  std::size_t at_value = 0;
  std::size_t skipped = 0;
  std::size_t no_value = 0;
  std::size_t dead = 0;
  std::size_t hand_tuned = 0;
  std::size_t retired = 0;
  std::size_t failed = 0;
  // Every site the rules found, by liveness (no verdict counts as unknown);
  // and the sites holding a hand-tuned value that the plan keeps.
  std::size_t sites = 0;
  std::size_t live_sites = 0;
  std::size_t dead_sites = 0;
  std::size_t unknown_sites = 0;
  std::size_t kept_sites = 0;
  std::size_t left_alone = 0;  // rules left alone (LeftAlone(status))

  std::size_t LeftAlone() const { return left_alone; }
};

PlanCounts CountPlan(const PlanResult& plan);

// "40 sites: 12 live, 20 dead, 8 unknown".
std::string SitesByLiveness(const PlanCounts& counts);

}  // namespace muh
