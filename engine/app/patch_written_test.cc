#include "engine/app/patch_written.h"

#include <doctest/doctest.h>

#include "engine/patch/unified_diff.h"

namespace muh {

namespace {

const std::string kBefore = "a = 1\nb = 2\nc = 3\n";
const std::string kAfter = "a = 1\nb = 20\nc = 30\n";

std::string Bytes(const std::string& text, const std::pair<std::size_t, std::size_t>& range) {
  return text.substr(range.first, range.second - range.first);
}

}  // namespace

TEST_CASE("the lines muhpatch wrote are the `+` lines of the files the rules read") {
  PatchInput patch = ParsePatchInput("p.diff", UnifiedDiff("a.py", kBefore, kAfter), 1);
  REQUIRE(patch.ok());
  std::map<std::string, SourceText> files;
  files.emplace("a.py", SourceText("a.py", kAfter));
  auto written = WrittenByPatch(patch, files);
  REQUIRE(written.count("a.py") == 1);
  const WrittenLines& lines = written.at("a.py");
  REQUIRE(lines.ranges.size() == 2);
  CHECK(Bytes(kAfter, lines.ranges[0]).rfind("b = 20", 0) == 0);
  CHECK(Bytes(kAfter, lines.ranges[1]).rfind("c = 30", 0) == 0);
  CHECK(lines.content_hash == std::hash<std::string_view>{}(kAfter));
  // A file no rule reads is left out.
  CHECK(WrittenByPatch(patch, {}).empty());
}

TEST_CASE("a `+` line the preamble records as hand-tuned is not muhpatch's") {
  PatchInput patch = ParsePatchInput(
      "p.diff",
      "muhpatch: rule r: rewrites; hand-tuned: a.py:3\n" + UnifiedDiff("a.py", kBefore, kAfter), 1);
  REQUIRE(patch.ok());
  std::map<std::string, SourceText> files;
  files.emplace("a.py", SourceText("a.py", kAfter));
  const auto written = WrittenByPatch(patch, files);
  const WrittenLines& lines = written.at("a.py");
  REQUIRE(lines.ranges.size() == 1);
  CHECK(Bytes(kAfter, lines.ranges[0]).rfind("b = 20", 0) == 0);
}

}  // namespace muh
