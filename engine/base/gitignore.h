// .gitignore files read as git reads them, for the whole-tree search: a
// build output (build/lib/vllm/...) or a vendored copy the user ignores is
// not the fork's source. Supports what gitignore(5) describes: comments,
// blank lines, escaped trailing spaces, negation (`!`), directory-only
// patterns (`dir/`), anchored patterns (`/x`, `a/b`), `*`, `?`, `[...]`
// and `**`. Deeper files override shallower ones, and within a file the
// last matching pattern decides. Global excludes (core.excludesFile,
// .git/info/exclude) are not read. Pure: the caller reads the files.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace muh {

class GitIgnore {
 public:
  // Adds the .gitignore found in `dir` (tree-relative, "" for the root).
  void AddFile(const std::string& dir, std::string_view text);

  // Whether `path` itself (tree-relative, '/'-separated; `is_dir` says if
  // it is a directory) is ignored by the patterns of the files in its
  // ancestors, not counting whether an ancestor directory is ignored.
  bool Ignores(const std::string& path, bool is_dir) const;

  // The topmost ignored part of the file `path`: an ancestor directory
  // (git never looks inside an ignored directory, so no `!` re-includes
  // what it holds) or the file itself; nullopt when the file is not ignored.
  std::optional<std::string> IgnoredPart(const std::string& path) const;

  bool empty() const { return patterns_.empty(); }

 private:
  struct Pattern {
    std::string dir;   // the directory of the .gitignore file
    std::string glob;  // relative to `dir`, "**/" prefixed when unanchored
    bool negated = false;
    bool dir_only = false;
  };
  std::vector<Pattern> patterns_;  // shallow files first, in file order
};

// Matches a gitignore glob against a '/'-separated path: `*` and `?` stay
// within one segment, `**/` spans any number of whole segments (including
// none), a trailing `/**` everything below, `[...]` (with `!` or `^` to
// negate, and ranges) a character class, `\` escapes. Linear memory, no
// exponential backtracking.
bool WildMatch(std::string_view glob, std::string_view path);

}  // namespace muh
