// Disk access for muhpatch: the only module that reads or writes files.
// A TreeIo addresses one source tree by tree-relative, '/'-separated paths and
// refuses, with a Diagnostic naming the path, anything that could reach
// outside the tree (absolute paths, `..`, symlinks resolving elsewhere).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "engine/base/diagnostic.h"

namespace muh {

// Marks WriteAll's temp files, which are named `.<basename>.muhpatch-tmp.<pid>`.
inline constexpr char kTempInfix[] = ".muhpatch-tmp.";

// Reads the exact bytes of PATH, a plain path not confined to any tree (the
// rules file, the --patch file). Directories are refused. On failure returns
// false and sets *err to a message without the path, e.g.
// "cannot open (No such file or directory)", for the caller to locate.
bool ReadWholeFile(const std::string& path, std::string* bytes, std::string* err);

// A source tree on disk. Cheap to copy; holds no open descriptors.
class TreeIo {
 public:
  // An unopened tree; only Open gives it a root.
  TreeIo() = default;

  // Opens ROOT (absolute or relative; a symlink to a directory is fine, its
  // real path is resolved once here). Fails, with file = ROOT, if ROOT does not
  // exist ("no such directory") or is not a directory ("not a directory").
  static bool Open(const std::string& root, TreeIo* out, Diagnostic* err);

  // Sets *out to all files below the root whose name ends in SUFFIX (e.g.
  // ".py"; "" matches all), tree-relative and sorted bytewise. Skips
  // dot-directories (.git/, .venv/, ...) and does not descend into symlinked
  // directories. A symlink is listed only if it resolves to a regular file
  // inside the tree. Fails only when a directory cannot be listed.
  bool ListFiles(const std::string& suffix, std::vector<std::string>* out, Diagnostic* err) const;

  // Sets *out to the temp files an interrupted WriteAll left behind (regular
  // files named `.*.muhpatch-tmp.*`, outside dot-directories), sorted bytewise.
  bool ListTempLeftovers(std::vector<std::string>* out, Diagnostic* err) const;

  // True when REL is a tree-relative path (not absolute, no `..`) naming an
  // existing entry of any kind, reached without leaving the tree on the way.
  bool Exists(const std::string& rel) const;

  // Sets *bytes to the exact content of the regular file REL. Refuses, with
  // file = REL: an empty or absolute path, any `..` component ("path leaves
  // the tree"), a missing entry ("no such file in the tree"), a path whose
  // real path leaves the tree ("symlink resolves outside the tree (<real>)"),
  // a directory ("is a directory, not a file"), anything else not a regular
  // file ("not a regular file").
  bool Read(const std::string& rel, std::string* bytes, Diagnostic* err) const;

  // Appends one Diagnostic per path in RELS that could not be rewritten and
  // returns false if there was any. Same refusals as Read, plus "file is
  // read-only" (no owner-write bit, or access(2) denies W_OK), "directory <d>
  // is read-only" (likewise for its directory, <d> tree-relative or "."), and
  // "names the same file as <other>" when two paths reach one real file.
  bool CheckWritable(const std::vector<std::string>& rels, std::vector<Diagnostic>* errs) const;

  // Replaces each existing file's content atomically, in sorted path order:
  // writes `.<basename>.muhpatch-tmp.<pid>` beside the real target, gives it
  // the target's permission bits (and owner, best effort), fsyncs it, renames
  // it over the target and fsyncs the directory. A symlinked path rewrites its
  // target and keeps the link. Runs CheckWritable on all paths first and writes
  // nothing if any fails. On a failure midway removes its temp file, appends
  // the error plus a note for each file already rewritten, and stops.
  bool WriteAll(const std::map<std::string, std::string>& contents,
                std::vector<Diagnostic>* errs) const;

  // Removes the temp files an interrupted WriteAll left behind (see
  // ListTempLeftovers); call only while holding the exclusive lock.
  bool RemoveTempLeftovers(std::vector<std::string>* removed, Diagnostic* err) const;

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
  std::string root_;       // as given to Open
  std::string real_root_;  // realpath of root_, no trailing '/' (except "/")
};

}  // namespace muh
