// Edits are plain values: replace `length` bytes at `offset` of `path` with
// `text`. Every edit remembers the rule that asked for it, so a conflict can
// name both rules.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace muh {

struct Edit {
  std::string path;
  std::size_t offset = 0;
  std::size_t length = 0;
  std::string text;
  std::string rule_id;
  // Why the text is what it is (derivations of the values used); not part
  // of the change itself, so SameChange ignores it.
  std::string why;

  std::size_t End() const { return offset + length; }
  // Same bytes replaced by the same text (the rule may differ).
  bool SameChange(const Edit& o) const {
    return path == o.path && offset == o.offset && length == o.length && text == o.text;
  }
};

// The edits of one file, kept sorted by position, free of overlaps.
class EditSet {
 public:
  // Adds `e`. An identical change already present is merged (not an error).
  // Edits that merely touch (one ends where the other starts) are allowed,
  // except two insertions at one offset, whose order would be ambiguous.
  // Returns false and sets `conflict` to the clashing edit on overlap.
  bool Add(const Edit& e, Edit* conflict);

  // Removes the edits `drop` holds true for; returns how many.
  std::size_t RemoveIf(const std::function<bool(const Edit&)>& drop);

  const std::vector<Edit>& edits() const { return edits_; }
  bool empty() const { return edits_.empty(); }

 private:
  std::vector<Edit> edits_;
};

// Applies sorted, non-overlapping edits to `code`, last to first, so that no
// offset moves before it is used. Pure: string in, string out.
std::string ApplyEdits(std::string_view code, const std::vector<Edit>& edits);

}  // namespace muh
