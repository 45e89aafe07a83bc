#include "engine/app/patch_input.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("a patch is parsed once: its files, its preamble's statuses and records") {
  const std::string text =
      "muhpatch: rule r: rewrites; hand-tuned: a.py:2\n"
      "diff --git a/a.py b/a.py\n"
      "--- a/a.py\n"
      "+++ b/a.py\n"
      "@@ -1,2 +1,2 @@\n"
      " x = 1\n"
      "-y = 2\n"
      "+y = 3\n";
  PatchInput p = ParsePatchInput("p.diff", text, kDefaultStrip);
  REQUIRE(p.ok());
  CHECK(p.path == "p.diff");
  CHECK(p.text == text);
  REQUIRE(p.files.size() == 1);
  CHECK(p.files[0].path == "a.py");
  CHECK(p.preamble.statuses.at("r") == "rewrites");
  CHECK(p.preamble.hand_tuned == std::vector<HandTunedRecord>{{"r", "a.py", 2}});
  // -p 0 keeps the prefix, as git apply -p0 does.
  CHECK(ParsePatchInput("p.diff", text, 0).files.at(0).path == "b/a.py");
}

TEST_CASE("an empty patch is no change, and a malformed one says why, and is not unreadable") {
  CHECK(ParsePatchInput("p.diff", "", kDefaultStrip).ok());
  PatchInput bad = ParsePatchInput("p.diff", "just words\n", kDefaultStrip);
  CHECK_FALSE(bad.ok());
  CHECK_FALSE(bad.unreadable);
  CHECK(bad.files.empty());
}

TEST_CASE("no path, no patch, and a path that cannot be read is unreadable") {
  PatchInput none = ReadPatchInput("", kDefaultStrip);
  CHECK(none.ok());
  CHECK(none.path.empty());
  PatchInput missing = ReadPatchInput("/nonexistent/muhpatch/p.diff", kDefaultStrip);
  CHECK(missing.unreadable);
  REQUIRE(missing.errors.size() == 1);
  CHECK(missing.errors[0].file == "/nonexistent/muhpatch/p.diff");
}

}  // namespace muh
