#include "engine/search/word_filter_cache.h"

#include <algorithm>

namespace muh {

WordFilterCache::WordFilterCache(std::vector<std::string> paths) : paths_(std::move(paths)) {
  std::sort(paths_.begin(), paths_.end());
  paths_.erase(std::unique(paths_.begin(), paths_.end()), paths_.end());
  entries_ = std::make_unique<Entry[]>(paths_.size());
}

const WordFilter* WordFilterCache::For(const std::string& path, std::string_view text) const {
  auto it = std::lower_bound(paths_.begin(), paths_.end(), path);
  if (it == paths_.end() || *it != path) return nullptr;
  Entry& e = entries_[static_cast<std::size_t>(it - paths_.begin())];
  e.once([&] { e.filter = std::make_unique<WordFilter>(text); });
  return e.filter.get();
}

}  // namespace muh
