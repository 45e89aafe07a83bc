#include "engine/app/site_liveness.h"

#include <fmt/format.h>

#include <optional>

#include "engine/base/parallel.h"

namespace muh {

LivenessFacts FactsFor(const Inputs& inputs) {
  LivenessFacts facts = inputs.rules.liveness;
  if (facts.markers.empty()) facts.markers = VllmBackendMarkers();
  facts.compute_capability = inputs.model->profile().Get("compute_capability");
  return facts;
}

LivenessAnalysis AnalyseTree(const Inputs& inputs, const Workspace& w,
                             const std::map<std::string, SourceText>* overlay) {
  // A path the file cache does not hold is read into `unlisted`, kept
  // until the analysis forgets it (or for as long as it may look at it).
  auto unlisted = std::make_shared<std::map<std::string, std::string>>();
  ReadFn read = [&w, overlay,
                 unlisted](const std::string& path) -> std::optional<std::string_view> {
    if (overlay != nullptr) {
      auto it = overlay->find(path);
      if (it != overlay->end()) return std::string_view(it->second.bytes());
    }
    Diagnostic ignored;
    std::string scratch;
    std::optional<std::string_view> bytes =
        w.sources->GetWithin(Workspace::kSourcesKeep, path, &ignored, &scratch);
    if (!bytes || bytes->data() != scratch.data()) return bytes;  // the cache's (or none)
    return std::string_view((*unlisted)[path] = std::move(scratch));
  };
  // A file the overlay replaces has other words than the cache's.
  WordFilterFn words = [&w, overlay](const std::string& path,
                                     std::string_view text) -> const WordFilter* {
    if (overlay != nullptr && overlay->count(path) != 0) return nullptr;
    return w.words ? w.words->For(path, text) : nullptr;
  };
  ForgetFn forget = [unlisted](const std::string& path) { unlisted->erase(path); };
  return LivenessAnalysis::Run(w.tree_paths, read, FactsFor(inputs), std::move(words),
                               std::move(forget));
}

PlanResult PlanWithLiveness(const Inputs& inputs, const Workspace& w,
                            const std::map<std::string, SourceText>& files, bool include_dead,
                            const std::map<std::string, SourceText>* overlay,
                            const WrittenByMuhpatch& written) {
  std::optional<LivenessAnalysis> analysis;
  BackgroundTask analyse([&] { analysis.emplace(AnalyseTree(inputs, w, overlay)); });
  PlanDraft draft = DraftPlan(inputs.rules, files, w.tree_paths, written);
  analyse.Join();
  return Plan(std::move(draft), {&*analysis, include_dead});
}

}  // namespace muh
