#include "engine/plan/stale_edits.h"

#include <algorithm>
#include <string_view>

namespace muh {

namespace {

// Line `index` (from 0) of `text`, without its terminator; "" past the end.
std::string LineOf(std::string_view text, std::size_t index) {
  std::size_t at = 0;
  for (std::size_t k = 0; k < index && at != std::string_view::npos; ++k) {
    at = text.find('\n', at);
    if (at != std::string_view::npos) ++at;
  }
  if (at == std::string_view::npos || at > text.size()) return "";
  std::string_view line = text.substr(at, text.find('\n', at) - at);
  if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
  return std::string(line);
}

// The lines the hunks of `path` wholly before line `line` (from 1) add.
long PatchShift(const std::vector<FilePatch>& patch, const std::string& path, std::size_t line) {
  long shift = 0;
  for (const FilePatch& f : patch) {
    if (f.path != path) continue;
    for (const PatchHunk& h : f.hunks) {
      if (h.old_start + h.old_count <= line) {
        shift += static_cast<long>(h.new_count) - static_cast<long>(h.old_count);
      }
    }
  }
  return shift;
}

// The lines the plan's edits of `path` ending before `offset` add.
long EditShift(const PlanResult& plan, const SourceText& file, std::size_t offset) {
  auto it = plan.edits.find(file.path());
  if (it == plan.edits.end()) return 0;
  long shift = 0;
  for (const Edit& e : it->second) {
    if (e.End() > offset) continue;
    std::string_view old = std::string_view(file.bytes()).substr(e.offset, e.length);
    shift += static_cast<long>(std::count(e.text.begin(), e.text.end(), '\n')) -
             static_cast<long>(std::count(old.begin(), old.end(), '\n'));
  }
  return shift;
}

std::size_t Moved(std::size_t index, long shift) {
  long moved = static_cast<long>(index) + shift;
  return moved < 0 ? 0 : static_cast<std::size_t>(moved);
}

}  // namespace

std::vector<StaleEdit> StaleEdits(const PlanResult& plan,
                                  const std::map<std::string, SourceText>& base,
                                  const std::vector<FilePatch>& patch,
                                  const std::map<std::string, std::string>& committed,
                                  const std::map<std::string, std::string>& regenerated) {
  auto bytes = [&base](const std::map<std::string, std::string>& m,
                       const std::string& path) -> std::string_view {
    auto it = m.find(path);
    if (it != m.end()) return it->second;
    auto b = base.find(path);
    return b == base.end() ? std::string_view() : std::string_view(b->second.bytes());
  };
  std::vector<StaleEdit> out;
  for (const RuleOutcome& o : plan.outcomes) {
    for (const Site& s : o.found) {
      auto file = base.find(s.path);
      if (file == base.end()) continue;
      std::size_t index = file->second.LineIndexOf(s.begin);
      StaleEdit e{
          o.rule_id, s.path, static_cast<int>(index + 1),
          LineOf(bytes(committed, s.path), Moved(index, PatchShift(patch, s.path, index + 1))),
          LineOf(bytes(regenerated, s.path), Moved(index, EditShift(plan, file->second, s.begin)))};
      auto edits = plan.edits.find(s.path);
      e.deleted = s.deletes && edits != plan.edits.end() &&
                  std::any_of(edits->second.begin(), edits->second.end(), [&s](const Edit& x) {
                    return x.text.empty() && x.offset <= s.begin && s.begin < x.End();
                  });
      if (e.deleted) e.regenerated.clear();
      if (e.committed == e.regenerated && !e.deleted) continue;
      bool seen = std::any_of(out.begin(), out.end(), [&e](const StaleEdit& x) {
        return x.rule_id == e.rule_id && x.path == e.path && x.line == e.line;
      });
      if (!seen) out.push_back(std::move(e));
    }
  }
  return out;
}

}  // namespace muh
