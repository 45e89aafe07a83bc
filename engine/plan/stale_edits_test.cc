#include "engine/plan/stale_edits.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("a stale patch names each rule's line that it leaves otherwise than the rules") {
  const std::string text = "a = 1\nb = 2\nc = 3\n";
  std::map<std::string, SourceText> base = {{"f.py", SourceText("f.py", text)}};
  PlanResult plan;
  RuleOutcome a, b;
  a.rule_id = "ra";
  b.rule_id = "rb";
  Site s;
  s.path = "f.py";
  s.begin = text.find("1");
  a.found = {s, s};  // two sites on one line: named once
  s.begin = text.find("3");
  b.found = {s};
  plan.outcomes = {a, b};
  std::vector<StaleEdit> got = StaleEdits(plan, base, {}, {{"f.py", "a = 10\nb = 2\nc = 3\n"}},
                                          {{"f.py", "a = 11\nb = 2\nc = 3\n"}});
  REQUIRE(got.size() == 1);
  CHECK(got[0].rule_id == "ra");
  CHECK(got[0].line == 1);
  CHECK(got[0].committed == "a = 10");
  CHECK(got[0].regenerated == "a = 11");
  // A file the committed patch leaves alone is base's.
  got = StaleEdits(plan, base, {}, {}, {{"f.py", "a = 1\nb = 2\nc = 30\r\n"}});
  REQUIRE(got.size() == 1);
  CHECK(got[0].rule_id == "rb");
  CHECK(got[0].line == 3);
  CHECK(got[0].committed == "c = 3");
  CHECK(got[0].regenerated == "c = 30");
  CHECK(StaleEdits(plan, base, {}, {}, {}).empty());
}

TEST_CASE("a stale line is found where the hunks and edits before it moved it") {
  const std::string text = "x = 0\na = 1\n";
  std::map<std::string, SourceText> base = {{"f.py", SourceText("f.py", text)}};
  PlanResult plan;
  RuleOutcome a;
  a.rule_id = "ra";
  Site s;
  s.path = "f.py";
  s.begin = text.find("1");
  a.found = {s};
  plan.outcomes = {a};
  // The rules insert a line before the site; the committed patch two.
  plan.edits["f.py"] = {{"f.py", 0, 0, "# one\n", "other", ""},
                        {"f.py", s.begin, 1, "2", "ra", ""}};
  FilePatch fp;
  fp.path = "f.py";
  PatchHunk h;
  h.old_start = 1;
  h.old_count = 1;
  h.new_start = 1;
  h.new_count = 3;
  fp.hunks = {h};
  std::vector<StaleEdit> got = StaleEdits(plan, base, {fp}, {{"f.py", "# a\n# b\nx = 0\na = 1\n"}},
                                          {{"f.py", "# one\nx = 0\na = 2\n"}});
  REQUIRE(got.size() == 1);
  CHECK(got[0].line == 2);
  CHECK(got[0].committed == "a = 1");
  CHECK(got[0].regenerated == "a = 2");
}

}  // namespace muh
