#include "engine/app/kept_sites.h"

#include <doctest/doctest.h>

#include <map>
#include <string>

namespace muh {

namespace {

// Lines 10-14 of a.py: 11 changes, 13 is context.
std::vector<FilePatch> Patch() {
  FilePatch f;
  f.path = f.old_path = "a.py";
  PatchHunk h;
  h.old_start = h.new_start = 10;
  h.old_count = h.new_count = 5;
  h.body = {{' ', "a\n"}, {'-', "b = 1\n"}, {'+', "b = 2\n"},
            {' ', "c\n"}, {' ', "d = 3\n"}, {' ', "e\n"}};
  f.hunks.push_back(h);
  return {f};
}

}  // namespace

TEST_CASE("a line the patch changes, in the old or the new file") {
  CHECK(PatchChangesLine(Patch(), "a.py", 11));
  CHECK_FALSE(PatchChangesLine(Patch(), "a.py", 10));
  CHECK_FALSE(PatchChangesLine(Patch(), "a.py", 13));
  CHECK_FALSE(PatchChangesLine(Patch(), "b.py", 11));
}

TEST_CASE("kept sites outside the patch's changed lines are untouched") {
  RuleOutcome o;
  Site kept;
  kept.path = "a.py";
  kept.line = 13;
  kept.kept = true;
  Site rewritten = kept;
  rewritten.line = 11;
  rewritten.kept = false;
  o.found = {rewritten, kept};
  CHECK(KeptSitesUntouched(Patch(), o, {}));
  o.found[1].line = 11;
  CHECK_FALSE(KeptSitesUntouched(Patch(), o, {}));
  // Unless the patch records the value on that line as hand-tuned.
  o.rule_id = "r";
  CHECK(KeptSitesUntouched(Patch(), o, {}, {{"r", "a.py", 11}}));
  CHECK_FALSE(KeptSitesUntouched(Patch(), o, {}, {{"other", "a.py", 11}}));
  CHECK_FALSE(KeptSitesUntouched(Patch(), o, {}, {{"r", "a.py", 12}}));
}

TEST_CASE("a kept site's line is counted as the patch counts lines") {
  // Lines end in CR alone after line 10: git sees lines 1-10 and one line
  // 11 holding the rest, where Python sees the site at line 14.
  std::string text;
  for (int i = 1; i <= 10; ++i) text += "x" + std::to_string(i) + "\n";
  const std::size_t at = text.size() + 6;  // the `d` of "d = 3"
  text += "a\rb\rc\rd = 3\re\r";
  std::map<std::string, SourceText> files;
  files.emplace("a.py", SourceText("a.py", text));
  RuleOutcome o;
  Site kept;
  kept.path = "a.py";
  kept.begin = at;
  kept.line = files.at("a.py").PositionOf(at).line;
  kept.kept = true;
  o.found = {kept};
  CHECK(kept.line == 14);
  // The patch changes git's line 11: the one that holds the site.
  CHECK_FALSE(KeptSitesUntouched(Patch(), o, files));
  CHECK(KeptSitesUntouched(Patch(), o, {}));  // by Python's line 14: untouched
}

}  // namespace muh
