#include "engine/patch/patch_apply.h"

#include <doctest/doctest.h>

#include "engine/patch/unified_diff.h"

namespace muh {

namespace {
void RoundTrip(const std::string& before, const std::string& after) {
  std::string diff = UnifiedDiff("a.py", before, after);
  std::vector<FilePatch> patch;
  std::vector<Diagnostic> errs;
  REQUIRE(ParsePatch("p.diff", diff, &patch, &errs));
  REQUIRE(patch.size() == 1);
  std::string out;
  Diagnostic err;
  REQUIRE(ApplyFilePatch("p.diff", patch[0], before, false, &out, &err));
  CHECK(out == after);
  REQUIRE(ApplyFilePatch("p.diff", patch[0], after, true, &out, &err));
  CHECK(out == before);
}
}  // namespace

TEST_CASE("our diffs apply forwards and backwards") {
  RoundTrip("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n", "a\nB\nc\nd\ne\nf\ng\nh\nI\nj\n");
  RoundTrip("x = 1\r\ny = 2\r\n", "x = 1\r\ny = 3\r\n");
  RoundTrip("x = 1\ny = 2", "x = 1\ny = 3");
  RoundTrip("x = 1\n", "x = 1\ny = 2\nz = 3\n");
  RoundTrip("x = 1\ny = 2\n", "");
}

TEST_CASE("a hunk that does not match is reported at its header") {
  std::string diff = UnifiedDiff("a.py", "a\nb\nc\n", "a\nB\nc\n");
  std::vector<FilePatch> patch;
  std::vector<Diagnostic> errs;
  REQUIRE(ParsePatch("p.diff", diff, &patch, &errs));
  std::string out;
  Diagnostic err;
  CHECK_FALSE(ApplyFilePatch("p.diff", patch[0], "a\nX\nc\n", false, &out, &err));
  CHECK(err.Format() == "p.diff:4:1: error: hunk 1 of a.py does not apply: a.py:2 differs");
  CHECK_FALSE(ApplyFilePatch("p.diff", patch[0], "a\nb\nc\n", true, &out, &err));
  CHECK(err.Format() ==
        "p.diff:4:1: error: hunk 1 of a.py does not apply in reverse: a.py:2 differs");
}

TEST_CASE("malformed patches are located") {
  std::vector<FilePatch> patch;
  std::vector<Diagnostic> errs;
  CHECK_FALSE(ParsePatch("p.diff", "hello\n", &patch, &errs));
  CHECK(errs[0].Format() ==
        "p.diff:1:1: error: malformed patch: expected 'diff --git a/PATH b/PATH'");
  errs.clear();
  CHECK_FALSE(ParsePatch(
      "p.diff", "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-a\n+b\n", &patch, &errs));
  CHECK(errs[0].Format() ==
        "p.diff:7:1: error: malformed patch: hunk is shorter than its header says");
}

}  // namespace muh
