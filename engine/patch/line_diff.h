// Line-level diff: a minimal, deterministic edit script between two texts
// split into lines. Pure functions; no I/O.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace muh {

// Old lines [old_begin, old_begin + old_count) are replaced by new lines
// [new_begin, new_begin + new_count). At least one count is non-zero.
struct LineChange {
  std::size_t old_begin = 0;
  std::size_t old_count = 0;
  std::size_t new_begin = 0;
  std::size_t new_count = 0;

  bool operator==(const LineChange& other) const {
    return old_begin == other.old_begin && old_count == other.old_count &&
           new_begin == other.new_begin && new_count == other.new_count;
  }
};

// Splits `text` after every '\n'. Each line keeps its terminator ("\r\n"
// stays intact); only the last line may lack one. "" gives no lines. The
// views point into `text`.
std::vector<std::string_view> SplitLines(std::string_view text);

// Returns the changes turning `old_lines` into `new_lines`, in increasing
// order and separated by at least one unchanged line. Lines outside the
// changes pair up in order and are byte-equal. The script is the one git's
// default diff makes (Myers with git's choices and cut-offs, then its change
// compaction with the indent heuristic), so that hunks match `git diff`
// line for line; like git's, it is shortest unless common lines are left
// out among unmatched ones or a range costs more than 256. A change lists
// its deletions before its insertions; the result is a deterministic
// function of the inputs. Empty when the inputs are equal. Time
// O((N + M) * D) at worst for D differing lines, linear memory.
std::vector<LineChange> DiffLines(const std::vector<std::string_view>& old_lines,
                                  const std::vector<std::string_view>& new_lines);

}  // namespace muh
