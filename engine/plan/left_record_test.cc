#include "engine/plan/left_record.h"

#include <doctest/doctest.h>

#include "engine/plan/hand_tuned_record.h"

namespace muh {

namespace {

Site At(const std::string& path, std::size_t begin, std::size_t end, int line, std::string now) {
  Site s;
  s.path = path;
  s.begin = begin;
  s.end = end;
  s.line = line;
  s.current = std::move(now);
  return s;
}

RuleOutcome Outcome(const std::string& id, RuleStatus status, std::vector<Site> found) {
  RuleOutcome o;
  o.rule_id = id;
  o.status = status;
  o.found = std::move(found);
  return o;
}

}  // namespace

TEST_CASE("a value's fingerprint is its tokens': blanks and comments are no edit") {
  CHECK(ValueFingerprint("64").size() == 8);
  CHECK(ValueFingerprint("32 * 1024") == ValueFingerprint("32  *\r\n   1024 "));
  CHECK(ValueFingerprint("32 * 1024") == ValueFingerprint("32*1024"));
  CHECK(ValueFingerprint("[a,\n b]") == ValueFingerprint("[a,\r\n b]"));
  CHECK(ValueFingerprint("[{\"M\": 256},  # best\n {\"M\":128}]") ==
        ValueFingerprint("[{\"M\":256},\n    # a comment line\n {\"M\": 128}]"));
  CHECK(ValueFingerprint("x if c \\\n else y") == ValueFingerprint("x if c else y"));
  // Words stay apart; strings stay as written, a '#' in one included.
  CHECK(ValueFingerprint("a if b else c") != ValueFingerprint("aifbelsec"));
  CHECK(ValueFingerprint("'a b'") != ValueFingerprint("'ab'"));
  CHECK(ValueFingerprint("'#x' + 1") != ValueFingerprint("'#y' + 1"));
  CHECK(ValueFingerprint("64") != ValueFingerprint("48"));
  CHECK(ValueFingerprint("") == ValueFingerprint("  \n # only a comment"));
}

TEST_CASE("the sites no edit touches are recorded, by their index among the rule's sites") {
  PlanResult plan;
  Site a = At("f.py", 10, 12, 3, "64");
  Site b = At("f.py", 20, 22, 4, "64");
  Site c = At("f.py", 30, 32, 5, "16");
  plan.outcomes.push_back(Outcome("tiers", RuleStatus::kRewrites, {a, b, c}));
  plan.outcomes.push_back(Outcome("skipped", RuleStatus::kSkipped, {c}));
  plan.outcomes.push_back(Outcome("dead", RuleStatus::kDead, {c}));
  plan.edits["f.py"].push_back(Edit{"f.py", 10, 2, "32", "tiers", ""});
  std::vector<LeftRecord> left = LeftSites(plan);
  REQUIRE(left.size() == 4);
  CHECK(left[0] == LeftRecord{"tiers", 1, "f.py", 4, ValueFingerprint("64")});
  CHECK(left[1] == LeftRecord{"tiers", 2, "f.py", 5, ValueFingerprint("16")});
  CHECK(left[2].rule_id == "skipped");  // a skipped rule's sites are the tree's too
  CHECK(left[3].rule_id == "dead");
  std::string suffix = LeftSuffix(left, "tiers");
  CHECK(suffix ==
        "; left: 1@f.py:4=" + ValueFingerprint("64") + ", 2@f.py:5=" + ValueFingerprint("16"));
  CHECK(LeftSuffix(left, "failed").empty());
}

TEST_CASE("an insertion at a site's end touches it: the autotune append") {
  PlanResult plan;
  plan.outcomes.push_back(Outcome("list", RuleStatus::kRewrites, {At("t.py", 5, 40, 2, "[...]")}));
  plan.edits["t.py"].push_back(Edit{"t.py", 40, 0, ", x", "list", ""});
  CHECK(LeftSites(plan).empty());
}

TEST_CASE("a status line's records read back, the hand-tuned one beside them") {
  PatchPreamble p = ReadPreamble(
      {"muhpatch: rule r: rewrites; hand-tuned: a.py:3; left: 0@a.py:1=0123abcd, 2@b "
       "c.py:9=89abcdef",
       "muhpatch: rule d: dead; left: 0@x.py:7=deadbeef\r",
       "muhpatch: rule bad: dead; left: x@a.py:1=0123abcd, 1@a.py=0123abcd, 1@a.py:1=short"});
  CHECK(p.statuses.at("r") == "rewrites");
  CHECK(p.statuses.at("d") == "dead");
  CHECK(p.statuses.at("bad") == "dead");
  CHECK(p.hand_tuned == std::vector<HandTunedRecord>{{"r", "a.py", 3}});
  CHECK(p.left == std::vector<LeftRecord>{{"r", 0, "a.py", 1, "0123abcd"},
                                          {"r", 2, "b c.py", 9, "89abcdef"},
                                          {"d", 0, "x.py", 7, "deadbeef"}});
  CHECK(StatusWithoutRecord("dead; left: 0@x.py:7=deadbeef") == "dead");
}

TEST_CASE("a left record's path holding `, ` is escaped: the site stays watched") {
  std::vector<LeftRecord> records = {{"r", 0, "vllm/a, b.py", 4, "0123abcd"},
                                     {"r", 1, "vllm/50%.py", 5, "89abcdef"}};
  std::string suffix = LeftSuffix(records, "r");
  CHECK(suffix == "; left: 0@vllm/a%2C b.py:4=0123abcd, 1@vllm/50%25.py:5=89abcdef");
  CHECK(ReadPreamble({"muhpatch: rule r: dead" + suffix}).left == records);
  // An entry whose path escape is broken is ignored, as any unreadable one.
  CHECK(ReadLeftRecords("r", "0@a%2.py:1=0123abcd").empty());
}

}  // namespace muh
