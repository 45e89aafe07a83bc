#include "engine/query/statement_pruning.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/query/query.h"

namespace muh {

namespace {

bool Survives(const char* text) {
  QueryError err;
  auto q = Query::Compile("(" + std::string(text) + ")", &err);
  REQUIRE_MESSAGE(q, err.message);
  return q->SurvivesStatementPruning();
}

std::vector<bool> Identifiers(const char* text) {
  QueryError err;
  auto q = Query::Compile("(" + std::string(text) + ")", &err);
  REQUIRE_MESSAGE(q, err.message);
  std::vector<bool> out;
  for (const Query::LiteralGroup& g : q->RequiredLiteralGroups()) out.push_back(g.identifier);
  return out;
}

}  // namespace

TEST_CASE("queries whose matches survive leaving statements out") {
  // Captures on expressions, however deep, and a block child that holds a
  // literal's capture.
  CHECK(Survives("(assignment left: (identifier) @n right: (_) @v) (#eq? @n \"A\")"));
  CHECK(
      Survives("(function_definition name: (identifier) @f body: (block (expression_statement "
               "(assignment left: (identifier) @n)))) (#eq? @f \"g\") (#eq? @n \"A\")"));
  // Anchored siblings: the choice keeps a run, so adjacency is kept.
  CHECK(Survives(
      "(function_definition body: (block (expression_statement (assignment left: (identifier) "
      "@a)) . (expression_statement (assignment left: (identifier) @b)))) (#eq? @a \"A\") (#eq? "
      "@b \"B\")"));
  // A module root with its one statement (statement-local), and a block
  // root, its statements anchored to each other.
  CHECK(
      Survives("(module (expression_statement (assignment left: (identifier) @n)) (#eq? @n "
               "\"A\"))"));
  CHECK(
      Survives("(block (expression_statement (assignment left: (identifier) @a)) . (if_statement "
               "condition: (identifier) @c)) (#eq? @a \"A\") (#eq? @c \"A\")"));
  // A definition matched by its header only.
  CHECK(Survives(
      "(decorated_definition (decorator (identifier) @d) definition: (function_definition name: "
      "(identifier) @f)) (#eq? @d \"dec\") (#eq? @f \"k\")"));
}

TEST_CASE("queries whose matches could change when statements are left out") {
  // A captured statement or definition: its end may move.
  CHECK_FALSE(Survives("(function_definition name: (identifier) @f) @def (#eq? @f \"g\")"));
  CHECK_FALSE(Survives("(if_statement condition: (_) @c) @s (#eq? @c \"x\")"));
  // A block child with no literal capture: its witness may be left out.
  CHECK_FALSE(Survives(
      "(function_definition name: (identifier) @f body: (block (return_statement))) (#eq? @f "
      "\"g\")"));
  // Anchored to the first or last child of a block.
  CHECK_FALSE(
      Survives("(function_definition name: (identifier) @f body: (block . (expression_statement "
               "(assignment left: (identifier) @n)))) (#eq? @f \"g\") (#eq? @n \"A\")"));
  CHECK_FALSE(
      Survives("(function_definition name: (identifier) @f body: (block (expression_statement "
               "(assignment left: (identifier) @n)) .)) (#eq? @f \"g\") (#eq? @n \"A\")"));
  // A wildcard may be a block; a block root anchored at an end.
  CHECK_FALSE(Survives(
      "(function_definition name: (identifier) @f (_ (expression_statement) @e)) (#eq? @f \"g\")"));
  CHECK_FALSE(Survives("(block . (expression_statement (identifier) @n)) (#eq? @n \"A\")"));
  // A negated field on a block.
  CHECK_FALSE(Survives(
      "(function_definition name: (identifier) @f body: (block !type (expression_statement "
      "(identifier) @n))) (#eq? @f \"g\") (#eq? @n \"A\")"));
}

TEST_CASE("a literal group is a whole word only when its capture is an identifier") {
  CHECK(Identifiers("(assignment left: (identifier) @n) (#eq? @n \"A\")") ==
        std::vector<bool>{true});
  CHECK(Identifiers("(string (string_content) @s) (#eq? @s \"A\")") == std::vector<bool>{false});
  CHECK(Identifiers("(call function: (_) @f) (#eq? @f \"g\")") == std::vector<bool>{false});
  CHECK(Identifiers("(call function: (attribute) @f) (#eq? @f \"a.b\")") ==
        std::vector<bool>{false});
  CHECK(Identifiers("(integer) @i (#eq? @i \"1\")") == std::vector<bool>{false});
  CHECK(Identifiers("(pair key: (string) @k value: (identifier) @v) (#eq? @k \"'x'\") (#any-of? @v "
                    "\"a\" \"b\")") == std::vector<bool>{false, true});
}

}  // namespace muh
