#include "engine/plan/plan_context.h"

#include <algorithm>
#include <chrono>
#include <new>
#include <set>

#include "engine/base/logging.h"
#include "engine/base/parallel.h"
#include "engine/query/query.h"
#include "engine/rules/finder.h"
#include "engine/rules/scope.h"

namespace muh {
namespace plan {

void FreeTrees(Trees* trees) {
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

PlanContext::~PlanContext() { FreeTrees(&trees_); }

Diagnostic PlanContext::At(const std::string& path, std::size_t offset, Severity sev,
                           std::string msg) const {
  Position p = files_.at(path).PositionOf(offset);
  return Diagnostic{path, p.line, p.column, sev, std::move(msg)};
}

const SyntaxTree& PlanContext::Tree(const std::string& path) {
  auto it = trees_.find(path);
  if (it == trees_.end()) {
    const SourceText& file = files_.at(path);
    it = trees_.emplace(path, std::make_unique<SyntaxTree>(parser_.Parse(file.bytes()))).first;
  }
  return *it->second;
}

const std::vector<std::string>& PlanContext::Scope(const std::vector<std::string>& patterns) const {
  if (auto it = scopes_.find(patterns); it != scopes_.end()) return it->second;
  std::vector<Diagnostic> ignored;  // reported once by FilesNeeded
  std::vector<std::string> paths =
      ResolvePatterns(patterns, {}, tree_paths_, rules_.path, {}, "", &ignored);
  paths.erase(std::remove_if(paths.begin(), paths.end(),
                             [&](const std::string& p) { return files_.count(p) == 0; }),
              paths.end());
  return scopes_.emplace(patterns, std::move(paths)).first->second;
}

std::size_t PlanContext::ParseAll() {
  // Parse every file up front, one worker per core; planning then only
  // looks trees up. Each worker owns its parser. Largest first, so that the
  // workers finish together. The worker that parses a file also builds the
  // node indexes that the queries to be run on it will match from: by path,
  // every query the plan runs there (rules, preconditions, `done-when`), a
  // query shared by several rules once.
  std::map<std::string, std::set<const SiteQuery*>> queries;
  for (const Rule& rule : rules_.rules) {
    for (const std::string& path : Scope(rule.files)) {
      queries[path].insert(rule.finder->query().get());
      if (rule.done_when) queries[path].insert(rule.done_when.get());
    }
    for (const Precondition& pre : rule.preconditions) {
      for (const std::string& path : Scope(pre.files)) queries[path].insert(pre.query.get());
    }
  }
  // A file only a precondition reads, lacking every literal its queries
  // need (a tree-wide `absent:` over vllm/**), is never parsed: CheckPreconditions
  // skips it the same way (Query::MayMatchBytes). One no rule reads at all
  // is parsed when something asks for its tree.
  std::set<std::string> ruled;
  for (const Rule& rule : rules_.rules) {
    for (const std::string& path : Scope(rule.files)) ruled.insert(path);
  }
  std::set<std::string> precondition_may_match;
  for (const Rule& rule : rules_.rules) {
    for (const Precondition& pre : rule.preconditions) {
      for (const std::string& path : Scope(pre.files)) {
        if (ruled.count(path) != 0 || precondition_may_match.count(path) != 0) continue;
        auto f = files_.find(path);
        if (f != files_.end() && pre.query->MayMatchBytes(f->second.bytes())) {
          precondition_may_match.insert(path);
        }
      }
    }
  }
  std::vector<const SourceText*> todo;
  std::size_t skipped = 0;
  for (const auto& [path, file] : files_) {
    // A file no query of this plan reads waits for Tree(), if anything asks.
    bool precondition_only = ruled.count(path) == 0;
    if (precondition_only && precondition_may_match.count(path) == 0) {
      ++skipped;
      continue;
    }
    if (trees_.count(path) == 0) todo.push_back(&file);
  }
  logging::Debug("plan: {} files no rule reads and no precondition may match: not parsed yet",
                 skipped);

  std::stable_sort(todo.begin(), todo.end(), [](const SourceText* a, const SourceText* b) {
    return a->bytes().size() > b->bytes().size();
  });
  std::vector<std::unique_ptr<SyntaxTree>> parsed(todo.size());
  ParallelFor<PythonParser>(todo.size(), 0, [&](PythonParser& parser, std::size_t i) {
    auto t = std::chrono::steady_clock::now();
    parsed[i] = std::make_unique<SyntaxTree>(parser.Parse(todo[i]->bytes()));
    auto t2 = std::chrono::steady_clock::now();
    if (auto it = queries.find(todo[i]->path()); it != queries.end()) {
      for (const SiteQuery* q : it->second) q->IndexFor(*parsed[i]);
    }
    logging::Trace(
        "parsed {} ({} bytes) in {:.2f} ms, indexed in {:.2f} ms", todo[i]->path(),
        todo[i]->bytes().size(), std::chrono::duration<double, std::milli>(t2 - t).count(),
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t2).count());
  });
  for (std::size_t i = 0; i < todo.size(); ++i) trees_[todo[i]->path()] = std::move(parsed[i]);
  return todo.size();
}

void PlanContext::UseTrees(Trees trees) {
  for (auto& [path, tree] : trees) {
    if (files_.count(path) != 0) trees_[path] = std::move(tree);
  }
  FreeTrees(&trees);
}

Trees PlanContext::TakeTrees() {
  Trees out = std::move(trees_);
  trees_.clear();
  return out;
}

}  // namespace plan
}  // namespace muh
