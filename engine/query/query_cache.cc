#include "engine/query/query_cache.h"

#include "engine/base/parallel.h"

namespace muh {

void QueryCache::CompileAll(const std::vector<std::string>& texts, unsigned threads) {
  std::vector<const std::string*> todo;
  for (const std::string& t : texts) {
    if (entries_.emplace(t, Entry{}).second) todo.push_back(&t);
  }
  std::vector<Entry> done(todo.size());
  ParallelFor(todo.size(), threads, [&](NoWorkerState&, std::size_t i) {
    done[i].query = Query::Compile(*todo[i], &done[i].error);
  });
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
