#include "engine/plan/hand_tuned_record.h"

#include <doctest/doctest.h>

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
  CHECK(p.statuses ==
        std::map<std::string, std::string>{{"moe", "at value"}, {"plain", "at value"}});
  CHECK(p.hand_tuned == std::vector<HandTunedRecord>{{"moe", "f.py", 3}});
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
