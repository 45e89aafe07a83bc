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

TEST_CASE("patches are read as leniently as git apply reads them") {
  std::string before = "a\n\nc\nd\n";
  std::string after = "a\n\nC\nd\n";
  std::string diff = UnifiedDiff("a.py", before, after);
  std::vector<FilePatch> exact;
  std::vector<Diagnostic> errs;
  REQUIRE(ParsePatch("p.diff", diff, &exact, &errs));
  // A preamble, the blank context line's space stripped, trailing blank
  // lines, and no final newline: the same change.
  std::string damaged = "muhpatch rule r: rewrites\n" + diff;
  damaged.replace(damaged.find("\n \n"), 3, "\n\n");
  damaged.pop_back();
  damaged += "\n\n\n";
  damaged.pop_back();
  std::vector<FilePatch> lenient;
  std::vector<std::string> preamble;
  REQUIRE(ParsePatch("p.diff", damaged, &lenient, &errs, &preamble));
  CHECK(errs.empty());
  CHECK(SameChange(exact, lenient));
  CHECK(preamble == std::vector<std::string>{"muhpatch rule r: rewrites"});
  std::string out;
  Diagnostic err;
  REQUIRE(ApplyFilePatch("p.diff", lenient[0], before, false, &out, &err));
  CHECK(out == after);
  // No final newline on the last body line.
  std::string cut = diff.substr(0, diff.size() - 1);
  std::vector<FilePatch> cut_patch;
  REQUIRE(ParsePatch("p.diff", cut, &cut_patch, &errs));
  CHECK(SameChange(exact, cut_patch));
}

TEST_CASE("every failing hunk says where its lines are now") {
  std::string before;
  for (int i = 1; i <= 30; ++i) before += "line" + std::to_string(i) + "\n";
  std::string after = before;
  after.replace(after.find("line5\n"), 6, "LINE5\n");
  after.replace(after.find("line20\n"), 7, "LINE20\n");
  after.replace(after.find("line24\n"), 7, "LINE24\n");
  std::vector<FilePatch> patch;
  std::vector<Diagnostic> errs;
  REQUIRE(ParsePatch("p.diff", UnifiedDiff("a.py", before, after), &patch, &errs));
  REQUIRE(patch[0].hunks.size() == 2);
  // Two lines inserted at the top move both hunks; line21 changes under
  // the second one's context; line5 stays.
  std::string now = "new1\nnew2\n" + before;
  now.replace(now.find("line21\n"), 7, "edited\n");
  std::vector<HunkFailure> f = FailingHunks(patch[0], now, false);
  REQUIRE(f.size() == 2);
  CHECK(f[0].hunk == 0);
  CHECK(f[0].expected == 2);
  CHECK(f[0].now_at == 4);
  CHECK(f[1].hunk == 1);
  CHECK(f[1].now_at == 0);
  CHECK(f[1].changed_lines_at == 22);
  CHECK(f[1].wanted == "line17");
  CHECK(FailingHunks(patch[0], before, false).empty());
  CHECK(FailingHunks(patch[0], after, true).empty());
}

}  // namespace muh
