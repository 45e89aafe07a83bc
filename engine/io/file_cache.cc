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
  e.once([&] {
    e.ok = tree_.Read(paths_[i], &arena_, &e.bytes, &e.err);
    cached_bytes_ += e.bytes.size();
  });
  return &e;
}

long FileCache::IndexOf(const std::string& path) const {
  auto it = std::lower_bound(paths_.begin(), paths_.end(), path);
  return it == paths_.end() || *it != path ? -1 : static_cast<long>(it - paths_.begin());
}

std::optional<std::string_view> FileCache::Get(const std::string& path, Diagnostic* err,
                                               std::string* uncached) const {
  return GetWithin(static_cast<std::size_t>(-1), path, err, uncached);
}

std::optional<std::string_view> FileCache::GetWithin(std::size_t budget, const std::string& path,
                                                     Diagnostic* err, std::string* uncached) const {
  long i = IndexOf(path);
  if (i < 0 || (!entries_[static_cast<std::size_t>(i)].once.done() && cached_bytes_ >= budget)) {
    if (!tree_.Read(path, uncached, err)) return std::nullopt;
    return std::string_view(*uncached);
  }
  const Entry* e = Fill(static_cast<std::size_t>(i));
  if (e->ok) return e->bytes;
  *err = e->err;
  return std::nullopt;
}

bool FileCache::Cached(const std::string& path) const {
  long i = IndexOf(path);
  if (i < 0) return false;
  const Entry& e = entries_[static_cast<std::size_t>(i)];
  return e.once.done() && e.ok;
}

}  // namespace muh
