// TreeIo::WriteAll: every file's new content, all or nothing (see tree_io.h).
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <new>
#include <optional>
#include <set>

#include "engine/base/exit_codes.h"
#include "engine/base/out_of_memory.h"
#include "engine/io/commit_steps.h"
#include "engine/io/held_signals.h"
#include "engine/io/tree_io.h"
#include "engine/io/tree_paths.h"

namespace muh {

namespace {

using io::Why;

// One file of the transaction and how far it got.
struct Target {
  io::Resolved r;
  FileUpdate update;
  std::string dir;     // real directory of r.real
  std::string temp;    // absolute: the new content until renamed
  std::string backup;  // absolute: a hard link to the old content
  bool temp_made = false;
  bool backup_made = false;
  bool renamed = false;
};

// What an exit for lack of memory that nothing could catch says while
// renames are under way (ExitOutOfMemory, exit 3).
constexpr char kTornWords[] =
    " while apply replaced files; some may hold their new content: .muhpatch-journal records"
    " which, and the next apply finishes or undoes the change";

// What ReadRegular found at a path that must hold a target's old content.
enum class Check { kSame, kChanged, kError };

class Transaction {
 public:
  Transaction(SysCalls* sys, std::string real_root, std::vector<Diagnostic>* errs)
      : sys_(sys), real_root_(std::move(real_root)), errs_(errs) {}

  // Out of memory (std::bad_alloc) is handled as any failure: before the
  // commit every file replaced is restored and the bad_alloc goes on to the
  // caller (nothing changed: exit 4); a rollback that fails for another
  // reason returns kTorn. Out of memory again while undoing, with files
  // left new: they are named on stderr and ExitOutOfMemory exits 3 (the
  // journal keeps their state). After the commit it returns kWritten.
  WriteResult Run(std::vector<Target>* targets);

 private:
  WriteResult Steps();
  WriteResult UndoOutOfMemory();
  WriteResult CommittedOutOfMemory();
  bool AnyRenamed() const {
    return std::any_of(targets_->begin(), targets_->end(),
                       [](const Target& t) { return t.renamed; });
  }
  bool NameFiles();
  bool MakeTemp(Target* t);
  bool MakeBackup(Target* t);
  Check StillOld(const Target& t, const std::string& path);
  bool SetState(JournalState state);
  // Report at T (or REL); both keep errno for the caller's CauseOfErrno.
  void Error(const Target& t, const std::string& msg) {
    const int saved = errno;
    errs_->push_back(MakeError(t.r.rel, 0, 0, msg));
    errno = saved;
  }
  void Warn(const std::string& rel, const std::string& msg) {
    const int saved = errno;
    errs_->push_back(Diagnostic{rel, 0, 0, Severity::kWarning, msg});
    errno = saved;
  }
  // Removes a temp or backup of T we made; false (noted) when that fails.
  bool RemoveOwn(const Target& t, const std::string& path);
  // Undoes a failure before the first rename: removes what was made.
  WriteResult Abandon(FailureCause cause);
  // Undoes a failure after renames began: restores every renamed target.
  WriteResult RollBack(FailureCause cause);
  std::string Rel(const std::string& real) const { return io::RelativeTo(real, real_root_); }

  SysCalls* sys_;
  std::string real_root_;
  std::vector<Diagnostic>* errs_;
  std::vector<Target>* targets_ = nullptr;
  std::vector<std::string> dirs_;  // distinct directories of the targets, sorted
  Journal journal_;
  bool journal_stored_ = false;
  bool committed_ = false;
  std::optional<AbruptExitNote> renaming_;  // from "committing" until committed
};

bool Transaction::NameFiles() {
  const std::string pid = std::to_string(::getpid());
  for (Target& t : *targets_) {
    t.dir = io::DirName(t.r.real);
    const std::string stem = t.dir + "/." + io::BaseName(t.r.real) + kTempInfix + pid;
    for (int n = 0;; ++n) {
      const std::string base = n == 0 ? stem : stem + "-" + std::to_string(n);
      if (!io::PathExists(sys_, base + ".new") && !io::PathExists(sys_, base + ".old")) {
        t.temp = base + ".new";
        t.backup = base + ".old";
        break;
      }
      if (n == 100) {
        Error(t, "cannot find a free name for a temp file beside it (" + base + ".new)");
        return false;
      }
    }
    JournalEntry e;
    e.target = Rel(t.r.real);
    e.temp = Rel(t.temp);
    e.backup = Rel(t.backup);
    e.old_size = t.update.old_bytes.size();
    e.old_hash = ContentHash(t.update.old_bytes);
    e.new_size = t.update.new_bytes.size();
    e.new_hash = ContentHash(t.update.new_bytes);
    journal_.entries.push_back(std::move(e));
    dirs_.push_back(t.dir);
  }
  std::sort(dirs_.begin(), dirs_.end());
  dirs_.erase(std::unique(dirs_.begin(), dirs_.end()), dirs_.end());
  return true;
}

bool Transaction::SetState(JournalState state) {
  journal_.state = state;
  journal_stored_ = true;  // even a failed store may have renamed it into place
  if (!io::StoreJournal(sys_, real_root_, journal_)) {
    const int saved = errno;
    errs_->push_back(MakeError(kJournalName, 0, 0, "cannot write the apply journal" + Why(saved)));
    errno = saved;
    return false;
  }
  return true;
}

bool Transaction::MakeTemp(Target* t) {
  const std::string name = io::BaseName(t->temp);
  const int fd =
      sys_->Open(t->temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) {
    Error(*t, "cannot create " + name + Why(errno));
    return false;
  }
  t->temp_made = true;
  io::WritePoint();  // temp file created, empty
  std::string step;
  if (!io::WriteFully(sys_, fd, t->update.new_bytes)) step = "write";
  if (step.empty()) io::WritePoint();  // temp file written, not yet synced
  const struct stat& st = t->r.st;
  if (step.empty() && (st.st_uid != ::geteuid() || st.st_gid != ::getegid())) {
    const bool chowned = sys_->Fchown(fd, st.st_uid, st.st_gid) == 0;  // best effort
    static_cast<void>(chowned);
  }
  if (step.empty() && sys_->Fchmod(fd, st.st_mode & 07777) != 0) step = "set the mode of";
  if (step.empty() && sys_->Fsync(fd) != 0) step = "fsync";
  const int saved = errno;
  if (sys_->Close(fd) != 0 && step.empty()) step = "close";
  if (!step.empty()) {
    errno = step == "close" ? errno : saved;
    Error(*t, "cannot " + step + " " + name + Why(errno));
    return false;
  }
  io::WritePoint();  // temp file complete and synced
  return true;
}

bool Transaction::MakeBackup(Target* t) {
  if (sys_->Link(t->r.real.c_str(), t->backup.c_str()) != 0) {
    Error(*t, "cannot keep its old content as " + io::BaseName(t->backup) + Why(errno));
    return false;
  }
  t->backup_made = true;
  return true;
}

Check Transaction::StillOld(const Target& t, const std::string& path) {
  std::string now;
  struct stat st;
  const std::uint64_t limit = t.update.old_bytes.size();
  if (!io::ReadRegular(sys_, path, limit, &now, &st)) {
    if (errno == ENOENT || errno == EFBIG || errno == EINVAL || errno == ELOOP) {
      return Check::kChanged;
    }
    Error(t, "cannot read it again before replacing it" + Why(errno));
    return Check::kError;
  }
  const bool same =
      st.st_dev == t.r.st.st_dev && st.st_ino == t.r.st.st_ino && now == t.update.old_bytes;
  return same ? Check::kSame : Check::kChanged;
}

bool Transaction::RemoveOwn(const Target& t, const std::string& path) {
  if (sys_->Unlink(path.c_str()) == 0 || errno == ENOENT) return true;
  Warn(t.r.rel, "cannot remove " + io::BaseName(path) + Why(errno) +
                    "; the journal names it for the next apply");
  return false;
}

WriteResult Transaction::Abandon(FailureCause cause) {
  WriteResult result{WriteState::kUnchanged, cause, {}, {}, {}};
  for (const Target& t : *targets_) {
    if (t.temp_made && !RemoveOwn(t, t.temp)) result.leftovers.push_back(Rel(t.temp));
    if (t.backup_made && !RemoveOwn(t, t.backup)) result.leftovers.push_back(Rel(t.backup));
  }
  if (result.leftovers.empty() && journal_stored_ && !io::RemoveJournal(sys_, real_root_)) {
    result.leftovers.push_back(kJournalName);
  }
  return result;
}

WriteResult Transaction::RollBack(FailureCause cause) {
  WriteResult result{WriteState::kUnchanged, cause, {}, {}, {}};
  if (!SetState(JournalState::kRollingBack)) {
    errs_->back().severity = Severity::kWarning;  // the rollback goes on regardless
  }
  for (auto it = targets_->rbegin(); it != targets_->rend(); ++it) {
    Target& t = *it;
    if (!t.renamed) continue;
    result.state = WriteState::kRolledBack;
    if (sys_->Rename(t.backup.c_str(), t.r.real.c_str()) != 0) {
      Error(t, "left with its new content: cannot restore it from " + io::BaseName(t.backup) +
                   Why(errno));
      result.new_files.push_back(t.r.rel);
      result.leftovers.push_back(Rel(t.backup));
      continue;
    }
    t.renamed = false;
    t.backup_made = false;
    errs_->push_back(MakeNote(t.r.rel, 0, 0, "restored its old content"));
  }
  for (const Target& t : *targets_) {
    if (t.temp_made && !t.renamed && !RemoveOwn(t, t.temp)) result.leftovers.push_back(Rel(t.temp));
    if (t.backup_made && !t.renamed && !RemoveOwn(t, t.backup)) {
      result.leftovers.push_back(Rel(t.backup));
    }
  }
  const bool synced = io::SyncDirs(sys_, dirs_);
  if (!result.new_files.empty()) {
    result.state = WriteState::kTorn;
    std::sort(result.new_files.begin(), result.new_files.end());
    errs_->push_back(MakeNote(kJournalName, 0, 0,
                              "keeps the state of this apply; the next apply rolls it back"));
  } else if (result.leftovers.empty() && (!synced || !io::RemoveJournal(sys_, real_root_))) {
    result.leftovers.push_back(kJournalName);
  }
  return result;
}

WriteResult Transaction::Run(std::vector<Target>* targets) {
  targets_ = targets;
  try {
    return Steps();
  } catch (const std::bad_alloc&) {
    ReleaseMemoryReserve();  // room to undo and to say so
    if (committed_) return CommittedOutOfMemory();
    WriteResult undone = UndoOutOfMemory();
    if (undone.state != WriteState::kTorn) throw;  // every target holds its old content
    return undone;
  }
}

WriteResult Transaction::UndoOutOfMemory() {
  try {
    WriteResult undone =
        AnyRenamed() ? RollBack(FailureCause::kResource) : Abandon(FailureCause::kResource);
    if (undone.state == WriteState::kTorn) {
      errs_->push_back(MakeError(kJournalName, 0, 0, "out of memory while apply replaced files"));
    }
    return undone;
  } catch (const std::bad_alloc&) {
    // Temps, backups and the journal may be left: the next apply removes
    // them (the journal names them).
    if (!AnyRenamed()) throw;
    for (const Target& t : *targets_) {
      if (t.renamed) WriteStderrLine({t.r.real, ": error: left with its new content"});
    }
    ExitOutOfMemory("");  // with kTornWords: renaming_ is set
  }
}

WriteResult Transaction::CommittedOutOfMemory() {
  // Every target holds its new content; only removing the backups and the
  // journal ran short. The journal says "committed": the next apply removes
  // what it names.
  WriteResult done{WriteState::kWritten, FailureCause::kNone, {}, {}, {}};
  try {
    Warn(kJournalName, "out of memory while removing the backups; the next apply removes them");
    done.leftovers.push_back(kJournalName);
  } catch (const std::bad_alloc&) {
  }
  return done;
}

WriteResult Transaction::Steps() {
  std::vector<Target>* targets = targets_;
  if (io::PathExists(sys_, io::JoinRoot(real_root_, kJournalName))) {
    errs_->push_back(MakeError(kJournalName, 0, 0,
                               "an interrupted apply's journal is still there; recover it first"));
    return {WriteState::kUnchanged, FailureCause::kInternal, {}, {}, {}};
  }
  if (!NameFiles()) return Abandon(FailureCause::kBadInput);
  if (!SetState(JournalState::kPreparing)) return Abandon(CauseOfErrno(errno));
  for (Target& t : *targets) {
    if (!MakeTemp(&t)) return Abandon(CauseOfErrno(errno));
  }
  for (Target& t : *targets) {
    if (!MakeBackup(&t)) return Abandon(CauseOfErrno(errno));
  }
  if (!io::SyncDirs(sys_, dirs_)) {
    errs_->push_back(MakeError(Rel(dirs_.front()), 0, 0, "cannot fsync a directory" + Why(errno)));
    return Abandon(CauseOfErrno(errno));
  }
  if (!SetState(JournalState::kCommitting)) return Abandon(CauseOfErrno(errno));
  renaming_.emplace(kExitWriteFailed, kTornWords);
  // From here on a failure must restore the targets already replaced.
  for (Target& t : *targets) {
    const Check check = StillOld(t, t.r.real);
    if (check == Check::kChanged) {
      Error(t, "changed on disk since apply read it");
      return RollBack(FailureCause::kConflict);
    }
    if (check == Check::kError) return RollBack(CauseOfErrno(errno));
    if (sys_->Rename(t.temp.c_str(), t.r.real.c_str()) != 0) {
      const int saved = errno;
      Error(t, "cannot rename " + io::BaseName(t.temp) + " over it" + Why(saved));
      return RollBack(CauseOfErrno(saved));
    }
    t.renamed = true;
    io::WritePoint();  // renamed over the target
  }
  // A writer that kept a target open wrote into what is now the backup.
  for (const Target& t : *targets) {
    const Check check = StillOld(t, t.backup);
    if (check == Check::kChanged) {
      Error(t, "changed on disk while apply replaced it");
      return RollBack(FailureCause::kConflict);
    }
    if (check == Check::kError) return RollBack(CauseOfErrno(errno));
  }
  if (!io::SyncDirs(sys_, dirs_)) {
    const int saved = errno;
    errs_->push_back(MakeError(Rel(dirs_.front()), 0, 0, "cannot fsync a directory" + Why(saved)));
    return RollBack(CauseOfErrno(saved));
  }
  if (!SetState(JournalState::kCommitted)) return RollBack(CauseOfErrno(errno));
  committed_ = true;
  renaming_.reset();
  // Committed: what follows is cleanup, and its failures are warnings.
  WriteResult result{WriteState::kWritten, FailureCause::kNone, {}, {}, {}};
  for (const Target& t : *targets) {
    if (!RemoveOwn(t, t.backup)) result.leftovers.push_back(Rel(t.backup));
  }
  if (result.leftovers.empty() && !io::RemoveJournal(sys_, real_root_)) {
    Warn(kJournalName, "cannot remove the apply journal" + Why(errno));
    result.leftovers.push_back(kJournalName);
  }
  return result;
}

}  // namespace

WriteResult TreeIo::WriteAll(const std::map<std::string, FileUpdate>& updates,
                             std::vector<Diagnostic>* errs) const {
  std::vector<std::string> rels;
  for (const auto& entry : updates) rels.push_back(entry.first);
  std::vector<io::Resolved> resolved;  // parallel to rels once every check passed
  if (!io::CheckAll(real_root_, rels, &resolved, errs)) {
    return {WriteState::kUnchanged, FailureCause::kBadInput, {}, {}, {}};
  }
  std::vector<Target> targets;
  std::size_t i = 0;
  for (const auto& entry : updates) {
    Target t;
    t.r = std::move(resolved[i++]);
    t.update = entry.second;
    targets.push_back(std::move(t));
  }
  Transaction tx(sys_, real_root_, errs);
  HeldSignals held;  // all or nothing, even under Ctrl-C (held_signals.h)
  return tx.Run(&targets);
}

}  // namespace muh
