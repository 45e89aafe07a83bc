#include "engine/python/variable_means.h"

#include <doctest/doctest.h>

#include "engine/python/ts_nodes.h"

namespace muh {

namespace {

// WhyNotMeans for `numel` at the first `if numel` of `def f(M, topk):` +
// `body`, meaning `means`.
std::string Why(const std::string& body, const std::string& means = "M * topk",
                const std::string& params = "M, topk") {
  std::string source = "def f(" + params + "):\n" + body;
  PythonParser parser;
  SyntaxTree tree = parser.Parse(source);
  REQUIRE(!tree.HasError());
  TSNode fn = ts_node_named_child(tree.Root(), 0);
  std::string variable = means == "M" ? "M" : "numel";
  std::size_t at = source.find("if " + variable);
  REQUIRE(at != std::string::npos);
  return WhyNotMeans(tree, fn, at, variable, means);
}

const std::string kChain = "    if numel <= 64:\n        x = 1\n";

}  // namespace

TEST_CASE("the chain's variable is what the rule says it counts") {
  CHECK(Why("    numel = M * topk\n" + kChain) == "");
  CHECK(Why("    numel = topk * M\n" + kChain) == "");
  CHECK(Why("    numel = (M *\n             topk)\n" + kChain) == "");
  CHECK(Why("    y = 1\n    numel = M*topk\n" + kChain) == "");
  CHECK(Why("    if M <= 64:\n        x = 1\n    numel = 0\n", "M") == "");
}

TEST_CASE("a variable computed otherwise is named with its line") {
  CHECK(Why("    numel = M\n" + kChain) == "`numel` is `M` here (line 2), not `M * topk`");
  CHECK(Why("    numel = M * 2\n" + kChain) == "`numel` is `M * 2` here (line 2), not `M * topk`");
  CHECK(Why("    M = M // 2\n    numel = M * topk\n" + kChain) ==
        "line 2 binds `M` before line 3 computes `numel` from it");
  CHECK(Why("    numel = M * topk\n    if M > 9:\n        numel = 1\n" + kChain) ==
        "f binds `numel` 2 times (lines 2 and 4): no one value of it");
  CHECK(Why("    if M:\n        numel = M * topk\n" + kChain) ==
        "line 3 binds `numel` otherwise than by `numel = M * topk` in f's own body");
  CHECK(Why(kChain + "    numel = M * topk\n") == "line 4 assigns `numel` only after the chain");
  CHECK(Why("    numel = M * topk\n" + kChain, "M * topk", "M") ==
        "`topk`, which `numel` reads at line 2, is no parameter of f");
  CHECK(Why(kChain) == "f does not assign `numel` once from `M * topk`");
  CHECK(Why("    numel = M * topk\n    def g():\n        nonlocal numel\n        numel = 5\n" +
            kChain) == "line 4 declares `nonlocal numel` in a nested scope");
  // A helper that rebinds a parameter the variable reads, called before it.
  CHECK(Why("    def g():\n        nonlocal M\n        M = 1\n    g()\n    numel = M * topk\n" +
            kChain) == "line 3 declares `nonlocal M` in a nested scope");
  CHECK(Why("    M = 3\n    if M <= 64:\n        x = 1\n", "M") ==
        "line 2 binds the parameter `M` again");
}

}  // namespace muh
