#include "engine/app/tree_hint.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("ParentOf: the folder that holds TREE, as the user would type it") {
  CHECK(ParentOf("enginex-vllm/vllm") == "enginex-vllm");
  CHECK(ParentOf("enginex-vllm/vllm/") == "enginex-vllm");
  CHECK(ParentOf("./enginex-vllm/vllm//") == "./enginex-vllm");
  CHECK(ParentOf("vllm") == ".");
  CHECK(ParentOf("vllm/") == ".");
  CHECK(ParentOf(".") == "..");
  CHECK(ParentOf("./") == "..");
  CHECK(ParentOf("a/.") == "a/./..");
  CHECK(ParentOf("..") == "../..");
  CHECK(ParentOf("/vllm") == "/");
  CHECK(ParentOf("/srv/enginex/vllm") == "/srv/enginex");
  CHECK(ParentOf("/") == "/");
}

TEST_CASE("TreeRootHint: only when TREE has no vllm/ and looks like the package") {
  const std::string hint = "TREE is the folder that holds vllm/; did you mean 'enginex-vllm'?";
  CHECK(TreeRootHint("enginex-vllm/vllm", false, false) == hint);
  CHECK(TreeRootHint("enginex-vllm/vllm/", false, true) == hint);
  // Named otherwise, but holding the package's _custom_ops.py.
  CHECK(TreeRootHint("pkg", false, true) ==
        std::optional<std::string>("TREE is the folder that holds vllm/; did you mean '.'?"));
  // A tree that has vllm/ is right whatever its name: the files are missing
  // for another reason.
  CHECK_FALSE(TreeRootHint("vllm", true, true).has_value());
  CHECK_FALSE(TreeRootHint("enginex-vllm", false, false).has_value());
  CHECK_FALSE(TreeRootHint("myvllm", false, false).has_value());
}

}  // namespace muh
