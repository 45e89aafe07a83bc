// A tree's files read at most once per run, whoever asks first: verify's
// whole-tree search and its liveness analysis read the same 400-odd files on
// different threads, and each file is read from disk once for both. Entries
// are filled on first use (thread-safe) and kept until the cache goes, so a
// returned view stays valid for the cache's lifetime. The bytes live in the
// cache's FileArena (file_arena.h: a few large blocks, not one heap string
// per file). A reader that needs a file only for a while can ask for it
// within a budget (GetWithin), so that a very large tree is not kept whole.
#pragma once

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/base/run_once.h"
#include "engine/io/file_arena.h"
#include "engine/io/tree_io.h"

namespace muh {

class FileCache {
 public:
  // Serves `paths` (tree-relative, any order) of `tree`, which must outlive
  // the cache. Reads nothing yet.
  FileCache(const TreeIo& tree, std::vector<std::string> paths);
  FileCache(const FileCache&) = delete;
  FileCache& operator=(const FileCache&) = delete;
  // The bytes of `path`, read on first use; nullopt with the reason in *err
  // (TreeIo::Read's) when it cannot be read, every time it is asked. A path
  // not given to the constructor is read each time into `uncached`, which
  // the result then views.
  std::optional<std::string_view> Get(const std::string& path, Diagnostic* err,
                                      std::string* uncached) const;
  // As Get, for a reader that needs the bytes only for a while (the
  // whole-tree search): a file not cached yet is cached only while the
  // cache holds fewer than `budget` bytes, and past that read into
  // `uncached` each time, so that a tree much larger than the budget is not
  // kept whole in memory. (Such a read and a later Get may then see two
  // versions of a file that changes during the run.)
  std::optional<std::string_view> GetWithin(std::size_t budget, const std::string& path,
                                            Diagnostic* err, std::string* uncached) const;
  // Whether `path` is cached, read and readable.
  bool Cached(const std::string& path) const;

 private:
  struct Entry {
    RunOnce once;  // not std::call_once: see run_once.h
    bool ok = false;
    std::string_view bytes;  // in arena_
    Diagnostic err;
  };
  const Entry* Fill(std::size_t i) const;
  // The entry of a listed path; -1 for another.
  long IndexOf(const std::string& path) const;

  const TreeIo& tree_;
  std::vector<std::string> paths_;  // sorted
  std::unique_ptr<Entry[]> entries_;
  mutable FileArena arena_;
  mutable std::atomic<std::size_t> cached_bytes_{0};
};

}  // namespace muh
