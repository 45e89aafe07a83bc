#include "engine/plan/edit.h"

#include <algorithm>

namespace muh {

namespace {
bool Overlaps(const Edit& a, const Edit& b) {
  if (a.length == 0 && b.length == 0) return a.offset == b.offset;
  if (a.length == 0) return b.offset < a.offset && a.offset < b.End();
  if (b.length == 0) return a.offset < b.offset && b.offset < a.End();
  return a.offset < b.End() && b.offset < a.End();
}
}  // namespace

bool EditSet::Add(const Edit& e, Edit* conflict) {
  for (const Edit& have : edits_) {
    if (have.SameChange(e)) return true;
    if (Overlaps(have, e)) {
      *conflict = have;
      return false;
    }
  }
  auto at = std::upper_bound(edits_.begin(), edits_.end(), e, [](const Edit& a, const Edit& b) {
    return a.offset != b.offset ? a.offset < b.offset : a.length < b.length;
  });
  edits_.insert(at, e);
  return true;
}

std::size_t EditSet::RemoveIf(const std::function<bool(const Edit&)>& drop) {
  std::size_t before = edits_.size();
  edits_.erase(std::remove_if(edits_.begin(), edits_.end(), drop), edits_.end());
  return before - edits_.size();
}

std::string ApplyEdits(std::string_view code, const std::vector<Edit>& edits) {
  std::string out(code);
  for (auto it = edits.rbegin(); it != edits.rend(); ++it) {
    out.replace(it->offset, it->length, it->text);
  }
  return out;
}

}  // namespace muh
