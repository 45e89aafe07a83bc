#include "engine/plan/render_patch.h"

#include <fmt/format.h>

#include "engine/patch/unified_diff.h"
#include "engine/plan/left_record.h"

namespace muh {

std::string RenderDiff(const std::map<std::string, SourceText>& files,
                       const std::map<std::string, std::string>& new_contents) {
  std::string diff;
  for (const auto& [path, text] : new_contents) {
    diff += UnifiedDiff(path, files.at(path).bytes(), text);
  }
  return diff;
}

std::string RenderPatch(const std::map<std::string, SourceText>& files, const PlanResult& plan,
                        const std::vector<HandTunedRecord>& hand_tuned) {
  std::string diff = RenderDiff(files, plan.new_contents);
  if (diff.empty()) return diff;
  std::string preamble = plan.include_dead ? std::string(kIncludeDeadLine) + "\n" : "";
  const std::vector<LeftRecord> left = LeftSites(plan);
  for (const RuleOutcome& o : plan.outcomes) {
    preamble += fmt::format("muhpatch: rule {}: {}{}{}\n", o.rule_id, RuleStatusName(o.status),
                            HandTunedSuffix(hand_tuned, o.rule_id), LeftSuffix(left, o.rule_id));
  }
  return preamble + diff;
}

}  // namespace muh
