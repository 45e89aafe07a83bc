#include "engine/liveness/statement_cache.h"

#include <doctest/doctest.h>

#include <string>

namespace muh {

TEST_CASE("a file's statement table is built once and bound to the bytes each caller holds") {
  StatementCache cache;
  const std::string first = "if x:\n    y = 1\n";
  const std::string again = first;  // read again after a drop: other storage, same bytes
  std::optional<StatementTable> a = cache.Table("a.py", first);
  std::optional<StatementTable> b = cache.Table("a.py", again);
  REQUIRE(a.has_value());
  REQUIRE(b.has_value());
  CHECK(cache.parsed() == 1);
  CHECK(a->src().data() == first.data());
  CHECK(b->src().data() == again.data());
  CHECK(b->Code(1) == "y = 1");
  CHECK(&a->lines() == &b->lines());  // one table, shared
  CHECK_FALSE(cache.Table("bad.py", "x = (\n").has_value());
  CHECK_FALSE(cache.Table("bad.py", "x = (\n").has_value());
  CHECK(cache.parsed() == 2);
  // Other bytes under the same path (an overlay's): a table of their own.
  const std::string patched = "if x:\n    y = 2\n    z = 3\n";
  std::optional<StatementTable> c = cache.Table("a.py", patched);
  REQUIRE(c.has_value());
  CHECK(c->lines().size() == 3);
  CHECK(cache.parsed() == 3);
  CHECK(cache.Table("a.py", first)->lines().size() == 2);
  CHECK(cache.parsed() == 3);
}

TEST_CASE("files parsed ahead, in parallel, are the tables Table gives, parsed once") {
  StatementCache cache;
  const std::string a = "import os\n", b = "def f():\n    return 1\n", bad = "x = (\n";
  cache.Prefetch({{"a.py", a}, {"b.py", b}, {"bad.py", bad}}, 2);
  CHECK(cache.parsed() == 3);
  const std::string b_again = b;
  std::optional<StatementTable> t = cache.Table("b.py", b_again);
  REQUIRE(t.has_value());
  CHECK(t->src().data() == b_again.data());
  CHECK(t->Code(1) == "return 1");
  CHECK(cache.Table("a.py", a).has_value());
  CHECK_FALSE(cache.Table("bad.py", bad).has_value());
  cache.Prefetch({{"a.py", a}, {"c.py", "y = 2\n"}});  // a.py is known: c.py alone is parsed
  CHECK(cache.parsed() == 4);
}

}  // namespace muh
