// One WordFilter per file of a tree, built by whoever asks first and kept
// for everyone: verify's whole-tree search and its liveness analysis look
// for whole words in the same files on different threads, and each file's
// words are hashed once for both. Entries are filled on first use
// (thread-safe) and kept while the cache lives.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/base/run_once.h"
#include "engine/base/word_filter.h"

namespace muh {

class WordFilterCache {
 public:
  // Serves `paths` (any order); a path not among them gets nullptr.
  explicit WordFilterCache(std::vector<std::string> paths);
  WordFilterCache(const WordFilterCache&) = delete;
  WordFilterCache& operator=(const WordFilterCache&) = delete;

  // The filter of `path`, built from `text` on the first call for the path.
  // Every caller must pass the same bytes for one path.
  const WordFilter* For(const std::string& path, std::string_view text) const;

 private:
  struct Entry {
    RunOnce once;
    std::unique_ptr<WordFilter> filter;
  };
  std::vector<std::string> paths_;  // sorted
  std::unique_ptr<Entry[]> entries_;
};

}  // namespace muh
