#include "engine/syntax_tree.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("valid Python parses without problems") {
  PythonParser parser;
  std::string src = "x = 1\nif x:\n    y = (x +\n         2)\n";
  SyntaxTree tree = parser.Parse(src);
  CHECK_FALSE(tree.HasError());
  CHECK_FALSE(tree.FirstProblem().has_value());
  CHECK(std::string(ts_node_type(tree.Root())) == "module");
}

TEST_CASE("the first problem is located") {
  PythonParser parser;
  std::string src = "x = 1\ny = (2\nz = 3\n";
  SyntaxTree tree = parser.Parse(src);
  REQUIRE(tree.HasError());
  auto problem = tree.FirstProblem();
  REQUIRE(problem.has_value());
  CHECK(problem->offset >= 6);
}

}  // namespace muh
