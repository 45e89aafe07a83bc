#include "engine/python/py_literal.h"

#include <doctest/doctest.h>

#include <string>

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

TEST_CASE("integer literals are read as CPython reads them") {
  CHECK(SameValue("0x20", "32"));
  CHECK(SameValue("0X2_0", "32"));
  CHECK(SameValue("0o40", "32"));
  CHECK(SameValue("0b10_0000", "32"));
  CHECK(SameValue("1_024", "1024"));
  CHECK(SameValue("0x_1f", "31"));
  CHECK(SameValue("00", "0"));
  // Not literals CPython accepts, or floats: no value, compared as text.
  CHECK(CanonicalLiteral("032") == std::nullopt);
  CHECK(CanonicalLiteral("1__0") == std::nullopt);
  CHECK(CanonicalLiteral("10_") == std::nullopt);
  CHECK(CanonicalLiteral("0x") == std::nullopt);
  CHECK(CanonicalLiteral("0x2g") == std::nullopt);
  CHECK(CanonicalLiteral("0b12") == std::nullopt);
  CHECK(CanonicalLiteral("8e3") == std::nullopt);
  CHECK(CanonicalLiteral("8.0") == std::nullopt);
  CHECK_FALSE(SameValue("0x20", "20"));
}

TEST_CASE("signs and powers bind as Python binds them") {
  // Each expected value is what CPython prints for the expression.
  CHECK(CanonicalLiteral("-2 ** 2") == "-4");
  CHECK(CanonicalLiteral("-(2) ** 2") == "-4");
  CHECK(CanonicalLiteral("(-2) ** 2") == "4");
  CHECK(CanonicalLiteral("2 ** 3 ** 2") == "512");
  CHECK(CanonicalLiteral("--2") == "2");
  CHECK(CanonicalLiteral("2 * -3") == "-6");
  CHECK(CanonicalLiteral("-7 % 3") == "2");
  CHECK(CanonicalLiteral("7 // -2") == "-4");
  CHECK_FALSE(CanonicalLiteral("2 ** -1").has_value());  // 0.5: no integer
  // Nesting deeper than any constant a tree writes is no constant, and
  // no crash.
  CHECK_FALSE(CanonicalLiteral(std::string(100000, '(') + "1" + std::string(100000, ')')));
  CHECK_FALSE(CanonicalLiteral(std::string(100000, '-') + "1"));
  CHECK(CanonicalLiteral(std::string(50, '(') + "1" + std::string(50, ')')) == "1");
}

TEST_CASE("shifts and bitwise operators bind as Python binds them") {
  // Each expected value is what CPython prints (a hand-tuned `1 << 4`
  // was no constant, and failed its kernel's check).
  CHECK(CanonicalLiteral("1 << 4") == "16");
  CHECK(CanonicalLiteral("32 >> 1") == "16");
  CHECK(CanonicalLiteral("-5 >> 1") == "-3");
  CHECK(CanonicalLiteral("~15") == "-16");
  CHECK(CanonicalLiteral("~-1") == "0");
  CHECK(CanonicalLiteral("1 << 4 | 1") == "17");
  CHECK(CanonicalLiteral("6 & 3 ^ 1") == "3");
  CHECK(CanonicalLiteral("2 + 1 << 2") == "12");
  CHECK(CanonicalLiteral("1 << 62") == "4611686018427387904");
  CHECK(CanonicalLiteral("-1 << 3") == "-8");
  CHECK(CanonicalLiteral("(1 << 4) * 2") == "32");
  CHECK(CanonicalLiteral("0x10 | 0b1") == "17");
  CHECK_FALSE(CanonicalLiteral("1 << 63").has_value());  // past int64: no value read
  CHECK_FALSE(CanonicalLiteral("1 << -1").has_value());  // ValueError
  CHECK_FALSE(CanonicalLiteral("1 < 2").has_value());
  CHECK_FALSE(CanonicalLiteral("1 <<").has_value());
}

TEST_CASE("other constants") {
  CHECK(CanonicalLiteral("'BLOCK_M'") == "\"BLOCK_M\"");
  CHECK(CanonicalLiteral(" True ") == "True");
  CHECK(SameValue("32 * 1024", "32768"));
  CHECK(SameValue("'a'", "\"a\""));
  CHECK_FALSE(SameValue("64", "32"));
  CHECK_FALSE(SameValue("True", "1"));
}

TEST_CASE("a conditional whose branches are equal constants is its value") {
  CHECK(DropEqualBranches("8 if current_platform.has_device_capability(80) else 8") == "8");
  CHECK(DropEqualBranches("8 if f(x if y else z) else 2 ** 3") == "8");
  CHECK(DropEqualBranches("8 if c else 4") == "8 if c else 4");
  CHECK(DropEqualBranches("x if c else x") == "x if c else x");  // not constants
  CHECK(DropEqualBranches("'a if b else c'") == "'a if b else c'");
  CHECK(DropEqualBranches("64") == "64");
}

}  // namespace muh
