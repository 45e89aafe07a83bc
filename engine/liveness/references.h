// Whether anything that runs refers to a def or class: a reference at the
// module level of a reached module, or inside a def or class that is itself
// referenced that way (transitively). Found lexically: every whole-word
// occurrence of the name in the reached modules' code, less those in
// branches not taken (tree_index.h's guards), after an unconditional
// return, in the definition itself, in import statements (which only bind
// the name: an alias they bind, `from m import f as g`, is looked for in
// that file in its place, and everywhere when the import is at the top
// level, where the alias is the module's attribute) and in other definitions of the same name. An
// occurrence in a string counts unless the string is prose (prose.h); a
// decorator other than the modeled wrappers (staticmethod, lru_cache,
// triton.jit ...) on the def or on a def around a use may register it with
// a caller the analysis cannot see: both give unknown, as does a module
// whose object is used as a value (module_escape.h) for its top-level defs.
#pragma once

#include <functional>
#include <map>
#include <optional>
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
  // the name also appears in a string that is not prose (getattr, a
  // registry) or a decorator the analysis does not model may register it.
  ReferenceResult Of(const std::string& path, int k);

 private:
  // The first decorator of the def or class on line `k` that the analysis
  // does not model (it may register its function), as evidence.
  std::optional<Evidence> DecoratorDoubt(const std::string& path, int k);

  TreeIndex* index_;
  std::function<bool(const std::string& path)> reached_;
  std::set<std::pair<std::string, int>> visiting_;
  std::set<std::pair<std::string, int>> referenced_;  // settled: kTrue stays true as reach grows
  std::map<std::string, Evidence> escapes_;           // module_escape.h's findings, by path
  // Kept once found.
  // The first reached statement through which classes are found without
  // their name: through their bases (`__subclasses__`, `__init_subclass__`,
  // a metaclass), or, with `any_class`, any class (`__set_name__`, the gc
  // module's object lists). Empty when none.
  Evidence SubclassLookup(bool any_class);
  std::optional<Evidence> subclass_lookup_;
  std::optional<Evidence> any_class_lookup_;
};

}  // namespace muh
