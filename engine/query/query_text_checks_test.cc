#include "engine/query/query_text_checks.h"

#include <doctest/doctest.h>

#include <string>

namespace muh {

TEST_CASE("a quantifier after a quantifier is found, a single one is not") {
  CHECK(StackedQuantifier("(x)??") == 4);
  CHECK(StackedQuantifier("(x)? @c *") != std::string_view::npos);
  CHECK(StackedQuantifier("(a (b)?)") == std::string_view::npos);
}

TEST_CASE("a field name in front of a predicate is found") {
  CHECK(FieldOnPredicate("(x key: (#eq? @k \"x\"))") != std::string_view::npos);
  CHECK(FieldOnPredicate("(x key: (y) @k (#eq? @k \"x\"))") == std::string_view::npos);
}

TEST_CASE("a predicate's place: its nth whole occurrence, else where the pattern starts") {
  std::string q = "(a) (#eq? @x \"1\") (#eq? @y \"2\") (#eq?x)";
  CHECK(FindPredicate(q, 0, "eq?", 0) == 5);
  CHECK(FindPredicate(q, 0, "eq?", 1) == 19);
  CHECK(FindPredicate(q, 3, "eq?", 2) == 3);
}

TEST_CASE("an unknown capture gets the closest defined one") {
  QueryError e;
  e.message = "query unknown capture 'valeu'";
  SuggestCapture("(x) @value (#eq? @valeu \"1\")", &e);
  CHECK(e.message == "query unknown capture 'valeu' (did you mean '@value'?)");
}

TEST_CASE("nesting deeper than the limit is found at its first bracket, not in strings") {
  CHECK(TooDeep("((x))", 2) == std::string_view::npos);
  CHECK(TooDeep("(([x]))", 2) == 2);
  CHECK(TooDeep("(x (#eq? @x \"((((\"))", 2) == std::string_view::npos);
  CHECK(TooDeep("; ((((\n(x)", 2) == std::string_view::npos);
  std::string deep = std::string(50000, '(') + "_" + std::string(50000, ')');
  CHECK(TooDeep(deep, 256) == 256);
}

}  // namespace muh
