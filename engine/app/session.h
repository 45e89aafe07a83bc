// One run's inputs, loaded and planned: the rule file, the tree's listing,
// the files in scope and the plan over them. This is where the disk module
// (tree_io) meets the pure core.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/base/source_text.h"
#include "engine/io/tree_io.h"
#include "engine/model/model_values.h"
#include "engine/plan/planner.h"
#include "engine/rules/rule.h"

namespace muh {

struct SessionOptions {
  std::string rules_path;
  std::string tree_path;
  // When non-empty, only these rules run (`--rule ID`, repeatable).
  std::vector<std::string> only_rules;
  std::string hw_path;  // --hw PROFILE.yaml
  // Readers take the tree's shared lock; apply holds the exclusive one itself.
  bool lock_shared = true;
  std::vector<std::string> sets;  // --set FACT=VALUE, in order
};

struct Session;
// Work that needs the loaded session but not its plan (verify's whole-tree
// search); OpenSession runs it on another thread while it plans.
using AlongsidePlan = std::function<void(const Session&)>;

struct Session {
  std::shared_ptr<const ModelValues> model;
  TreeIo::Lock lock;
  RuleSet rules;
  TreeIo tree;
  std::vector<std::string> tree_paths;
  std::map<std::string, SourceText> files;
  PlanResult plan;
  // Errors that stopped loading (bad rules, tree or files); the plan's own
  // diagnostics live in `plan`.
  std::vector<Diagnostic> load_errors;
  bool loaded = false;

  // Prints a diagnostic on stderr; tree-relative paths are shown under the
  // tree root as the user gave it.
  void Report(const Diagnostic& d) const;
  // `d` with a tree-relative file shown under the tree root.
  Diagnostic Shown(const Diagnostic& d) const;
  void ReportAll(const std::vector<Diagnostic>& ds) const;
};

// The hardware profile: built-in, then --hw, then each --set.
bool BuildProfile(const SessionOptions& opts, Profile* out, std::vector<Diagnostic>* errors);

// The model over `profile` with the rule file's workload and search spaces.
std::shared_ptr<ModelValues> BuildModel(const Profile& profile, const RuleSet& rules,
                                        std::vector<Diagnostic>* errors);

// Keeps only the rules named in `ids` (all when empty); an unknown id is an error.
bool SelectRules(const std::vector<std::string>& ids, RuleSet* rules,
                 std::vector<Diagnostic>* errors);

// Loads everything and plans. `session->loaded` is false when loading
// failed; `alongside` then never runs.
void OpenSession(const SessionOptions& opts, Session* session,
                 const AlongsidePlan& alongside = nullptr);

}  // namespace muh
