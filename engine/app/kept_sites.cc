#include "engine/app/kept_sites.h"

#include <algorithm>

namespace muh {

bool PatchChangesLine(const std::vector<FilePatch>& patch, const std::string& path, int line) {
  for (const FilePatch& f : patch) {
    if (f.path != path && f.old_path != path) continue;
    for (const PatchHunk& h : f.hunks) {
      std::size_t old_no = h.old_start, new_no = h.new_start;
      for (const auto& [kind, text] : h.body) {
        if (kind == '-' && old_no == static_cast<std::size_t>(line)) return true;
        if (kind == '+' && new_no == static_cast<std::size_t>(line)) return true;
        if (kind != '+') ++old_no;
        if (kind != '-') ++new_no;
      }
    }
  }
  return false;
}

bool KeptSitesUntouched(const std::vector<FilePatch>& patch, const RuleOutcome& o,
                        const std::map<std::string, SourceText>& files,
                        const std::vector<HandTunedRecord>& recorded) {
  for (const Site& s : o.found) {
    if (!s.kept) continue;
    // The site's line as git counts it (a lone CR ends no line there).
    auto file = files.find(s.path);
    int line =
        file == files.end() ? s.line : static_cast<int>(file->second.LineIndexOf(s.begin) + 1);
    bool is_recorded = std::find(recorded.begin(), recorded.end(),
                                 HandTunedRecord{o.rule_id, s.path, line}) != recorded.end();
    if (!is_recorded && PatchChangesLine(patch, s.path, line)) return false;
  }
  return true;
}

}  // namespace muh
