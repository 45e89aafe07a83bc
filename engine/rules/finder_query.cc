#include "engine/rules/finder_query.h"

namespace muh {

FoundSites QueryFinder::Find(const SyntaxTree& tree) const {
  FoundSites out;
  for (QueryMatch& m : query()->Run(tree)) {
    SiteMatch& site = out.sites.emplace_back();
    site.at = m.Begin();
    site.match = std::move(m);
    site.target = target_;
  }
  return out;
}

}  // namespace muh
