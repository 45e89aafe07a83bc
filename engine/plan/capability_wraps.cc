#include "engine/plan/capability_wraps.h"

#include <fmt/format.h>

#include <optional>

#include "engine/base/one_line.h"
#include "engine/plan/rewritten_sites.h"
#include "engine/rules/finder_value_of.h"

namespace muh {
namespace plan {

namespace {

constexpr std::string_view kTest = "has_device_capability(";

// The capability test `rule` chooses a side of (value-of's condition), or "".
std::string SideOf(const RuleSet& rules, const std::string& id) {
  for (const Rule& r : rules.rules) {
    if (r.id != id) continue;
    auto* value_of = dynamic_cast<const ValueOfFinder*>(r.finder.get());
    if (value_of == nullptr) return "";
    const std::string& c = value_of->question().condition_as_written;
    return c.find(kTest) == std::string::npos ? "" : c;
  }
  return "";
}

// Whether the rule's value is for where its condition holds (`when-true:`).
bool SideIsTrue(const RuleSet& rules, const std::string& id) {
  for (const Rule& r : rules.rules) {
    if (r.id != id) continue;
    if (auto* value_of = dynamic_cast<const ValueOfFinder*>(r.finder.get())) {
      return value_of->question().holds;
    }
  }
  return false;
}

}  // namespace

std::set<std::string> FailCapabilityWraps(const RuleSet& rules, const LivenessAnalysis& analysis,
                                          bool include_dead, PlanResult* plan) {
  std::optional<std::optional<Evidence>> pinned;  // asked once, when a rule needs it
  return FailAtFirstRewrite(
      plan, include_dead, [&](const RuleOutcome& o, const Site& site) -> std::optional<Diagnostic> {
        const std::string side = SideOf(rules, o.rule_id);
        if (side.empty() && site.wanted.find(kTest) == std::string::npos) return std::nullopt;
        if (!pinned) pinned = analysis.CapabilityAnsweredByTree();
        if (!*pinned) return std::nullopt;
        const Evidence& by = **pinned;
        return Diagnostic{
            site.path, site.line, site.column, Severity::kError,
            side.empty()
                ? fmt::format("rule '{}' would write '{}', a compute-capability test the tree "
                              "answers itself: {} ({}:{}); which branch runs on the device is "
                              "not known, so no rewrite",
                              o.rule_id, OneLine(site.wanted, 60), by.what, by.path, by.line)
                : fmt::format("rule '{}' would write '{}' for where `{}` is {}, a test the tree "
                              "answers itself: {} ({}:{}); whether the value runs on the device "
                              "is not known, so no rewrite",
                              o.rule_id, OneLine(site.wanted, 60), side,
                              SideIsTrue(rules, o.rule_id) ? "true" : "false", by.what, by.path,
                              by.line)};
      });
}

}  // namespace plan
}  // namespace muh
