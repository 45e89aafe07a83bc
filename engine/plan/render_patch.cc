#include "engine/plan/render_patch.h"

#include <fmt/format.h>

#include <string_view>

#include "engine/patch/unified_diff.h"

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
  std::string preamble;
  for (const RuleOutcome& o : plan.outcomes) {
    preamble += fmt::format("muhpatch: rule {}: {}{}\n", o.rule_id, RuleStatusName(o.status),
                            HandTunedSuffix(hand_tuned, o.rule_id));
  }
  return preamble + diff;
}

std::map<std::string, std::string> PreambleStatuses(const std::vector<std::string>& preamble) {
  std::map<std::string, std::string> out;
  constexpr std::string_view kHead = "muhpatch: rule ";
  for (const std::string& line : preamble) {
    if (line.rfind(kHead, 0) != 0) continue;
    std::size_t colon = line.find(": ", kHead.size());
    if (colon == std::string::npos) continue;
    std::string status = line.substr(colon + 2);
    if (!status.empty() && status.back() == '\r') status.pop_back();
    out[line.substr(kHead.size(), colon - kHead.size())] = StatusWithoutRecord(status);
  }
  return out;
}

}  // namespace muh
