#include "engine/io/file_cache.h"

#include <algorithm>

namespace muh {

FileCache::FileCache(const TreeIo& tree, std::vector<std::string> paths)
    : tree_(tree), paths_(std::move(paths)) {
  std::sort(paths_.begin(), paths_.end());
  paths_.erase(std::unique(paths_.begin(), paths_.end()), paths_.end());
  entries_ = std::make_unique<Entry[]>(paths_.size());
}

const FileCache::Entry* FileCache::Fill(std::size_t i) const {
  Entry& e = entries_[i];
  e.once([&] { e.ok = tree_.Read(paths_[i], &arena_, &e.bytes, &e.err); });
  return &e;
}

std::optional<std::string_view> FileCache::Get(const std::string& path, Diagnostic* err,
                                               std::string* uncached) const {
  auto it = std::lower_bound(paths_.begin(), paths_.end(), path);
  if (it == paths_.end() || *it != path) {
    if (!tree_.Read(path, uncached, err)) return std::nullopt;
    return std::string_view(*uncached);
  }
  const Entry* e = Fill(static_cast<std::size_t>(it - paths_.begin()));
  if (e->ok) return e->bytes;
  *err = e->err;
  return std::nullopt;
}

}  // namespace muh
