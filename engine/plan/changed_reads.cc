#include "engine/plan/changed_reads.h"

#include <fmt/format.h>

#include "engine/base/one_line.h"
#include "engine/plan/rewritten_sites.h"

namespace muh {
namespace plan {

std::set<std::string> FailChangedReads(const LivenessAnalysis& analysis, bool include_dead,
                                       PlanResult* plan) {
  return FailAtFirstRewrite(
      plan, include_dead, [&](const RuleOutcome& o, const Site& site) -> std::optional<Diagnostic> {
        std::vector<ChangedRead> changed = analysis.ChangedReads(site.path, site.begin, site.end);
        if (changed.empty()) return std::nullopt;
        const ChangedRead& c = changed.front();
        return Diagnostic{
            c.at.path, c.at.line, c.column, Severity::kError,
            fmt::format("rule '{}': the value its site writes ({}:{}, '{}') is read here and "
                        "changed before a call takes it (`{}`): the kernel may not get the value "
                        "the rule writes, and muhpatch cannot say what it gets; no rewrite",
                        o.rule_id, site.path, site.line, OneLine(site.wanted, 40),
                        OneLine(c.expression, 80))};
      });
}

}  // namespace plan
}  // namespace muh
