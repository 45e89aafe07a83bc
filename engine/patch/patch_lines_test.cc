#include "engine/patch/patch_lines.h"

#include <doctest/doctest.h>

#include "engine/patch/unified_diff.h"

namespace muh {

namespace {

FilePatch PatchOf(const std::string& before, const std::string& after) {
  std::vector<FilePatch> patch;
  std::vector<Diagnostic> errs;
  REQUIRE(ParsePatch("p.diff", UnifiedDiff("a.py", before, after), &patch, &errs));
  REQUIRE(patch.size() == 1);
  return patch[0];
}

// The text of each range.
std::vector<std::string> Texts(const std::string& content,
                               const std::vector<std::pair<std::size_t, std::size_t>>& ranges) {
  std::vector<std::string> out;
  for (const auto& [b, e] : ranges) out.push_back(content.substr(b, e - b));
  return out;
}

const std::string kBefore = "a = 1\nb = 2\nc = 3\nd = 4\ne = 5\nf = 6\ng = 7\nh = 8\ni = 9\n";
const std::string kAfter = "a = 1\nb = 20\nc = 3\nd = 4\ne = 5\nf = 6\ng = 7\nh = 8\ni = 90\n";

}  // namespace

TEST_CASE("the + lines of a patch, where it put them") {
  FilePatch p = PatchOf(kBefore, kAfter);
  CHECK(Texts(kAfter, AddedLineRanges(p, kAfter)) ==
        std::vector<std::string>{"b = 20\n", "i = 90\n"});
  // Nothing of the patch is in the pristine file.
  CHECK(AddedLineRanges(p, kBefore).empty());
}

TEST_CASE("lines moved down by an edit above the patch still count") {
  FilePatch p = PatchOf(kBefore, kAfter);
  std::string moved = "import x\nimport y\n" + kAfter;
  auto got = AddedLineRanges(p, moved);
  CHECK(Texts(moved, got) == std::vector<std::string>{"b = 20\n", "i = 90\n"});
  CHECK(got[0].first == moved.find("b = 20"));
}

TEST_CASE("a + line edited since is not the patch's, and its hunk's other lines are") {
  std::string before = "x = 1\ny = 2\nz = 3\n";
  std::string after = "x = 10\ny = 2\nz = 30\n";
  FilePatch p = PatchOf(before, after);
  std::string edited = "x = 10\ny = 2\nz = 31\n";
  CHECK(Texts(edited, AddedLineRanges(p, edited)) == std::vector<std::string>{"x = 10\n"});
}

TEST_CASE("CRLF lines compare with their terminators") {
  std::string before = "x = 1\r\ny = 2\r\n";
  std::string after = "x = 1\r\ny = 3\r\n";
  FilePatch p = PatchOf(before, after);
  CHECK(Texts(after, AddedLineRanges(p, after)) == std::vector<std::string>{"y = 3\r\n"});
  CHECK(AddedLineRanges(p, "x = 1\ny = 3\n").empty());
}

TEST_CASE("a `+` line the patch records as hand-tuned is not counted as written") {
  FilePatch p = PatchOf(kBefore, kAfter);
  CHECK(Texts(kAfter, AddedLineRanges(p, kAfter, {2})) == std::vector<std::string>{"i = 90\n"});
  CHECK(Texts(kAfter, AddedLineRanges(p, kAfter, {9})) == std::vector<std::string>{"b = 20\n"});
  CHECK(Texts(kAfter, AddedLineRanges(p, kAfter, {3})).size() == 2);  // a context line
}

}  // namespace muh
