#include "engine/py_literal.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("integer expressions evaluate") {
  CHECK(CanonicalLiteral("32 * 1024") == "32768");
  CHECK(CanonicalLiteral("(48) * 1024") == "49152");
  CHECK(CanonicalLiteral("2 ** 15 + 1") == "32769");
  CHECK(CanonicalLiteral("-7 // 2") == "-4");
  CHECK(CanonicalLiteral("7 % 3") == "1");
  CHECK(CanonicalLiteral("1_024") == "1024");
  CHECK_FALSE(CanonicalLiteral("x * 2").has_value());
  CHECK_FALSE(CanonicalLiteral("1 // 0").has_value());
  CHECK_FALSE(CanonicalLiteral("99999999999 * 99999999999").has_value());
}

TEST_CASE("other constants") {
  CHECK(CanonicalLiteral("'BLOCK_M'") == "\"BLOCK_M\"");
  CHECK(CanonicalLiteral(" True ") == "True");
  CHECK(SameValue("32 * 1024", "32768"));
  CHECK(SameValue("'a'", "\"a\""));
  CHECK_FALSE(SameValue("64", "32"));
  CHECK_FALSE(SameValue("True", "1"));
}

}  // namespace muh
