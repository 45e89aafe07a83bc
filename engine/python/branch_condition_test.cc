#include "engine/python/branch_condition.h"

#include <doctest/doctest.h>

namespace muh {

namespace {

std::string Canonical(std::string_view text, bool* negated = nullptr) {
  std::size_t at = 0;
  std::string error;
  std::optional<BranchCondition> c = ParseBranchCondition(text, &at, &error);
  if (!c) return "error at " + std::to_string(at) + ": " + error;
  if (negated != nullptr) *negated = c->negated;
  return c->canonical;
}

}  // namespace

TEST_CASE("spellings that differ in whitespace or outer parentheses are one condition") {
  CHECK(Canonical("current_platform.has_device_capability(80)") ==
        Canonical("( current_platform.has_device_capability( 80 ) )"));
  CHECK(Canonical("a  and (b)") == "a and b");
  CHECK(Canonical("(a or b) and c") != Canonical("a or b and c"));
}

TEST_CASE("a leading not is split off, twice is none") {
  bool negated = false;
  CHECK(Canonical("not (x.is_rocm())", &negated) == Canonical("x.is_rocm()"));
  CHECK(negated);
  CHECK(Canonical("not not x", &negated) == "x");
  CHECK_FALSE(negated);
}

TEST_CASE("a condition that is not one expression is refused where it goes wrong") {
  CHECK(Canonical("x = 1") ==
        "error at 0: a condition is one Python expression, such as `current_platform.is_rocm()`");
  CHECK(Canonical("") == "error at 0: the condition is empty");
  CHECK(Canonical("f(80").rfind("error at", 0) == 0);
}

TEST_CASE("what a condition implies: itself, and device capabilities by their order") {
  const std::string c80 = Canonical("current_platform.has_device_capability(80)");
  const std::string c90 = Canonical("current_platform.has_device_capability( 90 )");
  const std::string c70 = Canonical("current_platform.has_device_capability(70)");
  const std::string other = Canonical("torch.cuda.has_device_capability(90)");
  CHECK(Implied(c80, false, c80) == std::optional<bool>(false));
  CHECK(Implied(c80, true, c80) == std::optional<bool>(true));
  // Below SM80 the device is below SM90 too; at SM80 or above it is at
  // least SM70; the other two directions do not follow.
  CHECK(Implied(c80, false, c90) == std::optional<bool>(false));
  CHECK(Implied(c80, true, c70) == std::optional<bool>(true));
  CHECK_FALSE(Implied(c80, true, c90).has_value());
  CHECK_FALSE(Implied(c80, false, c70).has_value());
  // Another receiver, or another test, implies nothing.
  CHECK_FALSE(Implied(c80, false, other).has_value());
  CHECK_FALSE(Implied(c80, false, Canonical("x.is_rocm()")).has_value());
}

TEST_CASE("a capability test's receiver is a name, not a compound condition") {
  // `A and not P.has_device_capability(80)` false says nothing of the
  // same text at 90: no implication across a compound condition.
  const std::string c80 = Canonical("A and not current_platform.has_device_capability(80)");
  const std::string c90 = Canonical("A and not current_platform.has_device_capability(90)");
  CHECK_FALSE(Implied(c80, false, c90).has_value());
  CHECK(Implied(Canonical("a.b.has_device_capability(80)"), false,
                Canonical("a.b.has_device_capability(90)")) == std::optional<bool>(false));
}

}  // namespace muh
