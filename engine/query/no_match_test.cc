#include "engine/query/no_match.h"

#include <doctest/doctest.h>

#include <memory>

namespace muh {

namespace {

std::unique_ptr<Query> Q(const char* text) {
  QueryError err;
  std::unique_ptr<Query> q = Query::Compile(text, &err);
  REQUIRE(q);
  return q;
}

}  // namespace

TEST_CASE("query parts: nodes outermost first, predicates with the part binding their captures") {
  std::vector<QueryPart> parts = QueryParts(R"(
    (if_statement
      condition: (comparison_operator (identifier) @m)
      consequence: (block (expression_statement (assignment left: (identifier) @n right: (integer) @v)))
      (#eq? @n "BLOCK"))
  )");
  REQUIRE(parts.size() == 8);
  CHECK(parts[0].shown.rfind("(if_statement condition: (comparison_operator", 0) == 0);
  CHECK(parts[0].children == std::vector<std::size_t>{1, 3});
  CHECK(parts[1].text == "(comparison_operator (identifier) @m)");
  CHECK(parts[6].text == "((identifier) @n (#eq? @n \"BLOCK\"))");
  CHECK(parts[5].text.find("(#eq? @n \"BLOCK\")") != std::string::npos);
}

TEST_CASE("a found-0 query names the part that still matches and the shape around it") {
  PythonParser parser;
  SyntaxTree tree = parser.Parse(
      "def f(x):\n"
      "    if x:\n"
      "        BLOCK = 64\n"
      "    else:\n"
      "        BLOCK = 32\n");
  // The rule wants BLOCK directly in the function body; it moved under an if/else.
  auto q = Q(R"((function_definition
      body: (block (expression_statement
        (assignment left: (identifier) @n right: (integer) @v)))
      (#eq? @n "BLOCK")))");
  REQUIRE(q->Run(tree).empty());
  auto why = q->ExplainNoMatch(tree);
  REQUIRE(why);
  CHECK(why->failing_part.rfind("(function_definition body: (block", 0) == 0);
  CHECK(why->matching_part.rfind("(block (expression_statement", 0) == 0);
  REQUIRE(why->matching_at.size() == 2);
}

TEST_CASE("a found-0 query whose name is gone says so") {
  PythonParser parser;
  SyntaxTree tree = parser.Parse("x = 1\n");
  auto q = Q(R"(((assignment left: (identifier) @n) (#eq? @n "BLOCK")))");
  auto why = q->ExplainNoMatch(tree);
  REQUIRE(why);
  CHECK(why->matching_part.empty());
  CHECK(why->failing_part == "(identifier) @n (#eq? @n \"BLOCK\")");
}

}  // namespace muh
