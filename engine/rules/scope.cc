#include "engine/rules/scope.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "engine/base/glob.h"

namespace muh {

std::vector<std::string> ResolvePatterns(const std::vector<std::string>& patterns,
                                         const std::vector<RuleLoc>& locs,
                                         const std::vector<std::string>& tree_paths,
                                         const std::string& rules_path, RuleLoc default_loc,
                                         const std::string& rule_id,
                                         std::vector<Diagnostic>* errors) {
  std::set<std::string> out;
  for (std::size_t i = 0; i < patterns.size(); ++i) {
    const std::string& pattern = patterns[i];
    RuleLoc loc = i < locs.size() ? locs[i] : default_loc;
    if (!IsGlob(pattern)) {
      if (std::binary_search(tree_paths.begin(), tree_paths.end(), pattern)) {
        out.insert(pattern);
      } else {
        errors->push_back(
            MakeError(rules_path, loc.line, loc.column,
                      fmt::format("rule '{}': file '{}' is not in the tree", rule_id, pattern)));
      }
      continue;
    }
    std::size_t before = out.size();
    for (const std::string& p : tree_paths) {
      if (GlobMatch(pattern, p)) out.insert(p);
    }
    if (out.size() == before &&
        std::none_of(tree_paths.begin(), tree_paths.end(),
                     [&](const std::string& p) { return GlobMatch(pattern, p); })) {
      errors->push_back(MakeError(
          rules_path, loc.line, loc.column,
          fmt::format("rule '{}': pattern '{}' matches no file in the tree", rule_id, pattern)));
    }
  }
  return std::vector<std::string>(out.begin(), out.end());
}

std::vector<std::string> FilesNeeded(const RuleSet& rules,
                                     const std::vector<std::string>& tree_paths,
                                     std::vector<Diagnostic>* errors) {
  std::set<std::string> all;
  for (const Rule& r : rules.rules) {
    // A retired knob's files may be gone with it.
    std::vector<Diagnostic> unheard;
    std::vector<Diagnostic>* said = r.retired ? &unheard : errors;
    for (const std::string& p :
         ResolvePatterns(r.files, r.file_locs, tree_paths, rules.path, r.files_loc, r.id, said)) {
      all.insert(p);
    }
    for (const Precondition& pre : r.preconditions) {
      for (const std::string& p :
           ResolvePatterns(pre.files, {}, tree_paths, rules.path, pre.loc, r.id, said)) {
        all.insert(p);
      }
    }
  }
  return std::vector<std::string>(all.begin(), all.end());
}

}  // namespace muh
