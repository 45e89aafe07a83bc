// Planner's run: parsing the files (all up front, or lazily for the
// idempotence re-plan), planning every rule in order, and the trees it takes
// and hands over; the helpers its other parts share (see rule_planner.h).
#include "engine/plan/rule_planner.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <new>
#include <set>

#include "engine/base/logging.h"
#include "engine/base/parallel.h"
#include "engine/plan/dead_sites.h"
#include "engine/plan/multiplied_sites.h"
#include "engine/rules/scope.h"

namespace muh {
namespace plan {

void FreeTrees(std::map<std::string, std::unique_ptr<SyntaxTree>>* trees) {
  // Runs in destructors: where even the list cannot be had (out of
  // memory), the trees are freed here, one by one.
  std::vector<std::unique_ptr<SyntaxTree>> all;
  try {
    all.reserve(trees->size());
  } catch (const std::bad_alloc&) {
    trees->clear();
    return;
  }
  for (auto& [path, tree] : *trees) {
    if (tree) all.push_back(std::move(tree));
  }
  trees->clear();
  if (all.size() <= 1) return;
  ParallelFor(all.size(), 0, [&](NoWorkerState&, std::size_t i) { all[i].reset(); });
}

Diagnostic Planner::At(const std::string& path, std::size_t offset, Severity sev,
                       std::string msg) const {
  Position p = files_.at(path).PositionOf(offset);
  return Diagnostic{path, p.line, p.column, sev, std::move(msg)};
}

const SyntaxTree* Planner::SyntaxTreeOf(const std::string& path) {
  auto it = syntax_trees_.find(path);
  if (it == syntax_trees_.end()) {
    const SourceText& file = files_.at(path);
    it = syntax_trees_.emplace(path, std::make_unique<SyntaxTree>(parser_.Parse(file.bytes())))
             .first;
  }
  return it->second.get();
}

const std::vector<std::string>& Planner::Scope(const std::vector<std::string>& patterns) const {
  if (auto it = scopes_.find(patterns); it != scopes_.end()) return it->second;
  std::vector<Diagnostic> ignored;  // reported once by FilesNeeded
  std::vector<std::string> paths =
      ResolvePatterns(patterns, {}, tree_paths_, rules_.path, {}, "", &ignored);
  paths.erase(std::remove_if(paths.begin(), paths.end(),
                             [&](const std::string& p) { return files_.count(p) == 0; }),
              paths.end());
  return scopes_.emplace(patterns, std::move(paths)).first->second;
}

std::map<std::string, std::set<const Query*>> Planner::QueriesByPath() const {
  std::map<std::string, std::set<const Query*>> queries;
  for (const Rule& rule : rules_.rules) {
    for (const std::string& path : Scope(rule.files)) {
      queries[path].insert(rule.finder->query().get());
      if (rule.done_when) queries[path].insert(rule.done_when.get());
    }
    for (const Precondition& pre : rule.preconditions) {
      for (const std::string& path : Scope(pre.files)) queries[path].insert(pre.query.get());
    }
  }
  return queries;
}

void Planner::ParseAll() {
  // Parse every file up front, one worker per core; planning then only
  // looks trees up. Each worker owns its parser. Largest first, so that the
  // workers finish together. The worker that parses a file also builds the
  // node indexes that the queries to be run on it will match from.
  std::vector<const SourceText*> todo;
  for (const auto& [path, file] : files_) todo.push_back(&file);
  std::stable_sort(todo.begin(), todo.end(), [](const SourceText* a, const SourceText* b) {
    return a->bytes().size() > b->bytes().size();
  });
  const std::map<std::string, std::set<const Query*>> queries = QueriesByPath();
  std::vector<std::unique_ptr<SyntaxTree>> parsed(todo.size());
  ParallelFor<PythonParser>(todo.size(), 0, [&](PythonParser& parser, std::size_t i) {
    auto t = std::chrono::steady_clock::now();
    parsed[i] = std::make_unique<SyntaxTree>(parser.Parse(todo[i]->bytes()));
    auto t2 = std::chrono::steady_clock::now();
    if (auto it = queries.find(todo[i]->path()); it != queries.end()) {
      for (const Query* q : it->second) q->IndexFor(*parsed[i]);
    }
    logging::Trace(
        "parsed {} ({} bytes) in {:.2f} ms, indexed in {:.2f} ms", todo[i]->path(),
        todo[i]->bytes().size(), std::chrono::duration<double, std::milli>(t2 - t).count(),
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t2).count());
  });
  for (std::size_t i = 0; i < todo.size(); ++i)
    syntax_trees_[todo[i]->path()] = std::move(parsed[i]);
}

void Planner::Match() {
  auto t0 = std::chrono::steady_clock::now();
  auto ms = [&t0]() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  if (!lazy_) ParseAll();
  logging::Debug("plan: {} files parsed: {:.1f} ms", files_.size(), ms());
  for (const Rule& rule : rules_.rules) {
    const std::size_t first = out_->diagnostics.size();
    try {
      PlanRule(rule);
    } catch (const QueryBudgetExceeded& e) {  // the rule fails, located at its query
      staged_.clear();
      out_->diagnostics.push_back(MakeError(rules_.path, rule.loc.line, rule.loc.column,
                                            fmt::format("rule '{}': {}", rule.id, e.what())));
      out_->outcomes.emplace_back().rule_id = rule.id;  // kFailed
    }
    // What planning the rule reported is about the rule.
    for (std::size_t k = first; k < out_->diagnostics.size(); ++k) {
      if (out_->diagnostics[k].rule_id.empty()) out_->diagnostics[k].rule_id = rule.id;
    }
  }
  logging::Debug("plan: rules matched, edits planned: {:.1f} ms", ms());
}

void Planner::Finish(const PlanLiveness& liveness) {
  auto t0 = std::chrono::steady_clock::now();
  auto ms = [&t0]() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  };
  liveness_ = liveness;
  JudgeSites();
  ApplyAndReparse();
  logging::Debug("plan: sites judged, edits applied and reparsed: {:.1f} ms", ms());
}

void Planner::Run(const PlanLiveness& liveness) {
  Match();
  Finish(liveness);
}

void Planner::JudgeSites() {
  // Liveness first: the gate treats a kept value on a dead site as a note.
  if (liveness_.analysis != nullptr) MarkLiveness(*liveness_.analysis, out_);
  GateKeptValues();
  if (liveness_.analysis == nullptr) return;
  for (const std::string& id : FailMultipliedSites(*liveness_.analysis, files_, out_)) Fail(id);
  if (!liveness_.include_dead) LeaveDeadSitesAlone(&edit_sets_, out_);
}

void Planner::UseTrees(std::map<std::string, std::unique_ptr<SyntaxTree>> trees) {
  for (auto& [path, tree] : trees) {
    if (files_.count(path) != 0) syntax_trees_[path] = std::move(tree);
  }
  FreeTrees(&trees);
}

std::map<std::string, std::unique_ptr<SyntaxTree>> Planner::TakeTreesAfter() {
  std::map<std::string, std::unique_ptr<SyntaxTree>> out = std::move(syntax_trees_);
  syntax_trees_.clear();
  for (auto& [path, tree] : rewritten_trees_) std::swap(out[path], tree);
  FreeTrees(&rewritten_trees_);  // now the trees of the files as they were
  return out;
}

Planner::~Planner() {
  FreeTrees(&syntax_trees_);
  FreeTrees(&rewritten_trees_);
}

}  // namespace plan
}  // namespace muh
