// The whole-tree search (search/tree_search.h) run over a workspace: what it
// covers in that tree (its listing, less what hidden directories, the
// tree's .gitignore files and the rule file's `exclude:` leave out, each
// logged at -v with a count), and the search of it, reading through the
// workspace's FileCache and WordFilterCache, so each file is read and its
// words hashed once for the search and the liveness analysis together.
#pragma once

#include <string>
#include <vector>

#include "engine/app/workspace.h"
#include "engine/base/diagnostic.h"
#include "engine/rules/rule.h"
#include "engine/search/tree_search.h"

namespace muh {

// The whole search over the workspace's tree: takes
// its listing, reads every .gitignore on the way to a listed file, logs
// what it skips (each at -v, with a count) and searches the rest, read
// through the workspace's FileCache (each file read once for the search and
// the liveness analysis together). The entries the listing cannot take
// (ListingSkips::unlisted) are searched too, so that they are reported
// unreadable.
SearchResult SearchTree(const RuleSet& rules, const Workspace& w, unsigned threads);

// SearchTree in two steps, for a caller that searches one tree for some
// rules first and others later: what the search covers (each skip logged
// once, the .gitignore files that cannot be read kept in `unreadable`),
// then a search of that scope for the rules `run` names.
struct TreeSearchScope {
  SearchScope scope;
  std::vector<Diagnostic> unreadable;
};
TreeSearchScope ScopeTreeSearch(const RuleSet& rules, const Workspace& w);
SearchResult SearchInScope(const RuleSet& rules, const Workspace& w, const TreeSearchScope& scope,
                           unsigned threads, const RuleMask& run = {});

}  // namespace muh
