// What recovery says: a file a person changed after a crash names both ways
// out, a journal it cannot read is bad input with the command that clears
// it, a recovery that worked says what it did, and readers hear of a
// journal left behind (tree_io.h).
#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <string>

#include "engine/io/fault_syscalls.h"
#include "engine/io/test_tree.h"
#include "engine/io/tree_io.h"

namespace muh {
namespace {

namespace fs = std::filesystem;
using testing::FaultySysCalls;
using testing::Op;
using testing::TempDir;

const std::map<std::string, std::string> kOld = {{"a.py", "A = 1\n"}, {"pkg/b.py", "B = 2\n"}};
const std::map<std::string, std::string> kNew = {{"a.py", "A = 10\n"}, {"pkg/b.py", "B = 20\n"}};

TreeIo OpenTree(const TempDir& dir, SysCalls* sys = nullptr) {
  TreeIo tree;
  Diagnostic err;
  REQUIRE(TreeIo::Open(dir.str(), &tree, &err));
  tree.set_syscalls(sys);
  return tree;
}

std::map<std::string, FileUpdate> UpdatesToNew() {
  std::map<std::string, FileUpdate> out;
  for (const auto& [rel, text] : kNew) out[rel] = FileUpdate{kOld.at(rel), text};
  return out;
}

// An apply killed right after it renamed its first file (a.py) over the old one.
void KillAfterFirstRename(const TempDir& dir) {
  for (const auto& [rel, text] : kOld) dir.Write(rel, text);
  FaultySysCalls sys;
  const std::string a = fs::canonical(dir.path()).string() + "/a.py";
  sys.before = [&sys, &a](Op op, int i, const std::string& path) {
    if (op == Op::kRename && path == a && sys.die_at == 0) sys.die_at = i + 1;
  };
  std::vector<Diagnostic> errs;
  OpenTree(dir, &sys).WriteAll(UpdatesToNew(), &errs);
}

std::string BackupOf(const TempDir& dir, const std::string& base) {
  for (const auto& e : fs::directory_iterator(dir.path())) {
    std::string name = e.path().filename().string();
    if (name.rfind("." + base + ".muhpatch-tmp.", 0) == 0 && name.size() > 4 &&
        name.substr(name.size() - 4) == ".old") {
      return name;
    }
  }
  return "";
}

}  // namespace

TEST_CASE("a file a person changed after a crash: the error names it and both ways out") {
  for (bool keep : {true, false}) {
    TempDir dir;
    KillAfterFirstRename(dir);
    REQUIRE(dir.Slurp("a.py") == kNew.at("a.py"));
    const std::string backup = BackupOf(dir, "a.py");
    REQUIRE(!backup.empty());
    dir.Write("a.py", "A = 10  # tuned by hand\n");  // the person's edit
    const TreeIo tree = OpenTree(dir);
    for (int run = 0; run < 2; ++run) {  // every apply stops the same way
      std::vector<Diagnostic> errs;
      const WriteResult r = tree.RecoverInterruptedApply(&errs);
      CHECK(r.cause == FailureCause::kConflict);
      CHECK(ExitCodeFor(r) == 2);
      REQUIRE(errs.size() == 1);
      const std::string b = "'" + dir.str() + "/" + backup + "'";
      CHECK(errs[0].Format() ==
            "a.py: error: changed since an apply was interrupted, so it is left as it is, and "
            "every apply stops here until you choose: to keep it as it is now, rm " +
                b + "; to take back its content from before that apply, mv " + b + " '" +
                dir.str() + "/a.py'");
      CHECK(dir.Slurp("a.py") == "A = 10  # tuned by hand\n");
      CHECK(fs::exists(dir.path() / kJournalName));
    }
    // Either command the error gives clears the way.
    if (keep) {
      fs::remove(dir.path() / backup);
    } else {
      fs::rename(dir.path() / backup, dir.path() / "a.py");
    }
    std::vector<Diagnostic> errs;
    const WriteResult r = tree.RecoverInterruptedApply(&errs);
    CHECK(r.ok());
    CHECK(dir.Slurp("a.py") == (keep ? "A = 10  # tuned by hand\n" : kOld.at("a.py")));
    CHECK(dir.Slurp("pkg/b.py") == kOld.at("pkg/b.py"));
    CHECK_FALSE(fs::exists(dir.path() / kJournalName));
    REQUIRE(!errs.empty());
    CHECK(errs.back().Format() ==
          ".muhpatch-journal: note: rolled back an apply that was interrupted (2 files)");
  }
}

TEST_CASE("a journal recovery cannot read is bad input, with the command that clears it") {
  TempDir dir;
  for (const auto& [rel, text] : kOld) dir.Write(rel, text);
  dir.Write(kJournalName, "muhpatch-journal 1\nstate sideways\nend\n");
  const TreeIo tree = OpenTree(dir);
  std::vector<Diagnostic> errs;
  const WriteResult r = tree.RecoverInterruptedApply(&errs);
  CHECK(r.cause == FailureCause::kBadInput);
  CHECK(ExitCodeFor(r) == 2);
  REQUIRE(errs.size() == 1);
  CHECK(errs[0].Format().find(".muhpatch-journal: error: cannot read the journal of an interrupted "
                              "apply: ") == 0);
  const std::string tail =
      "; muhpatch changes nothing while it is there. Once the files it names "
      "hold what you want, rm '" +
      dir.str() + "/.muhpatch-journal' and run apply again";
  CHECK(errs[0].message.substr(errs[0].message.size() - tail.size()) == tail);
  CHECK(fs::exists(dir.path() / kJournalName));
}

TEST_CASE("InterruptedApply: a reader hears of a journal left behind, and changes nothing") {
  TempDir dir;
  for (const auto& [rel, text] : kOld) dir.Write(rel, text);
  CHECK_FALSE(OpenTree(dir).InterruptedApply().has_value());
  KillAfterFirstRename(dir);
  const auto before = dir.Snapshot();
  std::optional<Diagnostic> d = OpenTree(dir).InterruptedApply();
  REQUIRE(d.has_value());
  CHECK(d->Format() ==
        ".muhpatch-journal: warning: an apply was interrupted here (2 files: some may hold their "
        "new content); this run reads the files as they are; the next apply finishes or rolls it "
        "back first");
  CHECK(dir.Snapshot() == before);
  dir.Write(kJournalName, "not a journal\n");
  d = OpenTree(dir).InterruptedApply();
  REQUIRE(d.has_value());
  CHECK(d->severity == Severity::kWarning);
  CHECK(d->message.find("its journal cannot be read (") != std::string::npos);
}

}  // namespace muh
