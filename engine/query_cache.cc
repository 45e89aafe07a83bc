#include "engine/query_cache.h"

#include <algorithm>
#include <atomic>
#include <thread>

namespace muh {

void QueryCache::CompileAll(const std::vector<std::string>& texts, unsigned threads) {
  std::vector<const std::string*> todo;
  for (const std::string& t : texts) {
    if (entries_.emplace(t, Entry{}).second) todo.push_back(&t);
  }
  std::vector<Entry> done(todo.size());
  std::atomic<std::size_t> next{0};
  auto work = [&]() {
    for (std::size_t i = next++; i < todo.size(); i = next++) {
      done[i].query = Query::Compile(*todo[i], &done[i].error);
    }
  };
  unsigned n = threads != 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
  n = static_cast<unsigned>(std::min<std::size_t>(n, std::max<std::size_t>(todo.size(), 1)));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < n; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  for (std::size_t i = 0; i < todo.size(); ++i) entries_[*todo[i]] = std::move(done[i]);
}

std::shared_ptr<const Query> QueryCache::Get(const std::string& text, QueryError* error) {
  auto it = entries_.find(text);
  if (it == entries_.end()) {
    CompileAll({text}, 1);
    it = entries_.find(text);
  }
  if (!it->second.query) *error = it->second.error;
  return it->second.query;
}

}  // namespace muh
