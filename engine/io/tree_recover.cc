// TreeIo::RecoverInterruptedApply: rolls a killed apply forward or back from
// its journal (see tree_io.h and write_journal.h).
#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <new>
#include <optional>

#include "engine/base/exit_codes.h"
#include "engine/base/out_of_memory.h"
#include "engine/base/plural.h"
#include "engine/io/commit_steps.h"
#include "engine/io/tree_io.h"
#include "engine/io/tree_paths.h"

namespace muh {

namespace {

using io::Why;

// `s` in single quotes, as a POSIX shell reads it back.
std::string ShellQuoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

// A journal entry with absolute paths and what is on disk now.
struct Found {
  const JournalEntry* entry;
  std::string target, temp, backup;  // absolute
  bool temp_exists = false;
  bool backup_exists = false;
};

// Which of the two contents a file holds.
enum class Holds { kOld, kNew, kOther };

class Recovery {
 public:
  Recovery(SysCalls* sys, std::string real_root, std::string shown_root,
           std::vector<Diagnostic>* errs)
      : sys_(sys),
        real_root_(std::move(real_root)),
        shown_root_(std::move(shown_root)),
        errs_(errs) {}

  // Out of memory (std::bad_alloc) goes on to the caller (exit 4) while
  // this run has renamed nothing; after a rename, ExitOutOfMemory exits 3:
  // the journal still holds the state, for the next apply.
  WriteResult Run();

 private:
  WriteResult Steps();
  // Renames FROM over TO (a change to a target), noting that this run did.
  int Rename(const std::string& from, const std::string& to) {
    if (!renamed_) note_.emplace(kExitWriteFailed, kRecoveryWords);
    renamed_ = true;
    return sys_->Rename(from.c_str(), to.c_str());
  }
  static constexpr char kRecoveryWords[] =
      " while finishing an interrupted apply; .muhpatch-journal keeps its state for the next "
      "apply";
  Holds WhatHolds(const std::string& path, const JournalEntry& e, bool temp) const;
  bool CanRollForward() const;
  WriteResult RollForward();
  WriteResult RollBack();
  WriteResult FinishCommit();
  // Unlinks our file PATH of F if it exists; false (reported) on failure.
  bool Remove(const Found& f, const std::string& path);
  // Removes the journal once nothing it names is left.
  void Done(WriteResult* result);
  std::string Rel(const std::string& real) const { return io::RelativeTo(real, real_root_); }
  // A tree-relative path as the user may type it: under the root as given,
  // quoted for the shell.
  std::string Typed(const std::string& rel) const {
    return ShellQuoted(io::JoinRoot(shown_root_, rel));
  }

  SysCalls* sys_;
  std::string real_root_;
  std::string shown_root_;
  std::vector<Diagnostic>* errs_;
  Journal journal_;
  std::vector<Found> found_;
  std::vector<std::string> dirs_;
  std::vector<std::string> removed_;
  bool renamed_ = false;
  std::optional<AbruptExitNote> note_;
};

Holds Recovery::WhatHolds(const std::string& path, const JournalEntry& e, bool temp) const {
  std::string bytes;
  struct stat st;
  if (!io::ReadRegular(sys_, path, std::max(e.old_size, e.new_size), &bytes, &st)) {
    return Holds::kOther;
  }
  const std::uint64_t hash = ContentHash(bytes);
  if (bytes.size() == e.new_size && hash == e.new_hash) return Holds::kNew;
  if (!temp && bytes.size() == e.old_size && hash == e.old_hash) return Holds::kOld;
  return Holds::kOther;
}

bool Recovery::CanRollForward() const {
  if (journal_.state != JournalState::kCommitting) return false;
  for (const Found& f : found_) {
    if (f.temp_exists) {
      if (WhatHolds(f.temp, *f.entry, true) != Holds::kNew) return false;
      if (WhatHolds(f.target, *f.entry, false) != Holds::kOld) return false;
    } else if (WhatHolds(f.target, *f.entry, false) != Holds::kNew) {
      return false;
    }
  }
  return true;
}

bool Recovery::Remove(const Found& f, const std::string& path) {
  if (sys_->Unlink(path.c_str()) == 0) {
    removed_.push_back(Rel(path));
    return true;
  }
  if (errno == ENOENT) return true;
  errs_->push_back(MakeError(
      f.entry->target, 0, 0,
      "cannot remove " + io::BaseName(path) + ", left by an interrupted apply" + Why(errno)));
  return false;
}

void Recovery::Done(WriteResult* result) {
  result->removed = removed_;
  if (!result->ok()) return;  // the journal stays for the next run
  if (!io::SyncDirs(sys_, dirs_) || !io::RemoveJournal(sys_, real_root_)) {
    errs_->push_back(MakeError(kJournalName, 0, 0, "cannot remove the apply journal" + Why(errno)));
    result->cause = CauseOfErrno(errno);
    return;
  }
  result->removed.push_back(kJournalName);
}

WriteResult Recovery::RollForward() {
  WriteResult result{WriteState::kWritten, FailureCause::kNone, {}, {}, {}};
  for (const Found& f : found_) {
    result.new_files.push_back(f.entry->target);
    if (!f.temp_exists) continue;
    if (Rename(f.temp, f.target) != 0) {
      errs_->push_back(MakeError(f.entry->target, 0, 0,
                                 "cannot complete an interrupted apply: cannot rename " +
                                     io::BaseName(f.temp) + " over it" + Why(errno)));
      result.state = WriteState::kTorn;
      result.cause = CauseOfErrno(errno);
      result.new_files.pop_back();
      for (std::size_t i = static_cast<std::size_t>(&f - found_.data()) + 1; i < found_.size();
           ++i) {
        if (!found_[i].temp_exists) result.new_files.push_back(found_[i].entry->target);
      }
      std::sort(result.new_files.begin(), result.new_files.end());
      Done(&result);
      return result;
    }
  }
  if (!io::SyncDirs(sys_, dirs_)) {
    errs_->push_back(MakeError(".", 0, 0, "cannot fsync a directory" + Why(errno)));
    result.cause = CauseOfErrno(errno);
    return result;
  }
  for (const Found& f : found_) {
    if (!Remove(f, f.backup)) result.leftovers.push_back(f.entry->backup);
  }
  if (!result.leftovers.empty()) result.cause = FailureCause::kResource;
  Done(&result);
  return result;
}

WriteResult Recovery::RollBack() {
  WriteResult result{WriteState::kRolledBack, FailureCause::kNone, {}, {}, {}};
  for (const Found& f : found_) {
    const JournalEntry& e = *f.entry;
    const bool target_exists = io::PathExists(sys_, f.target);
    if (f.temp_exists && !Remove(f, f.temp)) result.leftovers.push_back(e.temp);
    if (!f.backup_exists) continue;
    const Holds now = target_exists ? WhatHolds(f.target, e, false) : Holds::kOld;
    if (now == Holds::kOther && !f.temp_exists) {
      // Renamed by the interrupted run, then changed by someone else: their
      // edit is kept, and the journal with it, until they choose.
      errs_->push_back(MakeError(
          e.target, 0, 0,
          "changed since an apply was interrupted, so it is left as it is, and every apply stops "
          "here until you choose: to keep it as it is now, rm " +
              Typed(e.backup) + "; to take back its content from before that apply, mv " +
              Typed(e.backup) + " " + Typed(e.target)));
      result.cause = FailureCause::kConflict;
      result.leftovers.push_back(e.backup);
    } else if (now == Holds::kNew || !target_exists) {
      if (Rename(f.backup, f.target) != 0) {
        errs_->push_back(MakeError(e.target, 0, 0,
                                   "cannot restore it from " + io::BaseName(f.backup) +
                                       ", left by an interrupted apply" + Why(errno)));
        result.state = WriteState::kTorn;
        result.cause = CauseOfErrno(errno);
        result.new_files.push_back(e.target);
        result.leftovers.push_back(e.backup);
        continue;
      }
      errs_->push_back(
          MakeNote(e.target, 0, 0, "restored its content from before an interrupted apply"));
    } else if (!Remove(f, f.backup)) {
      result.leftovers.push_back(e.backup);
    }
  }
  if (result.ok() && !result.leftovers.empty()) result.cause = FailureCause::kResource;
  Done(&result);
  return result;
}

WriteResult Recovery::FinishCommit() {
  WriteResult result{WriteState::kUnchanged, FailureCause::kNone, {}, {}, {}};
  for (const Found& f : found_) {
    if (f.temp_exists && !Remove(f, f.temp)) result.leftovers.push_back(f.entry->temp);
    if (f.backup_exists && !Remove(f, f.backup)) result.leftovers.push_back(f.entry->backup);
  }
  if (!result.leftovers.empty()) result.cause = FailureCause::kResource;
  Done(&result);
  return result;
}

WriteResult Recovery::Run() {
  try {
    return Steps();
  } catch (const std::bad_alloc&) {
    if (!renamed_) throw;
    ReleaseMemoryReserve();
    ExitOutOfMemory("");  // with kRecoveryWords
  }
}

WriteResult Recovery::Steps() {
  WriteResult none{WriteState::kUnchanged, FailureCause::kNone, {}, {}, {}};
  const std::string path = io::JoinRoot(real_root_, kJournalName);
  const std::string fresh = io::JoinRoot(real_root_, kJournalNewName);
  std::string text;
  struct stat st;
  if (!io::ReadRegular(sys_, path, kDefaultMaxTreeFileBytes, &text, &st)) {
    if (errno != ENOENT) {
      errs_->push_back(MakeError(kJournalName, 0, 0,
                                 "cannot read the journal of an interrupted apply" + Why(errno)));
      none.cause =
          errno == EINVAL || errno == EFBIG ? FailureCause::kInternal : CauseOfErrno(errno);
      return none;
    }
    // A journal being written when the run died never took effect.
    if (sys_->Unlink(fresh.c_str()) == 0) {
      none.removed.push_back(kJournalNewName);
    } else if (errno != ENOENT) {
      errs_->push_back(MakeError(kJournalNewName, 0, 0, "cannot remove it" + Why(errno)));
      none.cause = CauseOfErrno(errno);
    }
    return none;
  }
  std::string err;
  if (!ParseJournal(text, &journal_, &err)) {
    // Not muhpatch's own state any more: bad input, for a person to judge.
    errs_->push_back(MakeError(
        kJournalName, 0, 0,
        "cannot read the journal of an interrupted apply: " + err +
            "; muhpatch changes nothing while it is there. Once the files it names hold what you "
            "want, rm " +
            Typed(kJournalName) + " and run apply again"));
    none.cause = FailureCause::kBadInput;
    return none;
  }
  // Every file it names must lie in the tree as it is now: a directory on
  // the way replaced by a symlink to elsewhere (a helper probe of 3cee5a3:
  // vllm/d -> ../../outside) would have recovery rename over a file
  // outside it. Lexical checks (no `..`, not absolute) are ParseJournal's.
  for (const JournalEntry& e : journal_.entries) {
    std::string dir = io::DirName(io::JoinRoot(real_root_, e.target));
    std::string real;
    if (io::RealPath(dir, &real) && !io::IsWithin(real, real_root_)) {
      errs_->push_back(MakeError(
          kJournalName, 0, 0,
          "the journal of an interrupted apply names " + e.target +
              ", whose directory now resolves outside the tree (" + real +
              "); muhpatch changes nothing while it is there. Once the files it names hold what "
              "you want, rm " +
              Typed(kJournalName) + " and run apply again"));
      none.cause = FailureCause::kBadInput;
      return none;
    }
  }
  for (const JournalEntry& e : journal_.entries) {
    Found f;
    f.entry = &e;
    f.target = io::JoinRoot(real_root_, e.target);
    f.temp = io::JoinRoot(real_root_, e.temp);
    f.backup = io::JoinRoot(real_root_, e.backup);
    f.temp_exists = io::PathExists(sys_, f.temp);
    f.backup_exists = io::PathExists(sys_, f.backup);
    dirs_.push_back(io::DirName(f.target));
    found_.push_back(std::move(f));
  }
  std::sort(dirs_.begin(), dirs_.end());
  dirs_.erase(std::unique(dirs_.begin(), dirs_.end()), dirs_.end());
  WriteResult result = journal_.state == JournalState::kCommitted ? FinishCommit()
                       : CanRollForward()                         ? RollForward()
                                                                  : RollBack();
  if (result.ok()) {
    const char* what = result.state == WriteState::kWritten      ? "completed"
                       : result.state == WriteState::kRolledBack ? "rolled back"
                                                                 : "cleaned up after";
    errs_->push_back(MakeNote(kJournalName, 0, 0,
                              fmt::format("{} an apply that was interrupted ({})", what,
                                          Counted(found_.size(), "file"))));
  }
  return result;
}

}  // namespace

WriteResult TreeIo::RecoverInterruptedApply(std::vector<Diagnostic>* errs) const {
  Recovery recovery(sys_, real_root_, root_, errs);
  return recovery.Run();
}

std::optional<Diagnostic> TreeIo::InterruptedApply() const {
  std::string text;
  struct stat st;
  const std::string path = io::JoinRoot(real_root_, kJournalName);
  if (!io::ReadRegular(sys_, path, kDefaultMaxTreeFileBytes, &text, &st)) {
    if (errno == ENOENT) return std::nullopt;
    return Diagnostic{kJournalName, 0, 0, Severity::kWarning,
                      "an apply was interrupted here, and its journal cannot be read" + Why(errno) +
                          "; this run reads the files as they are"};
  }
  Journal journal;
  std::string err;
  if (!ParseJournal(text, &journal, &err)) {
    return Diagnostic{kJournalName, 0, 0, Severity::kWarning,
                      "an apply was interrupted here, and its journal cannot be read (" + err +
                          "); this run reads the files as they are, and apply says what to do"};
  }
  const char* state = journal.state == JournalState::kPreparing ? "none of them changed yet"
                      : journal.state == JournalState::kCommitted
                          ? "each holds its new content, only the backups are left"
                          : "some may hold their new content";
  return Diagnostic{
      kJournalName, 0, 0, Severity::kWarning,
      fmt::format("an apply was interrupted here ({}: {}); this run reads the files as "
                  "they are; the next apply finishes or rolls it back first",
                  Counted(journal.entries.size(), "file"), state)};
}

}  // namespace muh
