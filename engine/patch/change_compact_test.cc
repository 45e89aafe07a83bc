#include "engine/patch/change_compact.h"

#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

namespace muh {

namespace {

using Lines = std::vector<std::string_view>;

// Compacts `changed` (marks of `lines`) against a file with no changes of
// its own and the same unchanged lines, and returns the marks.
std::vector<char> Compact(const Lines& lines, std::vector<char> changed) {
  Lines other_lines;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (!changed[i]) other_lines.push_back(lines[i]);
  }
  std::vector<char> other_changed(other_lines.size(), 0);
  CompactChanges({lines, changed}, {other_lines, other_changed});
  return changed;
}

}  // namespace

TEST_CASE("LineIndent counts columns") {
  CHECK(LineIndent("x\n") == 0);
  CHECK(LineIndent("    x\n") == 4);
  CHECK(LineIndent("\tx") == 8);
  CHECK(LineIndent("  \tx") == 8);
  CHECK(LineIndent("\f x") == 1);
  CHECK(LineIndent("   \n") == -1);
  CHECK(LineIndent("") == -1);
  CHECK(LineIndent(std::string(300, ' ') + "x") == 200);
}

TEST_CASE("CompactChanges lets the indent heuristic pick the place") {
  // A second "    x = 1" inserted before "        y = 2": as low as possible
  // would be line 1, but git's heuristic puts it at line 0 (a split before
  // a deeper indent scores worse).
  const Lines lines = {"    x = 1\n", "    x = 1\n", "        y = 2\n", "    x = 1\n"};
  CHECK(Compact(lines, {0, 1, 0, 0}) == std::vector<char>{1, 0, 0, 0});
  CHECK(Compact(lines, {1, 0, 0, 0}) == std::vector<char>{1, 0, 0, 0});
}

TEST_CASE("CompactChanges without room to slide leaves a group alone") {
  const Lines lines = {"a\n", "b\n", "c\n"};
  CHECK(Compact(lines, {0, 1, 0}) == std::vector<char>{0, 1, 0});
}

TEST_CASE("CompactChanges lines a group up with the other file's change") {
  // Old "a x x", new "b x": the deleted x joins the replaced line.
  const Lines old_lines = {"a\n", "x\n", "x\n"};
  const Lines new_lines = {"b\n", "x\n"};
  std::vector<char> old_changed = {1, 0, 1};
  std::vector<char> new_changed = {1, 0};
  CompactChanges({old_lines, old_changed}, {new_lines, new_changed});
  CHECK(old_changed == std::vector<char>{1, 1, 0});
}

}  // namespace muh
