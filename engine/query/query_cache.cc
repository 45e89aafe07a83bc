#include "engine/query/query_cache.h"

#include "engine/base/parallel.h"

namespace muh {

void QueryCache::CompileAll(const std::vector<std::string>& texts, unsigned threads) {
  std::vector<const std::string*> todo;
  for (const std::string& t : texts) {
    if (entries_.emplace(t, Entry{}).second) todo.push_back(&t);
  }
  // A text our matcher takes compiles in microseconds: on this thread, as
  // starting a worker costs more. One it leaves to libtree-sitter waits for
  // ts_query_new (milliseconds over the Python grammar): those go to the
  // workers, when there are several.
  std::vector<Entry> done(todo.size());
  std::vector<std::size_t> slow;
  for (std::size_t i = 0; i < todo.size(); ++i) {
    if (Query::NeedsTreeSitterToCompile(*todo[i])) {
      slow.push_back(i);
    } else {
      done[i].query = Query::Compile(*todo[i], &done[i].error);
    }
  }
  ParallelFor(slow.size(), threads, [&](NoWorkerState&, std::size_t k) {
    done[slow[k]].query = Query::Compile(*todo[slow[k]], &done[slow[k]].error);
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
