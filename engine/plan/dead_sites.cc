#include "engine/plan/dead_sites.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "engine/plan/edit.h"

namespace muh {

int LeaveDeadSitesAlone(PlanResult* plan, const std::map<std::string, SourceText>& files) {
  int left = 0;
  std::set<std::string> touched;
  for (RuleOutcome& o : plan->outcomes) {
    if (o.status != RuleStatus::kRewrites && o.status != RuleStatus::kAlreadyApplied &&
        o.status != RuleStatus::kHandTuned) {
      continue;
    }
    int dead = 0;
    for (const Site& site : o.found) {
      if (site.liveness != "dead") continue;
      ++dead;
      auto it = plan->edits.find(site.path);
      if (it == plan->edits.end()) continue;
      std::vector<Edit>& edits = it->second;
      std::size_t before = edits.size();
      edits.erase(std::remove_if(edits.begin(), edits.end(),
                                 [&](const Edit& e) {
                                   return e.rule_id == o.rule_id && e.offset >= site.begin &&
                                          e.offset <= site.end;
                                 }),
                  edits.end());
      if (edits.size() != before) {
        ++left;
        o.edits -= static_cast<int>(before - edits.size());
        touched.insert(site.path);
      }
    }
    if (dead > 0 && dead == static_cast<int>(o.found.size())) {
      o.status = RuleStatus::kDead;
    } else if (o.status == RuleStatus::kRewrites && o.edits <= 0) {
      bool kept = false;
      for (const Site& s : o.found) kept = kept || s.kept;
      o.status = kept ? RuleStatus::kHandTuned : RuleStatus::kAlreadyApplied;
    }
  }
  for (const std::string& path : touched) {
    std::vector<Edit>& edits = plan->edits[path];
    if (edits.empty()) {
      plan->edits.erase(path);
      plan->new_contents.erase(path);
      continue;
    }
    std::string text = ApplyEdits(files.at(path).bytes(), edits);
    if (text == files.at(path).bytes()) {
      plan->edits.erase(path);
      plan->new_contents.erase(path);
    } else {
      plan->new_contents[path] = std::move(text);
    }
  }
  if (left > 0) {
    // About the run, not a file: the same words however the rules are named.
    plan->diagnostics.push_back(MakeNote(
        "", 0, 0,
        fmt::format("{} dead site{} left alone (code that does not run on the served platform; "
                    "`muhpatch status` says why, --include-dead rewrites them)",
                    left, left == 1 ? "" : "s")));
  }
  return left;
}

}  // namespace muh
