#include "engine/pattern/number_range.h"

#include <doctest/doctest.h>
#include <re2/re2.h>

#include <string>

namespace muh {

namespace {

// Every number from 0 to 20000 is inside the range exactly when the regex
// says so.
void CheckExhaustively(std::uint64_t lo, std::uint64_t hi) {
  re2::RE2 re(DecimalRangeRegex(lo, hi));
  REQUIRE(re.ok());
  for (std::uint64_t n = 0; n <= 20000; ++n) {
    bool inside = n >= lo && n <= hi;
    if (re2::RE2::FullMatch(std::to_string(n), re) != inside) {
      FAIL_CHECK(lo << ".." << hi << " at " << n << ": " << DecimalRangeRegex(lo, hi));
      return;
    }
  }
}

}  // namespace

TEST_CASE("a decimal range as a regex") {
  CHECK(DecimalRangeRegex(8, 12) == "^(?:[8-9]|1[0-2])$");
  CHECK(DecimalRangeRegex(64, 64) == "^(?:64)$");
  CHECK(DecimalRangeRegex(1, 1024) == "^(?:[1-9]|[1-9][0-9]|[1-9][0-9]{2}|10[0-1][0-9]|102[0-4])$");
  for (auto [lo, hi] : {std::pair<int, int>{0, 0},
                        {0, 9},
                        {0, 10},
                        {1, 4096},
                        {65, 1024},
                        {1025, 10240},
                        {17, 17017},
                        {99, 101},
                        {300, 19999}}) {
    CheckExhaustively(lo, hi);
  }
}

TEST_CASE("a decimal range leaves out leading zeros and other spellings") {
  re2::RE2 re(DecimalRangeRegex(1, 100));
  CHECK_FALSE(re2::RE2::FullMatch("064", re));
  CHECK_FALSE(re2::RE2::FullMatch("0x40", re));
  CHECK_FALSE(re2::RE2::FullMatch("6_4", re));
  CHECK(re2::RE2::FullMatch("64", re));
}

}  // namespace muh
