#include "engine/app/workspace_search.h"

#include <algorithm>

#include "engine/base/gitignore.h"
#include "engine/base/logging.h"
#include "engine/base/plural.h"
#include "engine/io/git_tracked.h"

namespace muh {

TreeSearchScope ScopeTreeSearch(const RuleSet& rules, const Workspace& w) {
  const TreeIo& tree = w.tree;
  const ListingSkips& skips = w.skipped;
  std::vector<std::string> listed = w.tree_paths;
  Diagnostic err;
  listed.insert(listed.end(), skips.unlisted.begin(), skips.unlisted.end());
  std::sort(listed.begin(), listed.end());
  // Every .gitignore on the way from the root to a listed file, of those
  // the listing met (none inside dot-directories, which are not searched).
  std::vector<Diagnostic> unreadable;
  GitIgnore ignore;
  std::vector<std::string> dirs = {""};
  for (const std::string& path : listed) {
    for (std::size_t slash = path.find('/'); slash != std::string::npos;
         slash = path.find('/', slash + 1)) {
      dirs.push_back(path.substr(0, slash));
    }
  }
  std::sort(dirs.begin(), dirs.end());
  dirs.erase(std::unique(dirs.begin(), dirs.end()), dirs.end());
  for (const std::string& file : skips.gitignores) {
    const std::size_t slash = file.rfind('/');
    const std::string dir = slash == std::string::npos ? "" : file.substr(0, slash);
    if (!std::binary_search(dirs.begin(), dirs.end(), dir)) continue;
    std::string text;
    if (tree.Read(file, &text, &err)) {
      ignore.AddFile(dir, text);
    } else {
      unreadable.push_back(err);
    }
  }
  // A file git tracks is searched whatever .gitignore says; without git,
  // .gitignore decides for every file.
  const GitTracked git = FindGitTracked(tree.root());
  if (git.state == GitTracked::Case::kTracked) {
    logging::Info(
        "whole-tree search: {} is in a git work tree: the {} git tracks there are searched "
        "whatever .gitignore says; .gitignore decides for untracked files",
        tree.root(), Counted(git.paths.size(), "file"));
  } else {
    logging::Info("whole-tree search: {}: .gitignore decides for every file", git.why);
  }
  SearchScope scope = ScopeOfSearch(listed, ignore, rules.exclude,
                                    git.state == GitTracked::Case::kTracked ? &git.paths : nullptr);
  for (const std::string& p : scope.tracked_ignored) {
    logging::Info("whole-tree search searches {} (.gitignore matches it, but git tracks it)", p);
  }
  scope.hidden = skips.hidden_dirs;
  for (const std::string& d : scope.hidden) {
    logging::Info("whole-tree search skips {}/ (a hidden directory)", d);
  }
  for (const std::string& p : scope.ignored) {
    logging::Info("whole-tree search skips {}{} (.gitignore)", p,
                  std::binary_search(listed.begin(), listed.end(), p) ? "" : "/");
  }
  for (const std::string& p : scope.excluded) {
    logging::Info("whole-tree search skips {}{} (exclude: in {})", p,
                  std::binary_search(listed.begin(), listed.end(), p) ? "" : "/", rules.path);
  }
  logging::Info(
      "whole-tree search: {}; skipped {}, {} ignored by .gitignore, {} excluded by the rule "
      "file",
      Counted(scope.paths.size(), ".py file"),
      Counted(scope.hidden.size(), "hidden directory", "hidden directories"),
      Counted(scope.ignored.size(), "part"), scope.excluded.size());
  return {std::move(scope), std::move(unreadable)};
}

SearchResult SearchInScope(const RuleSet& rules, const Workspace& w, const TreeSearchScope& scope,
                           unsigned threads, const RuleMask& run) {
  // The search keeps what it reads (for the liveness analysis, which reads
  // the same files) only up to Workspace::kSourcesKeep bytes of files: a tree much
  // larger is then read a file at a time past that, and its word filters
  // are not kept either (memmem answers for those files).
  SearchResult result = SearchOutsideScope(
      rules, scope.scope.paths,
      [&w](const std::string& path, Diagnostic* e, std::string* scratch) {
        return w.sources->GetWithin(Workspace::kSourcesKeep, path, e, scratch);
      },
      threads, run,
      [&w](const std::string& path, std::string_view text) -> const WordFilter* {
        return w.words && w.sources->Cached(path) ? w.words->For(path, text) : nullptr;
      });
  std::vector<Diagnostic> unreadable = scope.unreadable;
  unreadable.insert(unreadable.end(), result.unreadable.begin(), result.unreadable.end());
  std::stable_sort(unreadable.begin(), unreadable.end(),
                   [](const Diagnostic& a, const Diagnostic& b) { return a.file < b.file; });
  result.unreadable = std::move(unreadable);
  return result;
}

SearchResult SearchTree(const RuleSet& rules, const Workspace& w, unsigned threads) {
  return SearchInScope(rules, w, ScopeTreeSearch(rules, w), threads);
}

}  // namespace muh
