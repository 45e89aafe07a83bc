#include "engine/liveness/statement_cache.h"

#include <algorithm>
#include <functional>

#include "engine/base/parallel.h"

namespace muh {

std::optional<StatementTable> StatementCache::Table(const std::string& path,
                                                    std::string_view bytes) {
  const std::size_t hash = std::hash<std::string_view>{}(bytes);
  std::lock_guard<std::mutex> hold(mu_);
  std::vector<Known>& known = tables_[path];
  auto it = std::find_if(known.begin(), known.end(),
                         [&](const Known& k) { return k.hash == hash && k.size == bytes.size(); });
  if (it == known.end()) {
    ++parsed_;
    it = known.insert(known.end(),
                      Known{hash, bytes.size(), StatementTable::FromTree(parser_.Parse(bytes))});
  }
  std::optional<StatementTable> out = it->table;
  if (out) out->Rebind(bytes);
  return out;
}

void StatementCache::Prefetch(const std::vector<std::pair<std::string, std::string_view>>& files,
                              unsigned threads) {
  std::vector<std::optional<StatementTable>> tables(files.size());
  std::vector<std::size_t> todo;
  {
    std::lock_guard<std::mutex> hold(mu_);
    for (std::size_t i = 0; i < files.size(); ++i) {
      const std::size_t hash = std::hash<std::string_view>{}(files[i].second);
      const std::vector<Known>& known = tables_[files[i].first];
      if (std::none_of(known.begin(), known.end(), [&](const Known& k) {
            return k.hash == hash && k.size == files[i].second.size();
          })) {
        todo.push_back(i);
      }
    }
  }
  struct Worker {
    PythonParser parser;
  };
  ParallelFor<Worker>(todo.size(), threads, [&](Worker& w, std::size_t k) {
    std::size_t i = todo[k];
    tables[i] = StatementTable::FromTree(w.parser.Parse(files[i].second));
  });
  std::lock_guard<std::mutex> hold(mu_);
  for (std::size_t i : todo) {
    const std::size_t hash = std::hash<std::string_view>{}(files[i].second);
    ++parsed_;
    tables_[files[i].first].push_back(Known{hash, files[i].second.size(), std::move(tables[i])});
  }
}

}  // namespace muh
