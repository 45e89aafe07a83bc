// Disk access for muhpatch: the only module that reads or writes files.
// A TreeIo addresses one source tree by tree-relative, '/'-separated paths and
// refuses, with a Diagnostic naming the path, anything that could reach
// outside the tree (absolute paths, `..`, symlinks resolving elsewhere).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/io/file_arena.h"
#include "engine/io/syscalls.h"
#include "engine/io/write_journal.h"
#include "engine/io/write_result.h"

namespace muh {

// The largest file of the tree that TreeIo::Read accepts, unless
// set_max_file_bytes says otherwise. Python sources are far smaller.
inline constexpr std::uint64_t kDefaultMaxTreeFileBytes = std::uint64_t{16} << 20;

// The largest file named on the command line (rules, --hw, --patch) that
// ReadWholeFile accepts. Such a file may be a pipe (`--patch <(...)`), whose
// size is only known by reading it.
inline constexpr std::uint64_t kMaxInputFileBytes = std::uint64_t{64} << 20;

// Reads the exact bytes of PATH, a plain path not confined to any tree (the
// rules file, the --patch file); pipes and devices are read too, but at most
// kMaxInputFileBytes. Directories are refused. On failure returns false and
// sets *err to a message without the path, e.g. "cannot open (No such file or
// directory)" or "larger than the limit of 67108864 bytes", for the caller to
// locate.
bool ReadWholeFile(const std::string& path, std::string* bytes, std::string* err);

// What TreeIo::ListFiles left out, for callers that must say so.
struct ListingSkips {
  std::vector<std::string> hidden_dirs;  // dot-directories, not descended into
  // Entries whose name has the suffix but that are not listed: not regular
  // files (FIFOs, devices, sockets) or symlinks that do not resolve to a
  // regular file inside the tree. Read refuses each with its reason.
  std::vector<std::string> unlisted;
  // Every `.gitignore` met on the way (any kind of entry but a directory,
  // outside dot-directories), so that nobody has to look for one in each
  // directory again. Read refuses those it cannot read.
  std::vector<std::string> gitignores;
};

// One file for WriteAll: the bytes the plan was made from and the bytes to
// write. Both must outlive the WriteAll call.
struct FileUpdate {
  std::string_view old_bytes;
  std::string_view new_bytes;
};

// A source tree on disk. Cheap to copy; its copies share one descriptor of
// the root directory, opened by Open, through which Read opens files.
class TreeIo {
 public:
  // An unopened tree; only Open gives it a root.
  TreeIo() = default;

  // Opens ROOT (absolute or relative; a symlink to a directory is fine, its
  // real path is resolved once here). Fails, with file = ROOT, if ROOT does not
  // exist ("no such directory") or is not a directory ("not a directory").
  static bool Open(const std::string& root, TreeIo* out, Diagnostic* err);

  // The largest file Read accepts (kDefaultMaxTreeFileBytes unless set).
  void set_max_file_bytes(std::uint64_t n) { max_file_bytes_ = n; }
  std::uint64_t max_file_bytes() const { return max_file_bytes_; }

  // The system calls WriteAll and RecoverInterruptedApply make; tests pass a
  // double that fails chosen calls. Not owned; nullptr restores the real ones.
  void set_syscalls(SysCalls* sys) { sys_ = sys != nullptr ? sys : SysCalls::Real(); }

  // Sets *out to all files below the root whose name ends in SUFFIX (e.g.
  // ".py"; "" matches all), tree-relative and sorted bytewise. Skips
  // dot-directories (.git/, .venv/, ...) and does not descend into symlinked
  // directories. A symlink is listed only if it resolves to a regular file
  // inside the tree. Fails only when a directory cannot be listed. With
  // `skips`, also says what it left out (both lists sorted). The system
  // running out of memory (ENOMEM) throws std::bad_alloc, as an allocation
  // that fails does: out of memory (exit 4), not a tree that cannot be read.
  bool ListFiles(const std::string& suffix, std::vector<std::string>* out, Diagnostic* err,
                 ListingSkips* skips = nullptr) const;

  // True when REL is a tree-relative path (not absolute, no `..`) naming an
  // existing entry of any kind, reached without leaving the tree on the way.
  bool Exists(const std::string& rel) const;

  // Sets *bytes to the exact content of the regular file REL. Refuses, with
  // file = REL: an empty or absolute path, any `..` component ("path leaves
  // the tree"), a missing entry ("no such file in the tree"), a path whose
  // real path leaves the tree ("symlink resolves outside the tree (<real>)"),
  // a directory ("is a directory, not a file"), anything else not a regular
  // file ("not a regular file (a FIFO)", checked before any read, so a FIFO
  // or a device never blocks), and a file over max_file_bytes() ("file is
  // larger than the limit of N bytes").
  bool Read(const std::string& rel, std::string* bytes, Diagnostic* err) const;
  // The same, into memory from `arena`: *bytes views them there (valid while
  // the arena lives).
  bool Read(const std::string& rel, FileArena* arena, std::string_view* bytes,
            Diagnostic* err) const;

  // Appends one Diagnostic per path in RELS that could not be rewritten and
  // returns false if there was any. Same refusals as Read, plus "file is
  // read-only" (no owner-write bit, or access(2) denies W_OK), "directory <d>
  // is read-only" (likewise for its directory, <d> tree-relative or "."), and
  // "names the same file as <other>" when two paths reach one real file.
  bool CheckWritable(const std::vector<std::string>& rels, std::vector<Diagnostic>* errs) const;

  // Replaces the content of every file in UPDATES, all or nothing:
  //  1. runs CheckWritable on every path; refuses with kUnchanged/kBadInput;
  //  2. records its temp and backup names in the journal (kJournalName at the
  //     root, state "preparing");
  //  3. writes each new content to `.<base>.muhpatch-tmp.<pid>.new` beside
  //     the real target, with the target's mode (and owner, best effort),
  //     fsyncs it, and hard-links the target to `....old` as a backup;
  //  4. marks the journal "committing", then for each file in path order
  //     checks that it is still the inode it was and still holds exactly
  //     old_bytes (else: FailureCause::kConflict, "changed on disk since
  //     apply read it") and renames the temp over it;
  //  5. checks every backup still holds old_bytes (a writer that kept the old
  //     file open during the renames), marks the journal "committed" and
  //     removes the backups and the journal.
  // A failure in 2-3 removes what was made (kUnchanged); in 4-5 it restores
  // every replaced file from its backup (kRolledBack), or, if that fails too,
  // returns kTorn naming the files left new and keeps the journal for the
  // next RecoverInterruptedApply. A symlinked path rewrites its target and
  // keeps the link. Errors and notes, located at the files, go to *errs; on
  // success *errs may hold warnings (a backup that could not be removed).
  WriteResult WriteAll(const std::map<std::string, FileUpdate>& updates,
                       std::vector<Diagnostic>* errs) const;

  // Finishes what an apply killed midway left (call at apply start, holding
  // the exclusive lock). Without a journal it does nothing (kUnchanged, ok).
  // With one it rolls forward (kWritten) when the journal says "committing"
  // and every temp not yet renamed is complete and every target not yet
  // replaced still holds its old content; it finishes the cleanup of a
  // "committed" run (kUnchanged); otherwise it rolls back (kRolledBack).
  // Removes only the files the journal names (listed in `removed`), then the
  // journal. A journal it cannot parse is refused (kInternal) and kept.
  WriteResult RecoverInterruptedApply(std::vector<Diagnostic>* errs) const;

  // For the commands that only read (diff, verify, status): a warning at
  // the journal when an apply was interrupted, saying how many files it
  // names and that the next apply finishes or rolls it back; nullopt
  // without a journal. Changes nothing.
  std::optional<Diagnostic> InterruptedApply() const;

  // An advisory lock on the tree (flock(2) on its root directory), so that
  // two `apply` runs never interleave and readers never see one half done.
  // Exclusive locks fail at once when held; shared locks wait.
  class Lock {
   public:
    Lock() = default;
    Lock(const Lock&) = delete;
    Lock& operator=(const Lock&) = delete;
    ~Lock();

   private:
    friend class TreeIo;
    int fd_ = -1;
  };
  bool AcquireLock(bool exclusive, Lock* lock, Diagnostic* err) const;

  // The root as the user gave it (for messages).
  const std::string& root() const { return root_; }

 private:
  std::string root_;                    // as given to Open
  std::string real_root_;               // realpath of root_, no trailing '/' (except "/")
  std::shared_ptr<const int> root_fd_;  // O_DIRECTORY descriptor of real_root_, or -1
  std::uint64_t max_file_bytes_ = kDefaultMaxTreeFileBytes;
  SysCalls* sys_ = SysCalls::Real();
};

}  // namespace muh
