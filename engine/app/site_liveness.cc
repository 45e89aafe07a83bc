#include "engine/app/site_liveness.h"

#include <fmt/format.h>

#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/base/logging.h"
#include "engine/base/parallel.h"

namespace muh {

LivenessFacts FactsFor(const Inputs& inputs) {
  LivenessFacts facts = inputs.rules.liveness;
  if (facts.markers.empty()) facts.markers = VllmBackendMarkers();
  facts.compute_capability = inputs.model->profile().Get("compute_capability");
  return facts;
}

namespace {

// How the analysis reads the tree `w` opened (with `overlay` over it).
struct TreeReaders {
  ReadFn read;
  WordFilterFn words;
  ForgetFn forget;
};

TreeReaders ReadersOf(const Workspace& w, const std::map<std::string, SourceText>* overlay) {
  // A path the file cache does not hold is read into `unlisted`, kept
  // until the analysis forgets it (or for as long as it may look at it).
  // The analysis and its variants (liveness.h) read and forget a path each
  // in turn: the bytes are counted, and go when the last forgets them.
  auto unlisted = std::make_shared<std::map<std::string, std::pair<std::string, int>>>();
  TreeReaders r;
  r.read = [&w, overlay, unlisted](const std::string& path) -> std::optional<std::string_view> {
    if (overlay != nullptr) {
      auto it = overlay->find(path);
      if (it != overlay->end()) return std::string_view(it->second.bytes());
    }
    auto held = unlisted->find(path);
    if (held != unlisted->end()) {
      ++held->second.second;
      return std::string_view(held->second.first);
    }
    Diagnostic ignored;
    std::string scratch;
    std::optional<std::string_view> bytes =
        w.sources->GetWithin(Workspace::kSourcesKeep, path, &ignored, &scratch);
    if (!bytes || bytes->data() != scratch.data()) return bytes;  // the cache's (or none)
    auto& kept = (*unlisted)[path];
    kept = {std::move(scratch), 1};
    return std::string_view(kept.first);
  };
  // A file the overlay replaces has other words than the cache's.
  r.words = [&w, overlay](const std::string& path, std::string_view text) -> const WordFilter* {
    if (overlay != nullptr && overlay->count(path) != 0) return nullptr;
    return w.words ? w.words->For(path, text) : nullptr;
  };
  r.forget = [unlisted](const std::string& path) {
    auto it = unlisted->find(path);
    if (it != unlisted->end() && --it->second.second <= 0) unlisted->erase(it);
  };
  return r;
}

}  // namespace

LivenessAnalysis AnalyseTree(const Inputs& inputs, const Workspace& w,
                             const std::map<std::string, SourceText>* overlay) {
  TreeReaders r = ReadersOf(w, overlay);
  return LivenessAnalysis::Run(w.tree_paths, r.read, FactsFor(inputs), std::move(r.words),
                               std::move(r.forget), w.statements);
}

std::optional<Evidence> StoredElsewhere(const Inputs& inputs, const Workspace& w,
                                        const std::string& path, const std::string& name) {
  TreeReaders r = ReadersOf(w, nullptr);
  TreeIndex index(w.tree_paths, r.read, FactsFor(inputs), std::move(r.words), std::move(r.forget),
                  w.statements);
  return index.ReboundElsewhere(path, name);
}

PlanResult PlanWithLiveness(const Inputs& inputs, const Workspace& w,
                            const std::map<std::string, SourceText>& files, bool include_dead,
                            const std::map<std::string, SourceText>* overlay,
                            const WrittenByMuhpatch& written, std::vector<Assumption>* assumptions,
                            LivenessNaming naming) {
  std::optional<LivenessAnalysis> analysis;
  BackgroundTask analyse([&] { analysis.emplace(AnalyseTree(inputs, w, overlay)); });
  PlanDraft draft = DraftPlan(inputs.rules, files, w.tree_paths, written);
  analyse.Join();
  if (assumptions != nullptr) *assumptions = analysis->Assumptions();
  // A declaration that resolves nothing is said, never a quiet no-op.
  for (const std::string& at :
       naming.unused_imports ? analysis->UnusedDynamicImports() : std::vector<std::string>{}) {
    logging::Diag(Diagnostic{inputs.rules.path, 0, 0, Severity::kWarning,
                             fmt::format("liveness: dynamic-imports: 'at: {}' names no "
                                         "import_module or __import__ call in code that runs",
                                         at)}
                      .Format());
  }
  return Plan(std::move(draft), {&*analysis, include_dead, naming.assumptions});
}

}  // namespace muh
