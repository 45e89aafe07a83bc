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

}  // namespace muh
