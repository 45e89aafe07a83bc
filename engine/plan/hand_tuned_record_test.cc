#include "engine/plan/hand_tuned_record.h"

#include <doctest/doctest.h>

#include "engine/plan/plan_result.h"

namespace muh {

TEST_CASE("a hand-tuned record is written on its rule's status line and read back") {
  std::vector<HandTunedRecord> records = {
      {"moe", "vllm/f.py", 126}, {"moe", "vllm/f.py", 130}, {"other", "vllm/g.py", 7}};
  CHECK(HandTunedSuffix(records, "moe") == "; hand-tuned: vllm/f.py:126, vllm/f.py:130");
  CHECK(HandTunedSuffix(records, "none") == "");
  std::vector<std::string> preamble = {
      "muhpatch: rule moe: rewrites" + HandTunedSuffix(records, "moe"),
      "muhpatch: rule other: rewrites" + HandTunedSuffix(records, "other") + "\r",
      "muhpatch: rule plain: at value", "some mail header: 1"};
  CHECK(PreambleHandTuned(preamble) == records);
  CHECK(StatusWithoutRecord("rewrites; hand-tuned: vllm/f.py:126") == "rewrites");
  CHECK(StatusWithoutRecord("at value") == "at value");
  CHECK(RecordedLines(records, "vllm/f.py") == std::vector<int>{126, 130});
}

TEST_CASE("a record entry without a line number is ignored") {
  CHECK(
      PreambleHandTuned({"muhpatch: rule r: rewrites; hand-tuned: a.py, b.py:x, c.py:0"}).empty());
}

TEST_CASE("ReadPreamble reads each status line once: its status and its records") {
  PatchPreamble p = ReadPreamble(
      {"mail: header", "muhpatch: rule moe: rewrites; hand-tuned: f.py:3",
       "muhpatch: rule plain: at value\r", "muhpatch: rule bare", "muhpatch: rule moe: at value"});
  // The first line of a rule counts; a second is a problem at its line.
  CHECK(p.statuses ==
        std::map<std::string, std::string>{{"moe", "rewrites"}, {"plain", "at value"}});
  CHECK(p.status_lines == std::map<std::string, int>{{"moe", 2}, {"plain", 3}});
  CHECK(p.hand_tuned == std::vector<HandTunedRecord>{{"moe", "f.py", 3}});
  REQUIRE(p.problems.size() == 1);
  CHECK(p.problems[0].rule_id == "moe");
  CHECK(p.problems[0].line == 5);
  CHECK(p.problems[0].what ==
        "a second status line for rule 'moe' (the first is line 2): muhpatch writes one line a "
        "rule, so this one was added by hand, and the state the patch records for the rule is "
        "not trusted");
}

TEST_CASE("ReadPreamble: a status muhpatch never writes is a problem at its line") {
  PatchPreamble p = ReadPreamble({"muhpatch: rule r: at valu; left: 0@a.py:3=0000abcd",
                                  "muhpatch: rule s: hand-tuned", "muhpatch: rule t: retired"});
  REQUIRE(p.problems.size() == 1);
  CHECK(p.problems[0].rule_id == "r");
  CHECK(p.problems[0].line == 1);
  CHECK(p.problems[0].what ==
        "the status line for rule 'r' records 'at valu', which is no status muhpatch writes "
        "(rewrites, at value, skipped, no value, failed, dead, hand-tuned, retired): it was "
        "edited by hand");
  for (RuleStatus s : {RuleStatus::kRewrites, RuleStatus::kAlreadyApplied, RuleStatus::kSkipped,
                       RuleStatus::kNoValue, RuleStatus::kFailed, RuleStatus::kDead,
                       RuleStatus::kHandTuned, RuleStatus::kRetired}) {
    CHECK(IsRuleStatusName(RuleStatusName(s)));
  }
  CHECK_FALSE(IsRuleStatusName("rewrite"));
}

TEST_CASE("ReadPreamble: the line saying the patch was made with --include-dead") {
  CHECK(ReadPreamble({std::string(kIncludeDeadLine), "muhpatch: rule r: rewrites"}).include_dead);
  CHECK(ReadPreamble({std::string(kIncludeDeadLine) + "\r"}).include_dead);
  CHECK(ReadPreamble({std::string(kIncludeDeadLine) + " \t"}).include_dead);
  CHECK(ReadPreamble({"\xEF\xBB\xBF" + std::string(kIncludeDeadLine)}).include_dead);
  CHECK(ReadPreamble({"\xEF\xBB\xBFmuhpatch: rule r: dead"}).statuses.count("r") == 1);
  CHECK_FALSE(ReadPreamble({"muhpatch: rule r: rewrites"}).include_dead);
  CHECK_FALSE(ReadPreamble({std::string(kIncludeDeadLine) + " please"}).include_dead);
}

TEST_CASE("a record's path holding a comma or a semicolon is written escaped and read back whole") {
  std::vector<HandTunedRecord> records = {{"moe", "vllm/a, b; c.py", 126}};
  std::string line = "muhpatch: rule moe: rewrites" + HandTunedSuffix(records, "moe");
  CHECK(line == "muhpatch: rule moe: rewrites; hand-tuned: vllm/a%2C b%3B c.py:126");
  CHECK(PreambleHandTuned({line}) == records);
}

}  // namespace muh
