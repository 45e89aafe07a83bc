#include "engine/liveness/statement_cache.h"

namespace muh {

std::optional<StatementTable> StatementCache::Table(const std::string& path,
                                                    std::string_view bytes) {
  std::lock_guard<std::mutex> hold(mu_);
  auto it = tables_.find(path);
  if (it == tables_.end()) {
    it = tables_.emplace(path, StatementTable::FromTree(parser_.Parse(bytes))).first;
  }
  std::optional<StatementTable> out = it->second;
  if (out) out->Rebind(bytes);
  return out;
}

}  // namespace muh
