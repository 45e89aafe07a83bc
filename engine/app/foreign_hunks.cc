#include "engine/app/foreign_hunks.h"

#include <fmt/format.h>

#include <algorithm>

#include "engine/base/glob.h"

namespace muh {

std::vector<Diagnostic> ForeignHunks(const RuleSet& rules, const std::string& patch_path,
                                     const std::vector<FilePatch>& patch) {
  auto read_by_rule = [&](const std::string& path) {
    return std::any_of(rules.rules.begin(), rules.rules.end(), [&](const Rule& r) {
      return std::any_of(r.files.begin(), r.files.end(),
                         [&](const std::string& g) { return GlobMatch(g, path); });
    });
  };
  std::vector<Diagnostic> out;
  for (const FilePatch& fp : patch) {
    if (read_by_rule(fp.path)) continue;
    for (const PatchHunk& h : fp.hunks) {
      out.push_back(MakeError(
          patch_path, h.line, 1,
          fmt::format("this hunk changes {}, a file no rule reads: muhpatch did not make that "
                      "change, and a patch made again would drop it; take it out of {} (into a "
                      "patch of its own)",
                      fp.path, patch_path)));
    }
  }
  return out;
}

}  // namespace muh
