#include "engine/patch/myers_split.h"

#include <doctest/doctest.h>

#include <vector>

namespace muh {

TEST_CASE("RoughSqrt rounds as git") {
  CHECK(RoughSqrt(0) == 1);
  CHECK(RoughSqrt(3) == 2);
  CHECK(RoughSqrt(4) == 4);
  CHECK(RoughSqrt(20) == 8);
  CHECK(RoughSqrt(200000) == 512);
}

TEST_CASE("MarkChanges takes git's path through a tie") {
  // a = 1 2, b = 2 1: two shortest paths; git's search keeps the 2.
  std::vector<char> a_changed(2, 0), b_changed(2, 0);
  MarkChanges({1, 2}, {2, 1}, &a_changed, &b_changed);
  CHECK(a_changed == std::vector<char>{1, 0});
  CHECK(b_changed == std::vector<char>{0, 1});
}

TEST_CASE("MarkChanges marks a whole side against an empty one") {
  std::vector<char> a_changed(3, 0), b_changed;
  MarkChanges({1, 2, 3}, {}, &a_changed, &b_changed);
  CHECK(a_changed == std::vector<char>{1, 1, 1});
}

}  // namespace muh
