#include "engine/query/query_cache.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("each distinct query text is compiled once") {
  QueryCache cache;
  std::string a = "((identifier) @x (#eq? @x \"a\"))";
  std::string bad = "((identifier) @x";
  cache.CompileAll({a, bad, a}, 2);
  QueryError err;
  auto q1 = cache.Get(a, &err);
  auto q2 = cache.Get(a, &err);
  REQUIRE(static_cast<bool>(q1));
  CHECK((q1 == q2));  // shared, not recompiled
  CHECK_FALSE(static_cast<bool>(cache.Get(bad, &err)));
  CHECK(err.message == "query syntax error: this '(' is never closed");
  CHECK(static_cast<bool>(cache.Get("(string) @s", &err)));  // compiled on demand
}

}  // namespace muh
