#include "engine/plan/keep_hand_tuned.h"

#include <algorithm>
#include <tuple>

#include "engine/plan/edit.h"

namespace muh {

namespace {

// The `index`th site of `o` in `path`, or null.
const Site* NthSite(const RuleOutcome& o, const std::string& path, std::size_t index) {
  for (const Site& s : o.found) {
    if (s.path != path) continue;
    if (index == 0) return &s;
    --index;
  }
  return nullptr;
}

// Where a site stands among its rule's sites in its file.
std::size_t IndexInFile(const RuleOutcome& o, const Site& site) {
  std::size_t index = 0;
  for (const Site& s : o.found) {
    if (&s == &site) break;
    if (s.path == site.path) ++index;
  }
  return index;
}

}  // namespace

KeptPlan KeepHandTuned(const std::map<std::string, SourceText>& pre, const PlanResult& pre_plan,
                       const PlanResult& now_plan) {
  KeptPlan out;
  out.new_contents = pre_plan.new_contents;
  std::map<std::string, std::vector<Edit>> edits = pre_plan.edits;
  std::map<std::string, std::vector<std::size_t>> kept_offsets;  // by path
  for (const RuleOutcome& now : now_plan.outcomes) {
    const RuleOutcome* then = pre_plan.Find(now.rule_id);
    if (then == nullptr) continue;
    for (const Site& site : now.found) {
      if (!site.kept) continue;
      const Site* at = NthSite(*then, site.path, IndexInFile(now, site));
      if (at == nullptr || at->current == site.current) continue;
      std::vector<Edit>& file_edits = edits[site.path];
      auto it = std::find_if(file_edits.begin(), file_edits.end(),
                             [&](const Edit& e) { return e.offset == at->begin; });
      if (it != file_edits.end()) {
        it->text = site.current;
      } else {
        Edit e{site.path, at->begin, at->end - at->begin, site.current, now.rule_id, ""};
        file_edits.insert(
            std::upper_bound(file_edits.begin(), file_edits.end(), e,
                             [](const Edit& a, const Edit& b) { return a.offset < b.offset; }),
            e);
      }
      kept_offsets[site.path].push_back(at->begin);
    }
  }
  for (const auto& [path, offsets] : kept_offsets) {
    const std::string& before = pre.at(path).bytes();
    const std::vector<Edit>& file_edits = edits.at(path);
    out.new_contents[path] = ApplyEdits(before, file_edits);
    // Each kept value's line in the new content: the edits before it move it.
    long shift = 0;
    for (const Edit& e : file_edits) {
      if (std::find(offsets.begin(), offsets.end(), e.offset) != offsets.end()) {
        const std::string& after = out.new_contents[path];
        std::size_t at = static_cast<std::size_t>(static_cast<long>(e.offset) + shift);
        int line = 1 + static_cast<int>(std::count(after.begin(), after.begin() + at, '\n'));
        out.hand_tuned.push_back({e.rule_id, path, line});
      }
      shift += static_cast<long>(e.text.size()) - static_cast<long>(e.length);
    }
  }
  std::sort(out.hand_tuned.begin(), out.hand_tuned.end(),
            [](const HandTunedRecord& a, const HandTunedRecord& b) {
              return std::tie(a.rule_id, a.path, a.line) < std::tie(b.rule_id, b.path, b.line);
            });
  return out;
}

}  // namespace muh
