#include "engine/query/site_query.h"

#include <algorithm>
#include <utility>

namespace muh {

bool SiteQuery::HasCapture(std::string_view name) const {
  const std::vector<std::string>& names = capture_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

const Capture* QueryMatch::Find(std::string_view name) const {
  for (const Capture& c : captures) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

std::size_t QueryMatch::Begin() const {
  std::size_t best = static_cast<std::size_t>(-1);
  for (const Capture& c : captures) best = std::min(best, c.begin);
  return captures.empty() ? 0 : best;
}

void SortMatches(std::vector<QueryMatch>* matches) {
  auto key = [](const QueryMatch& m) {
    std::vector<std::pair<std::size_t, std::size_t>> k;
    for (const Capture& c : m.captures) k.emplace_back(c.begin, c.end);
    std::sort(k.begin(), k.end());
    return k;
  };
  std::stable_sort(matches->begin(), matches->end(), [&](const QueryMatch& a, const QueryMatch& b) {
    if (a.Begin() != b.Begin()) return a.Begin() < b.Begin();
    return key(a) < key(b);
  });
}

}  // namespace muh
