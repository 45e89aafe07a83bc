#include "engine/liveness/statement_cache.h"

#include <algorithm>
#include <functional>

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

}  // namespace muh
