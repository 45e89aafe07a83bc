#include "engine/io/git_tracked.h"

#include <doctest/doctest.h>

#include <cstdlib>

#include "engine/io/test_tree.h"

namespace muh {

namespace {

bool HaveGit() { return std::system("git --version >/dev/null 2>&1") == 0; }

}  // namespace

TEST_CASE("FindGitTracked lists what git tracks under the root, .gitignore or not") {
  if (!HaveGit()) return;  // tests/cli/git_tracked_search.sh covers a machine without git
  testing::TempDir dir;
  dir.Write(".gitignore", "lib/\n");
  dir.Write("tree/vllm/a.py", "x = 1\n");
  dir.Write("tree/vllm/lib/copy.py", "x = 2\n");
  dir.Write("tree/vllm/lib/untracked.py", "x = 3\n");
  dir.Write("outside.py", "y = 1\n");
  const std::string git = "git -C '" + dir.str() + "' ";
  REQUIRE(std::system((git + "init -q && " + git + "add .gitignore outside.py tree/vllm/a.py && " +
                       git + "add -f tree/vllm/lib/copy.py")
                          .c_str()) == 0);
  GitTracked t = FindGitTracked(dir.str() + "/tree");
  CHECK(t.state == GitTracked::Case::kTracked);
  CHECK(t.paths == std::vector<std::string>{"vllm/a.py", "vllm/lib/copy.py"});
}

TEST_CASE("FindGitTracked outside a work tree says so and lists nothing") {
  testing::TempDir dir;
  dir.Write("vllm/a.py", "x = 1\n");
  GitTracked t = FindGitTracked(dir.str());
  CHECK(t.state != GitTracked::Case::kTracked);
  CHECK(t.paths.empty());
  CHECK(!t.why.empty());
}

}  // namespace muh
