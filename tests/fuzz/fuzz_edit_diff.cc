// libFuzzer target: edits, unified diffs and exact patch application.
//
// The input is the old text. A few edits are drawn from the input's own
// bytes (FuzzedDataProvider takes integers from its end and strings from its
// front), added through EditSet::Add and applied with ApplyEdits, giving the
// new text. Then:
//   - EditSet::Add accepts or refuses each edit as edit.h specifies, keeps
//     its edits sorted and free of overlaps, and ApplyEdits agrees with a
//     straightforward left-to-right splice;
//   - DiffLines keeps its contract (ordered changes separated by equal lines,
//     the rest paired and byte-equal) and is minimal (checked against an
//     LCS table on small inputs);
//   - UnifiedDiff("f.py", old, new) parses back with ParsePatch, and
//     ApplyFilePatch turns old into new forwards and new into old in reverse.
// Finally the raw input is also fed to ParsePatch/ApplyFilePatch, which must
// not crash on anything.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/patch/line_diff.h"
#include "engine/patch/patch_apply.h"
#include "engine/patch/unified_diff.h"
#include "engine/plan/edit.h"
#include "tests/fuzz/fuzz_common.h"

namespace {

using muh_fuzz::Show;

// Whether `a` and `b` may not both be in one EditSet, as edit.h states it:
// overlapping ranges clash; ranges that merely touch do not, except two
// insertions at one offset. An insertion clashes with a range only strictly
// inside it.
bool Clash(const muh::Edit& a, const muh::Edit& b) {
  if (a.length == 0 && b.length == 0) return a.offset == b.offset;
  if (a.length == 0) return b.offset < a.offset && a.offset < b.End();
  if (b.length == 0) return a.offset < b.offset && b.offset < a.End();
  return a.offset < b.End() && b.offset < a.End();
}

std::string Describe(const muh::Edit& e) {
  return "[" + std::to_string(e.offset) + "+" + std::to_string(e.length) + " -> " +
         Show(e.text, 40) + "]";
}

// The edits spliced in from left to right: the obvious way, to check the
// right-to-left ApplyEdits against.
std::string Splice(std::string_view code, const std::vector<muh::Edit>& edits) {
  std::string out;
  std::size_t at = 0;
  for (const muh::Edit& e : edits) {
    out.append(code.substr(at, e.offset - at));
    out.append(e.text);
    at = e.End();
  }
  out.append(code.substr(at));
  return out;
}

// Length of a longest common subsequence of `a` and `b`, O(|a| * |b|).
std::size_t Lcs(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
  std::vector<std::size_t> prev(b.size() + 1, 0), cur(b.size() + 1, 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      cur[j] = a[i - 1] == b[j - 1] ? prev[j - 1] + 1 : std::max(prev[j], cur[j - 1]);
    }
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

void CheckLineChanges(const std::vector<std::string_view>& a,
                      const std::vector<std::string_view>& b,
                      const std::vector<muh::LineChange>& changes) {
  std::size_t i = 0, j = 0;  // next unpaired line of a and b
  std::size_t changed = 0;
  for (std::size_t k = 0; k < changes.size(); ++k) {
    const muh::LineChange& c = changes[k];
    FUZZ_CHECK(c.old_count + c.new_count > 0, "change " + std::to_string(k) + " is empty");
    FUZZ_CHECK(c.old_begin >= i && c.new_begin >= j,
               "change " + std::to_string(k) + " out of order");
    FUZZ_CHECK(c.old_begin - i == c.new_begin - j,
               "change " + std::to_string(k) + ": unequal runs of unchanged lines before it");
    FUZZ_CHECK(k == 0 || c.old_begin > i,
               "changes " + std::to_string(k - 1) + " and " + std::to_string(k) + " are adjacent");
    for (; i < c.old_begin; ++i, ++j) {
      FUZZ_CHECK(a[i] == b[j], "paired lines differ: old " + std::to_string(i + 1) + " " +
                                   Show(std::string(a[i])) + ", new " + std::to_string(j + 1) +
                                   " " + Show(std::string(b[j])));
    }
    FUZZ_CHECK(c.old_begin + c.old_count <= a.size() && c.new_begin + c.new_count <= b.size(),
               "change " + std::to_string(k) + " runs past the end");
    i = c.old_begin + c.old_count;
    j = c.new_begin + c.new_count;
    changed += c.old_count + c.new_count;
  }
  FUZZ_CHECK(a.size() - i == b.size() - j, "unequal runs of unchanged lines at the end");
  for (; i < a.size(); ++i, ++j) {
    FUZZ_CHECK(a[i] == b[j], "paired trailing lines differ at old line " + std::to_string(i + 1));
  }
  // The script need not be the shortest: like git's default diff (which the
  // hunks follow: tests/diff_vs_git), lines that recur often are left out of
  // the search, and then a longer script can come out. It is never longer
  // than deleting and inserting everything.
  if (a.size() <= 400 && b.size() <= 400) {
    std::size_t minimal = a.size() + b.size() - 2 * Lcs(a, b);
    FUZZ_CHECK(changed >= minimal && changed <= a.size() + b.size(),
               "edit script has " + std::to_string(changed) + " changed lines, the minimum is " +
                   std::to_string(minimal));
  }
}

void CheckRoundTrip(const std::string& old_text, const std::string& new_text) {
  const std::string diff = muh::UnifiedDiff("f.py", old_text, new_text);
  if (old_text == new_text) {
    FUZZ_CHECK(diff.empty(), "equal texts give a non-empty diff");
    return;
  }
  FUZZ_CHECK(!diff.empty(), "different texts give an empty diff");
  const std::string header = "diff --git a/f.py b/f.py\n--- a/f.py\n+++ b/f.py\n@@ -";
  FUZZ_CHECK(diff.compare(0, header.size(), header) == 0, "bad diff header: " + Show(diff));

  std::vector<muh::FilePatch> patches;
  std::vector<muh::Diagnostic> errors;
  bool parsed = muh::ParsePatch("f.patch", diff, &patches, &errors);
  FUZZ_CHECK(parsed && errors.empty(),
             "ParsePatch refuses our own diff: " + (errors.empty() ? "" : errors[0].Format()) +
                 "\ndiff: " + Show(diff, 2000));
  FUZZ_CHECK(patches.size() == 1 && patches[0].path == "f.py", "ParsePatch: not one patch of f.py");

  std::string got;
  muh::Diagnostic error;
  bool applied = muh::ApplyFilePatch("f.patch", patches[0], old_text, false, &got, &error);
  FUZZ_CHECK(applied, "forward apply fails: " + error.Format() + "\ndiff: " + Show(diff, 2000));
  FUZZ_CHECK(got == new_text, "forward apply gives " + Show(got) + ", want " + Show(new_text) +
                                  "\ndiff: " + Show(diff, 2000));
  got.clear();
  applied = muh::ApplyFilePatch("f.patch", patches[0], new_text, true, &got, &error);
  FUZZ_CHECK(applied, "reverse apply fails: " + error.Format() + "\ndiff: " + Show(diff, 2000));
  FUZZ_CHECK(got == old_text, "reverse apply gives " + Show(got) + ", want " + Show(old_text) +
                                  "\ndiff: " + Show(diff, 2000));
}

// Any bytes as a patch: parse, then apply to a couple of texts. Only
// crashes, hangs and leaks count here.
void ParseAnyPatch(const std::string& text) {
  std::vector<muh::FilePatch> patches;
  std::vector<muh::Diagnostic> errors;
  bool parsed = muh::ParsePatch("in.patch", text, &patches, &errors);
  FUZZ_CHECK(parsed == errors.empty(), "ParsePatch's result disagrees with its errors");
  if (!parsed) return;
  for (const muh::FilePatch& fp : patches) {
    for (bool reverse : {false, true}) {
      for (const std::string* content : {&text, &fp.path}) {
        std::string out;
        muh::Diagnostic error;
        muh::ApplyFilePatch("in.patch", fp, *content, reverse, &out, &error);
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string old_text(reinterpret_cast<const char*>(data), size);
  FuzzedDataProvider fdp(data, size);

  muh::EditSet set;
  const int n = fdp.ConsumeIntegralInRange<int>(0, 6);
  for (int k = 0; k < n; ++k) {
    muh::Edit e;
    e.path = "f.py";
    e.rule_id = "rule-" + std::to_string(k);
    e.offset = fdp.ConsumeIntegralInRange<std::size_t>(0, old_text.size());
    e.length = fdp.ConsumeIntegralInRange<std::size_t>(
        0, std::min<std::size_t>(old_text.size() - e.offset, 80));
    switch (fdp.ConsumeIntegralInRange<int>(0, 6)) {
      case 0:
        e.text = fdp.ConsumeRandomLengthString(32);
        break;
      case 1:
        e.text = "\n";
        break;
      case 2:
        e.text = "\r\n";
        break;
      case 3:
        break;   // deletion (or an empty insertion)
      case 4: {  // a slice of the old text, e.g. whole lines elsewhere
        std::size_t from = fdp.ConsumeIntegralInRange<std::size_t>(0, old_text.size());
        std::size_t len = fdp.ConsumeIntegralInRange<std::size_t>(0, 120);
        e.text = old_text.substr(from, len);
        break;
      }
      case 5:
        e.text = old_text.substr(e.offset, e.length) + old_text.substr(e.offset, e.length);
        break;
      default:
        e.text = fdp.ConsumeRandomLengthString(8) + "\n";
        break;
    }
    std::vector<muh::Edit> before = set.edits();
    bool expect_ok = true;
    for (const muh::Edit& have : before) {
      if (!have.SameChange(e) && Clash(have, e)) expect_ok = false;
    }
    // A same change merges only when nothing clashes; a clashing edit in a
    // clash-free set cannot also equal a member, so the two cases are apart.
    muh::Edit conflict;
    bool ok = set.Add(e, &conflict);
    FUZZ_CHECK(ok == expect_ok,
               "EditSet::Add(" + Describe(e) + ") returned " + (ok ? "true" : "false"));
    if (!ok) {
      FUZZ_CHECK(Clash(conflict, e),
                 "reported conflict " + Describe(conflict) + " does not clash with " + Describe(e));
      FUZZ_CHECK(set.edits().size() == before.size(), "a refused edit changed the set");
    }
  }

  const std::vector<muh::Edit>& edits = set.edits();
  for (std::size_t k = 0; k + 1 < edits.size(); ++k) {
    const muh::Edit& a = edits[k];
    const muh::Edit& b = edits[k + 1];
    FUZZ_CHECK(a.offset <= b.offset && a.End() <= b.offset && !Clash(a, b),
               "edits out of order or overlapping: " + Describe(a) + " then " + Describe(b));
  }
  const std::string new_text = muh::ApplyEdits(old_text, edits);
  FUZZ_CHECK(new_text == Splice(old_text, edits),
             "ApplyEdits disagrees with a left-to-right splice");

  const std::vector<std::string_view> old_lines = muh::SplitLines(old_text);
  const std::vector<std::string_view> new_lines = muh::SplitLines(new_text);
  {
    std::string joined;
    for (std::size_t k = 0; k < old_lines.size(); ++k) {
      std::string_view l = old_lines[k];
      FUZZ_CHECK(!l.empty(), "SplitLines gave an empty line");
      FUZZ_CHECK(k + 1 == old_lines.size() || l.back() == '\n',
                 "SplitLines: line " + std::to_string(k + 1) + " lacks its '\\n'");
      joined.append(l);
    }
    FUZZ_CHECK(joined == old_text, "SplitLines lost bytes");
  }
  CheckLineChanges(old_lines, new_lines, muh::DiffLines(old_lines, new_lines));
  CheckRoundTrip(old_text, new_text);

  ParseAnyPatch(old_text);
  return 0;
}
