// What every rule's plan reads (internal to engine/plan): the rules, the
// values they resolve names against, the files and their syntax trees, and
// the lines a prior patch wrote (prior_patch.h). The trees are parsed once, up front or as
// rules first ask for them, and the scopes of `files:` lists resolved once;
// neither is a plan's state: a rule's plan depends on none of the others.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/base/source_text.h"
#include "engine/model/value_source.h"
#include "engine/plan/prior_patch.h"
#include "engine/python/syntax_tree.h"
#include "engine/rules/rule.h"

namespace muh {
namespace plan {

using Trees = std::map<std::string, std::unique_ptr<SyntaxTree>>;

// Freeing a tree walks all its nodes: free them on the workers.
void FreeTrees(Trees* trees);

class PlanContext {
 public:
  PlanContext(const RuleSet& rules, const std::map<std::string, SourceText>& files,
              const std::vector<std::string>& tree_paths, const WrittenByMuhpatch& written)
      : rules_(rules), files_(files), tree_paths_(tree_paths), written_(written) {}
  PlanContext(const PlanContext&) = delete;
  PlanContext& operator=(const PlanContext&) = delete;
  ~PlanContext();

  const RuleSet& rules() const { return rules_; }
  const ValueSource& values() const { return *rules_.values; }
  const std::map<std::string, SourceText>& files() const { return files_; }
  const std::vector<std::string>& tree_paths() const { return tree_paths_; }
  const WrittenByMuhpatch& written() const { return written_; }

  // Parses every file now, on the workers, and indexes each for the queries
  // the rules will run there.
  std::size_t ParseAll();  // how many files it parsed
  // Trees already parsed, each borrowing bytes equal to its file's here.
  void UseTrees(Trees trees);
  // The tree of `path`, parsed on first use.
  const SyntaxTree& Tree(const std::string& path);
  // The trees parsed so far; the context keeps none.
  Trees TakeTrees();

  // The files of the tree that `patterns` name (resolved once per list).
  const std::vector<std::string>& Scope(const std::vector<std::string>& patterns) const;
  // A diagnostic at byte `offset` of `path`.
  Diagnostic At(const std::string& path, std::size_t offset, Severity sev, std::string msg) const;

 private:
  const RuleSet& rules_;
  const std::map<std::string, SourceText>& files_;
  const std::vector<std::string>& tree_paths_;
  const WrittenByMuhpatch& written_;
  PythonParser parser_;
  Trees trees_;
  mutable std::map<std::vector<std::string>, std::vector<std::string>> scopes_;
};

}  // namespace plan
}  // namespace muh
