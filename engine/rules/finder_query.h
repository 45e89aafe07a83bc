// The kind of site of `query:` and `pattern:` (finder.h): each match of the
// rule's query is a site, at its capture `target`. `query:` is a kind of
// its own (finder_kind.h): a tree-sitter query, compiled and checked here;
// the rule's action names the capture it rewrites.
#pragma once

#include <memory>
#include <string>

#include "engine/rules/finder.h"

namespace muh {

class QueryFinder : public Finder {
 public:
  QueryFinder(std::shared_ptr<const SiteQuery> query, std::string target)
      : Finder(std::move(query)), target_(std::move(target)) {}
  FoundSites Find(const SyntaxTree& tree) const override;

 private:
  std::string target_;
};

}  // namespace muh
