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

TEST_CASE("patches are read as leniently as git apply reads them") {
  std::string before = "a\n\nc\nd\n";
  std::string after = "a\n\nC\nd\n";
  std::string diff = UnifiedDiff("a.py", before, after);
  std::vector<FilePatch> exact;
  std::vector<Diagnostic> errs;
  REQUIRE(ParsePatch("p.diff", diff, &exact, &errs));
  // A preamble, the blank context line's space stripped and trailing blank
  // lines: the same change.
  std::string damaged = "muhpatch rule r: rewrites\n" + diff;
  damaged.replace(damaged.find("\n \n"), 3, "\n\n");
  damaged += "\n\n";
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
  // No final newline on the last body line: git calls it corrupt.
  std::string cut = diff.substr(0, diff.size() - 1);
  std::vector<FilePatch> cut_patch;
  CHECK_FALSE(ParsePatch("p.diff", cut, &cut_patch, &errs));
}

namespace {

std::string Numbered(int n) {
  std::string out;
  for (int i = 1; i <= n; ++i) out += "line" + std::to_string(i) + "\n";
  return out;
}

std::string Replaced(std::string text, const std::string& from, const std::string& to) {
  text.replace(text.find(from), from.size(), to);
  return text;
}

FilePatch OnePatch(const std::string& before, const std::string& after) {
  std::vector<FilePatch> patch;
  std::vector<Diagnostic> errs;
  REQUIRE(ParsePatch("p.diff", UnifiedDiff("a.py", before, after), &patch, &errs));
  REQUIRE(patch.size() == 1);
  return patch[0];
}

}  // namespace

TEST_CASE("ApplyAsGit allows offsets, as git apply does") {
  std::string before = Numbered(30);
  std::string after = Replaced(Replaced(before, "line5\n", "LINE5\n"), "line20\n", "LINE20\n");
  FilePatch p = OnePatch(before, after);
  REQUIRE(p.hunks.size() == 2);
  std::vector<HunkMiss> misses;
  CHECK(ApplyAsGit(p, before, false, &misses) == after);
  CHECK(ApplyAsGit(p, after, true, &misses) == before);
  // Two lines added at the top, one deleted between the hunks.
  std::string moved = "new1\nnew2\n" + Replaced(before, "line12\n", "");
  std::string want = "new1\nnew2\n" + Replaced(after, "line12\n", "");
  CHECK(ApplyAsGit(p, moved, false, &misses) == want);
  CHECK(ApplyAsGit(p, want, true, &misses) == moved);
  // Hunks in the other order.
  std::swap(p.hunks[0], p.hunks[1]);
  CHECK(ApplyAsGit(p, moved, false, &misses) == want);
  CHECK(misses.empty());
}

TEST_CASE("ApplyAsGit takes the nearest place, and anchors hunks at the file's ends") {
  // The same lines twice: the copy nearest the named line changes.
  std::string block = "x\ny\nz\nK = 1\nq\nw\ne\n";
  FilePatch p = OnePatch("h\n" + block, "h\n" + Replaced(block, "K = 1", "K = 2"));
  std::vector<HunkMiss> misses;
  CHECK(ApplyAsGit(p, "h\n" + block + block, false, &misses) ==
        "h\n" + Replaced(block, "K = 1", "K = 2") + block);
  // A hunk naming line 1 must match at the start; one without context
  // after its change, at the end.
  std::string six = "l1\nl2\nl3\nl4\nl5\nl6\n";
  FilePatch top = OnePatch(six, Replaced(six, "l2", "L2"));
  CHECK(ApplyAsGit(top, "# added\n" + six, false, &misses) == "# added\n" + six);
  REQUIRE(misses.size() == 1);
  CHECK(misses[0].anchored);
  CHECK(misses[0].now_at == 2);
  misses.clear();
  FilePatch bottom = OnePatch(six, Replaced(six, "l6", "L6"));
  CHECK(ApplyAsGit(bottom, six + "more\n", false, &misses) == six + "more\n");
  REQUIRE(misses.size() == 1);
  CHECK(misses[0].anchored);
}

TEST_CASE("every hunk git would refuse says where its lines are now") {
  std::string before = Numbered(30);
  std::string after = Replaced(Replaced(before, "line5\n", "LINE5\n"), "line24\n", "LINE24\n");
  FilePatch p = OnePatch(before, after);
  REQUIRE(p.hunks.size() == 2);
  // Two lines inserted at the top move both hunks; line22, context of the
  // second, changes.
  std::string now = "new1\nnew2\n" + Replaced(before, "line22\n", "edited\n");
  std::vector<HunkMiss> misses;
  CHECK(ApplyAsGit(p, now, false, &misses) == Replaced(now, "line5\n", "LINE5\n"));
  REQUIRE(misses.size() == 1);
  CHECK(misses[0].hunk == 1);
  CHECK(misses[0].patch_line == p.hunks[1].line);
  CHECK(misses[0].expected == 21);
  CHECK(misses[0].now_at == 23);
  CHECK(misses[0].span == 7);
  CHECK_FALSE(misses[0].anchored);
  CHECK(misses[0].differs_at == 24);
  CHECK(misses[0].has == "edited");
  CHECK(misses[0].wanted == "line22");
  CHECK(misses[0].context);
  // The removed line itself changed.
  misses.clear();
  ApplyAsGit(p, Replaced(before, "line24\n", "line24 = 2\n"), false, &misses);
  REQUIRE(misses.size() == 1);
  CHECK(misses[0].differs_at == 24);
  CHECK_FALSE(misses[0].context);
  // A CRLF patch on an LF file: the lines are there, with other ends.
  misses.clear();
  std::vector<FilePatch> crlf;
  std::vector<Diagnostic> errs;
  std::string diff = UnifiedDiff("a.py", before, after);
  std::string crlf_diff;
  for (char c : diff) crlf_diff += c == '\n' ? std::string("\r\n") : std::string(1, c);
  REQUIRE(ParsePatch("p.diff", crlf_diff, &crlf, &errs));
  CHECK(ApplyAsGit(crlf[0], before, false, &misses) == before);
  REQUIRE(misses.size() == 2);
  CHECK(misses[1].line_ends);
  CHECK(misses[1].now_at == 21);
  CHECK(misses[1].differs_at == 21);
  CHECK(misses[1].has == "line21\n");
  CHECK(misses[1].wanted == "line21\r\n");
  // Nothing of it anywhere.
  misses.clear();
  ApplyAsGit(p, "other\n", false, &misses);
  REQUIRE(misses.size() == 2);
  CHECK(misses[0].now_at == 0);
}

TEST_CASE("LooseMatch: the same line but for the value in its span") {
  CHECK(LooseMatch("    M = 24\n", "    M = 16\n", 8, 10));
  CHECK(LooseMatch("    M = 24\n", "    M = 1024\n", 8, 10));
  CHECK_FALSE(LooseMatch("    M = 24\n", "    N = 16\n", 8, 10));            // before the value
  CHECK_FALSE(LooseMatch("    M = 24  # a\n", "    M = 16  # b\n", 8, 10));  // after it
  CHECK_FALSE(LooseMatch("    M = 24\n", "    M = 16\n", 8, 20));            // a span past the line
}

TEST_CASE("ApplyAsGit undoes a hunk whose `+` line was retuned only where `loose` allows") {
  const std::string pre = "a\nb\nc\n    M = 32\nd\ne\nf\n";
  const std::string patched = "a\nb\nc\n    M = 16\nd\ne\nf\n";
  const std::string tuned = "a\nb\nc\n    M = 24\nd\ne\nf\n";
  std::vector<FilePatch> p;
  std::vector<Diagnostic> errs;
  REQUIRE(ParsePatch("p.diff", UnifiedDiff("a.py", pre, patched), &p, &errs));
  std::vector<HunkMiss> misses;
  // Without a span git refuses it; with one on line 4, the pre-image line
  // comes from the `-` line.
  CHECK(ApplyAsGit(p[0], tuned, true, &misses) == tuned);
  REQUIRE(misses.size() == 1);
  misses.clear();
  CHECK(ApplyAsGit(p[0], tuned, true, &misses, {{4, 8, 10}}) == pre);
  CHECK(misses.empty());
  // Only the line it names, and only in the value.
  CHECK(ApplyAsGit(p[0], tuned, true, &misses, {{3, 8, 10}}) == tuned);
  CHECK(misses.size() == 1);
  misses.clear();
  const std::string renamed = "a\nb\nc\n    N = 24\nd\ne\nf\n";
  CHECK(ApplyAsGit(p[0], renamed, true, &misses, {{4, 8, 10}}) == renamed);
  CHECK(misses.size() == 1);
  // A context line differs only where a span names it, and stays as the
  // content has it (a value left alone, edited since).
  misses.clear();
  const std::string context_changed = "a\nb\nC\n    M = 16\nd\ne\nf\n";
  CHECK(ApplyAsGit(p[0], context_changed, true, &misses) == context_changed);
  CHECK(misses.size() == 1);
  misses.clear();
  CHECK(ApplyAsGit(p[0], context_changed, true, &misses, {{3, 0, 1, true}}) ==
        "a\nb\nC\n    M = 32\nd\ne\nf\n");
  CHECK(misses.empty());
  // A context-only span does not let a changed line differ.
  CHECK(ApplyAsGit(p[0], tuned, true, &misses, {{4, 8, 10, true}}) == tuned);
  CHECK(misses.size() == 1);
}

}  // namespace muh
