#include "engine/io/file_cache.h"

#include <algorithm>
#include <new>
#include <system_error>

#include "engine/base/heap_tuning.h"

namespace muh {

FileCache::FileCache(const TreeIo& tree, std::vector<std::string> paths)
    : tree_(tree), paths_(std::move(paths)) {
  std::sort(paths_.begin(), paths_.end());
  paths_.erase(std::unique(paths_.begin(), paths_.end()), paths_.end());
  entries_ = std::make_unique<Entry[]>(paths_.size());
}

FileCache::~FileCache() {
  stop_ = true;
  if (ahead_.joinable()) ahead_.join();
}

const FileCache::Entry* FileCache::Fill(std::size_t i) const {
  Entry& e = entries_[i];
  e.once([&] { e.ok = tree_.Read(paths_[i], &e.bytes, &e.err); });
  return &e;
}

void FileCache::ReadAhead() {
  if (ahead_.joinable()) return;
  try {
    ahead_ = std::thread([this] {
      AdviseThreadHeap();
      try {
        for (std::size_t i = 0; i < paths_.size() && !stop_; ++i) Fill(i);
      } catch (const std::bad_alloc&) {
        // Whoever asks for the rest reads it, and says so if it cannot.
      }
    });
  } catch (const std::system_error&) {
  } catch (const std::bad_alloc&) {
  }
}

const std::string* FileCache::Get(const std::string& path, Diagnostic* err,
                                  std::string* uncached) const {
  auto it = std::lower_bound(paths_.begin(), paths_.end(), path);
  if (it == paths_.end() || *it != path) {
    return tree_.Read(path, uncached, err) ? uncached : nullptr;
  }
  const Entry* e = Fill(static_cast<std::size_t>(it - paths_.begin()));
  if (e->ok) return &e->bytes;
  *err = e->err;
  return nullptr;
}

}  // namespace muh
