// Whether anything that runs refers to a def or class: a reference at the
// module level of a reached module, or inside a def or class that is itself
// referenced that way (transitively). Found lexically: every whole-word
// occurrence of the name in the reached modules' code, less those in
// branches not taken (tree_index.h's guards), after an unconditional
// return, in the definition itself, in import lines (which only bind the
// name) and in other definitions of the same name.
#pragma once

#include <functional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/liveness/tree_index.h"

namespace muh {

struct ReferenceResult {
  Tri referenced = Tri::kUnknown;
  std::string why;
  std::vector<Evidence> evidence;
};

class References {
 public:
  // `reached(path)` says which modules run; it may change between calls.
  References(TreeIndex* index, std::function<bool(const std::string& path)> reached)
      : index_(index), reached_(std::move(reached)) {}

  // For the def or class whose header is line `k` of `path`. kUnknown when
  // the name also appears as a whole string literal (getattr, a registry)
  // or the definition has a decorator that registers it.
  ReferenceResult Of(const std::string& path, int k);

 private:
  TreeIndex* index_;
  std::function<bool(const std::string& path)> reached_;
  std::set<std::pair<std::string, int>> visiting_;
  std::set<std::pair<std::string, int>> referenced_;  // settled: kTrue stays true as reach grows
};

}  // namespace muh
