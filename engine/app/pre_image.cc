#include "engine/app/pre_image.h"

namespace muh {

std::vector<LooseSpan> SiteSpans(const PlanResult& plan, const SourceText& file) {
  std::vector<LooseSpan> out;
  const std::string& bytes = file.bytes();
  for (const RuleOutcome& o : plan.outcomes) {
    for (const Site& s : o.found) {
      if (s.path != file.path() || s.end > bytes.size() || s.begin > s.end) {
        continue;
      }
      std::size_t start = s.begin == 0 ? std::string::npos : bytes.rfind('\n', s.begin - 1);
      start = start == std::string::npos ? 0 : start + 1;
      if (bytes.find('\n', start) < s.end) continue;  // over several lines
      out.push_back({file.LineIndexOf(s.begin) + 1, s.begin - start, s.end - start, !s.hand_tuned});
    }
  }
  return out;
}

PreImage PreImageOf(const Workspace& w, const std::vector<FilePatch>& patch,
                    const PlanResult& now) {
  PreImage out;
  out.files = w.files;
  for (const FilePatch& fp : patch)
    out.other_change = out.other_change || !fp.OtherChange().empty();
  if (out.other_change) return out;
  std::map<std::string, std::string> bytes;  // each file the patch names, as the tree has it
  for (const FilePatch& fp : patch) {
    if (bytes.count(fp.path) != 0) continue;
    auto it = w.files.find(fp.path);
    Diagnostic ignored;
    if (it != w.files.end()) {
      bytes[fp.path] = it->second.bytes();
    } else if (!w.tree.Read(fp.path, &bytes[fp.path], &ignored)) {
      out.missing.push_back(fp.path);
      bytes.erase(fp.path);
    }
  }
  if (!out.missing.empty()) return out;
  // A tree the patch applies to whole does not carry it.
  std::map<std::string, std::string> forward = bytes;
  std::vector<HunkMiss> forward_misses;
  for (const FilePatch& fp : patch) {
    forward[fp.path] = ApplyAsGit(fp, forward[fp.path], false, &forward_misses);
  }
  out.pristine = forward_misses.empty();
  if (out.pristine) return out;
  for (const FilePatch& fp : patch) {
    SourceText now_file(fp.path, bytes[fp.path]);
    std::vector<HunkMiss> misses;
    bytes[fp.path] = ApplyAsGit(fp, bytes[fp.path], true, &misses, SiteSpans(now, now_file));
    for (HunkMiss& m : misses) out.misses.push_back({&fp, std::move(m)});
  }
  for (const auto& [path, text] : bytes) out.files[path] = SourceText(path, text);
  return out;
}

}  // namespace muh
