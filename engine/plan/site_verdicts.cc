#include "engine/plan/site_verdicts.h"

#include <fmt/format.h>

#include <string>

namespace muh {

namespace {

// The rule that deletes `line` of `path`, or "".
std::string DeletedBy(const PlanResult& plan, const std::string& path, int line) {
  for (const RuleOutcome& o : plan.outcomes) {
    for (const Site& s : o.found) {
      if (s.deletes && s.path == path && s.line == line) return o.rule_id;
    }
  }
  return "";
}

// The reason with its evidence as `file:line` places (the lines' code is
// not repeated: reports and goldens carry places, not the tree's source).
std::string Describe(const SiteLiveness& l) {
  std::string out = l.reason;
  std::string places;
  for (const Evidence& e : l.evidence) {
    places += fmt::format("{}{}:{}", places.empty() ? "" : ", ", e.path, e.line);
  }
  if (!places.empty()) out += " (" + places + ")";
  return out;
}

}  // namespace

void MarkLiveness(const LivenessAnalysis& analysis, PlanResult* plan, bool name_assumptions) {
  for (RuleOutcome& o : plan->outcomes) {
    for (Site& site : o.found) {
      // A value may span both sides of `A if C else B` (NUM_WARPS once
      // patched): it runs if either end of it does.
      SiteLiveness l = analysis.At(site.path, site.begin, name_assumptions);
      std::size_t other = site.current.rfind(" else ");
      if (l.state != Liveness::kLive && site.current.find(" if ") != std::string::npos &&
          other != std::string::npos) {
        std::size_t at = other + 6;
        while (at < site.current.size() && site.current[at] == ' ') ++at;
        SiteLiveness last = analysis.At(site.path, site.begin + at, name_assumptions);
        if (last.state == Liveness::kLive ||
            (last.state == Liveness::kUnknown && l.state == Liveness::kDead)) {
          l = last;
        }
      }
      site.liveness = SiteVerdict{l.state, Describe(l), l.assumptions};
      if (l.state != Liveness::kDead) continue;
      for (const Evidence& e : l.evidence) {
        std::string rule = DeletedBy(*plan, e.path, e.line);
        if (rule.empty() || rule == o.rule_id) continue;
        site.liveness =
            SiteVerdict{Liveness::kLive,
                        fmt::format("live once rule '{}' deletes {}:{}, which overwrites it now",
                                    rule, e.path, e.line),
                        {}};
        break;
      }
    }
  }
}

}  // namespace muh
