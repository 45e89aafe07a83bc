#include "engine/plan/rebound_constants.h"

#include <fmt/format.h>

#include <optional>
#include <utility>

namespace muh {

namespace {

std::string Where(const Evidence& e) {
  if (e.line <= 0) return fmt::format("{} ({})", e.path, e.what);
  return fmt::format("{}:{} (`{}`)", e.path, e.line, e.what);
}

}  // namespace

std::set<std::string> FailReboundConstants(const LivenessAnalysis& analysis,
                                           const std::map<std::string, SourceText>& files,
                                           PlanResult* plan, bool include_dead) {
  std::set<std::string> failed;
  // Each (file, constant) is asked once: a chain's every tier reads the same.
  std::map<std::pair<std::string, std::string>, std::optional<Evidence>> asked;
  for (RuleOutcome& o : plan->outcomes) {
    if (o.status == RuleStatus::kFailed || ManagesNothing(o.status)) continue;
    for (const Site& site : o.found) {
      if (!include_dead && site.Is(Liveness::kDead)) continue;  // nothing is written there
      const BoundConstant* rebound = nullptr;
      std::optional<Evidence> by;
      for (const BoundConstant& c : site.bound_constants) {
        auto key = std::make_pair(site.path, c.name);
        auto it = asked.find(key);
        if (it == asked.end()) {
          it = asked.emplace(key, analysis.RebindingElsewhere(site.path, c.name)).first;
        }
        if (it->second) {
          rebound = &c;
          by = it->second;
          break;
        }
      }
      if (rebound == nullptr) continue;
      Position p{site.line, site.column};
      auto file = files.find(site.path);
      if (file != files.end()) p = file->second.PositionOf(rebound->bound_at);
      std::string message =
          rebound->site
              ? fmt::format(
                    "rule '{}': the site is the value of the module constant {}, which {} may "
                    "rebind at run time: the kernel need not get the value here, so nothing "
                    "checks what it gets (set it where it is rebound, or read the override "
                    "where it is used)",
                    o.rule_id, rebound->name, Where(*by))
          : rebound->kept
              ? fmt::format(
                    "rule '{}' keeps the hand-tuned value {}, a module constant, which {} may "
                    "rebind at run time: what the kernel gets is not known, so nothing checks "
                    "it (write the value at the site, or read the override where it is used)",
                    o.rule_id, rebound->name, Where(*by))
          : rebound->in_wrap
              ? fmt::format(
                    "rule '{}': the value is shared by both paths and would be wrapped in "
                    "a test of the condition, which reads `{}`; {} may rebind it at run "
                    "time, so the wrap need not test what the function tested: no safe "
                    "rewrite",
                    o.rule_id, rebound->name, Where(*by))
              : fmt::format(
                    "rule '{}': the tier bound reads the module constant {}, which {} may "
                    "rebind at run time: its value here proves nothing, so the tiers are "
                    "not sized for it (make the bound a literal, or read the override "
                    "where the chain is)",
                    o.rule_id, rebound->name, Where(*by));
      plan->diagnostics.push_back(
          Diagnostic{site.path, p.line, p.column, Severity::kError, message, o.rule_id});
      o.status = RuleStatus::kFailed;
      failed.insert(o.rule_id);
      break;
    }
  }
  return failed;
}

}  // namespace muh
