// Which files git tracks under a tree: the one place muhpatch runs another
// program. verify's whole-tree search searches every tracked file whatever
// .gitignore says (a committed copy of a knob under an ignored directory is
// still a copy); see app/workspace_search.h.
#pragma once

#include <string>
#include <vector>

namespace muh {

struct GitTracked {
  enum class Case {
    kTracked,      // `root` lies in a git work tree: `paths` is what git tracks under it
    kNoGit,        // git is not on PATH (or could not be started)
    kNotWorkTree,  // git ran, but `root` is in no work tree (or git failed there)
  };
  Case state = Case::kNoGit;
  // Tracked files under `root`, relative to it, sorted (kTracked only).
  std::vector<std::string> paths;
  // Why not kTracked, in words for -v ("git is not on PATH", git's exit).
  std::string why;
};

// Runs `git -C ROOT ls-files -z --cached` with stdin and stderr on
// /dev/null and reads its output. Never fails: whatever goes wrong gives
// kNoGit or kNotWorkTree, and the search behaves as without git.
GitTracked FindGitTracked(const std::string& root);

}  // namespace muh
