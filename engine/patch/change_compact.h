// Slides runs of changed lines over equal lines to where git's default diff
// puts them (its change compaction with the indent heuristic). Pure; no I/O.
#pragma once

#include <string_view>
#include <vector>

namespace muh {

// One file's lines and its changed-line marks (1 = deleted or inserted).
struct DiffSide {
  const std::vector<std::string_view>& lines;
  std::vector<char>& changed;
};

// Moves each group of changed lines of `side` within the lines it may slide
// over, keeping `other`'s groups in step: a group that can line up with a
// change of `other` does so (the lowest such place); otherwise the indent
// heuristic picks the place whose two boundaries read best, by blank lines
// and indentation, as git scores them. Groups that touch merge. Call it for
// the old file, then for the new one, as git does.
void CompactChanges(const DiffSide& side, const DiffSide& other);

// The indentation of `line` in columns (a tab to the next multiple of 8;
// other whitespace counts 0), capped at 200; -1 when it is all whitespace.
int LineIndent(std::string_view line);

}  // namespace muh
