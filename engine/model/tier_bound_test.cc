#include "engine/model/tier_bound.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("a literal bound is its number, and a literal") {
  TierBoundValue v = EvaluateTierBound("1024", {});
  CHECK(v.error.empty());
  CHECK(v.value == 1024);
  CHECK(v.literal);
  CHECK(v.names.empty());
}

TEST_CASE("a bound over module constants is evaluated, through constants of constants") {
  std::map<std::string, std::string> c = {{"_MAX_BLOCKS", "160"}, {"_WIDE", "_MAX_BLOCKS * 2"}};
  TierBoundValue v = EvaluateTierBound("_MAX_BLOCKS * 64", c);
  CHECK(v.error.empty());
  CHECK(v.value == 10240);
  CHECK_FALSE(v.literal);
  CHECK(v.names == std::vector<std::string>{"_MAX_BLOCKS"});
  v = EvaluateTierBound("(_WIDE + 4) // 2", c);
  CHECK(v.value == 162);
  CHECK(v.names == std::vector<std::string>{"_WIDE", "_MAX_BLOCKS"});
}

TEST_CASE("a bound that cannot be evaluated says why") {
  CHECK(EvaluateTierBound("_MISSING * 2", {}).error ==
        "'_MISSING' is no constant assigned once at the module's top level");
  CHECK(EvaluateTierBound("f(2)", {}).error.rfind("`f(2)` is not integer arithmetic", 0) == 0);
  CHECK(EvaluateTierBound("A", {{"A", "B"}, {"B", "A"}}).error.find("deeper than 8") !=
        std::string::npos);
  CHECK(EvaluateTierBound("A <= 2", {{"A", "1"}}).error ==
        "`A <= 2` compares; a bound is a number");
  CHECK(EvaluateTierBound("A // 0", {{"A", "1"}}).error == "division by zero");
}

TEST_CASE("constants built from constants are evaluated once each") {
  // Each level uses the one below ten times: 10^7 evaluations without a
  // memo, seven with one.
  std::map<std::string, std::string> c = {{"A0", "1"}};
  for (int i = 1; i <= 7; ++i) {
    std::string sum;
    for (int k = 0; k < 10; ++k) sum += (k ? " + A" : "A") + std::to_string(i - 1);
    c["A" + std::to_string(i)] = sum;
  }
  TierBoundValue v = EvaluateTierBound("A7", c);
  CHECK(v.error == "");
  CHECK(v.value == 10000000);
}

}  // namespace muh
