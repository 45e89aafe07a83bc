#include "engine/app/site_liveness.h"

#include <fmt/format.h>

#include "engine/app/multiplied_sites.h"

namespace muh {

LivenessFacts FactsFor(const Inputs& inputs) {
  LivenessFacts facts = inputs.rules.liveness;
  if (facts.markers.empty()) facts.markers = VllmBackendMarkers();
  facts.compute_capability = inputs.model->profile().Get("compute_capability");
  return facts;
}

LivenessAnalysis AnalyseTree(const Inputs& inputs, const Workspace& w,
                             const std::map<std::string, SourceText>* overlay) {
  // A path the listing did not take is read into `unlisted`, kept here
  // for as long as the analysis may look at it.
  auto unlisted = std::make_shared<std::map<std::string, std::string>>();
  ReadFn read = [&w, overlay, unlisted](const std::string& path) -> const std::string* {
    if (overlay != nullptr) {
      auto it = overlay->find(path);
      if (it != overlay->end()) return &it->second.bytes();
    }
    Diagnostic ignored;
    std::string scratch;
    const std::string* bytes = w.sources->Get(path, &ignored, &scratch);
    if (bytes != &scratch) return bytes;  // the cache's (or nullptr)
    return &((*unlisted)[path] = std::move(scratch));
  };
  // A file the overlay replaces has other words than the cache's.
  WordFilterFn words = [&w, overlay](const std::string& path,
                                     std::string_view text) -> const WordFilter* {
    if (overlay != nullptr && overlay->count(path) != 0) return nullptr;
    return w.words ? w.words->For(path, text) : nullptr;
  };
  return LivenessAnalysis::Run(w.tree_paths, read, FactsFor(inputs), std::move(words));
}

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

void MarkLiveness(const LivenessAnalysis& analysis, PlanResult* plan) {
  for (RuleOutcome& o : plan->outcomes) {
    for (Site& site : o.found) {
      // A value may span both sides of `A if C else B` (NUM_WARPS once
      // patched): it runs if either end of it does.
      SiteLiveness l = analysis.At(site.path, site.begin);
      std::size_t other = site.current.rfind(" else ");
      if (l.state != Liveness::kLive && site.current.find(" if ") != std::string::npos &&
          other != std::string::npos) {
        std::size_t at = other + 6;
        while (at < site.current.size() && site.current[at] == ' ') ++at;
        SiteLiveness last = analysis.At(site.path, site.begin + at);
        if (last.state == Liveness::kLive ||
            (last.state == Liveness::kUnknown && l.state == Liveness::kDead)) {
          l = last;
        }
      }
      site.liveness = LivenessName(l.state);
      site.liveness_reason = Describe(l);
      if (l.state != Liveness::kDead) continue;
      for (const Evidence& e : l.evidence) {
        std::string rule = DeletedBy(*plan, e.path, e.line);
        if (rule.empty() || rule == o.rule_id) continue;
        site.liveness = "live";
        site.liveness_reason = fmt::format(
            "live once rule '{}' deletes {}:{}, which overwrites it now", rule, e.path, e.line);
        break;
      }
    }
  }
}

void ApplyLiveness(const LivenessAnalysis& analysis, const std::map<std::string, SourceText>& files,
                   bool include_dead, PlanResult* plan) {
  MarkLiveness(analysis, plan);
  FailMultipliedSites(analysis, files, plan);
  if (!include_dead) LeaveDeadSitesAlone(plan, files);
}

}  // namespace muh
