#include "engine/io/write_journal.h"

#include <doctest/doctest.h>

namespace muh {
namespace {

TEST_CASE("FormatJournal and ParseJournal round-trip awkward paths") {
  Journal j;
  j.state = JournalState::kRollingBack;
  JournalEntry e;
  e.target = "dir with space/100%\n.py";
  e.temp = "dir with space/.100%\n.py.muhpatch-tmp.7.new";
  e.backup = "dir with space/.100%\n.py.muhpatch-tmp.7.old";
  e.old_size = 12;
  e.old_hash = ContentHash("old");
  e.new_size = 0;
  e.new_hash = 0xffffffffffffffffULL;
  j.entries.push_back(e);
  const std::string text = FormatJournal(j);
  CHECK(text.find('\n') == text.find("\nstate"));  // paths stay on one line
  Journal back;
  std::string err;
  REQUIRE_MESSAGE(ParseJournal(text, &back, &err), err);
  CHECK(back.state == JournalState::kRollingBack);
  REQUIRE(back.entries.size() == 1);
  CHECK(back.entries[0].target == e.target);
  CHECK(back.entries[0].temp == e.temp);
  CHECK(back.entries[0].backup == e.backup);
  CHECK(back.entries[0].old_size == 12);
  CHECK(back.entries[0].old_hash == e.old_hash);
  CHECK(back.entries[0].new_hash == e.new_hash);
}

TEST_CASE("ParseJournal refuses what recovery must not act on") {
  const std::string head = "muhpatch-journal 1\nstate committing\n";
  const auto error = [](const std::string& text) {
    Journal j;
    std::string err;
    return ParseJournal(text, &j, &err) ? "" : err;
  };
  CHECK(error(head + "end\n").empty());
  CHECK(error(head) == "line 2: missing 'end' (journal cut short)");
  CHECK(error("muhpatch-journal 2\n") == "line 1: expected 'muhpatch-journal 1'");
  CHECK(error(head + "file ../a.py ../.a.py.muhpatch-tmp.1.new ../.a.py.muhpatch-tmp.1.old 0 0 0 "
                     "0\nend\n") == "line 3: target leaves the tree");
  CHECK(error(head + "file a.py b.py .a.py.muhpatch-tmp.1.old 0 0 0 0\nend\n") ==
        "line 3: temp and backup must be muhpatch's files beside their target");
  CHECK(error(head + "file d/a.py .a.py.muhpatch-tmp.1.new d/.a.py.muhpatch-tmp.1.old 0 0 0 "
                     "0\nend\n") ==
        "line 3: temp and backup must be muhpatch's files beside their target");
  CHECK(error(head + "file a.py .a.py.muhpatch-tmp.1.new .a.py.muhpatch-tmp.1.old 0 zz 0 "
                     "0\nend\n") == "line 3: bad size or hash");
  CHECK(error(head + "end\nfile\n") == "line 4: text after 'end'");
}

TEST_CASE("ContentHash is FNV-1a 64") {
  CHECK(ContentHash("") == 0xcbf29ce484222325ULL);
  CHECK(ContentHash("a") == 0xaf63dc4c8601ec8cULL);
}

}  // namespace
}  // namespace muh
