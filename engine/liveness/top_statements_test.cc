#include "engine/liveness/top_statements.h"

#include <doctest/doctest.h>

#include <string>

#include "engine/python/ts_nodes.h"

namespace muh {

TEST_CASE(
    "a top-level statement's parse gives the path to bytes in it, decorators and clauses "
    "included") {
  const std::string src =
      "import os\n"
      "@dec(1)\n"
      "def f(c):\n"
      "    return max(c['K'], 2)\n"
      "if a:\n"
      "    x = 1\n"
      "else:\n"
      "    y = c['K']\n"
      "# c['K'] in a comment\n";
  std::optional<StatementTable> lines = StatementTable::Build(src);
  REQUIRE(lines);
  TopStatements parses(*lines);
  std::size_t read = src.find("c['K']");
  auto found = parses.PathAt(read, 6);
  REQUIRE(found);
  REQUIRE(found->tree != nullptr);
  CHECK(found->begin == src.find("@dec"));  // the decorated def, decorators first
  CHECK(Is(found->path.back(), "subscript"));
  CHECK(Is(found->path[found->path.size() - 3], "call"));
  // The else clause's line is cut with its `if`.
  std::size_t in_else = src.find("c['K']", src.find("else:"));
  found = parses.PathAt(in_else, 6);
  REQUIRE(found);
  CHECK(found->begin == src.find("if a:"));
  CHECK(TextOf(*found->tree, found->path.back()) == "c['K']");
  // A comment lies on no line.
  found = parses.PathAt(src.find("c['K'] in a"), 6);
  REQUIRE(found);
  CHECK(found->tree == nullptr);
}

}  // namespace muh
