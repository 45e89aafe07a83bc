#include "engine/model/tier_split.h"

#include <doctest/doctest.h>

#include <limits>

namespace muh {

namespace {

// The H200's fused-MoE timings (bench/real_kernels/h200.json) at numel =
// 8 * M for M = 16 .. 16384: each BLOCK_SIZE_M measured there with the
// dict's N, K and GROUP_SIZE_M.
std::vector<TierPoint> H200() {
  return {{128, {{"16", 55.38}, {"64", 75.89}}},
          {512, {{"16", 79.31}, {"64", 100.22}}},
          {2048, {{"64", 85.21}, {"128", 109.0}}},
          {8192, {{"64", 109.03}, {"128", 116.75}}},
          {32768, {{"128", 238.85}}},
          {131072, {{"128", 744.36}}}};
}

}  // namespace

TEST_CASE("each tier covers the range the code gives it") {
  std::vector<TierRange> r = TierRanges({64, 1024}, true, 131072);
  REQUIRE(r.size() == 3);
  CHECK((r[0].lo == 0 && r[0].hi == 64));
  CHECK((r[1].lo == 64 && r[1].hi == 1024));
  CHECK((r[2].lo == 1024 && r[2].hi == 131072));
  // Five tiers, the else above a bound past the workload's largest batch.
  r = TierRanges({64, 1024, 5120, 10240}, true, 8192);
  REQUIRE(r.size() == 5);
  CHECK((r[3].lo == 5120 && r[3].hi == 10240));
  CHECK((r[4].lo == 10240 && r[4].hi == 10241));
  CHECK(TierRanges({64}, false, 100).size() == 1);
}

TEST_CASE("a bound between two points is the power of two at their geometric middle") {
  CHECK(BoundBetween(512, 2048) == 1024);
  CHECK(BoundBetween(8192, 32768) == 16384);
  CHECK(BoundBetween(128, 512) == 256);
  CHECK(BoundBetween(128, 256) == 128);  // middle 2^7.5: the smaller
  CHECK(BoundBetween(100, 101) == 100);  // kept within [a, b - 1]
  CHECK(BoundBetween(3, 1000) == 64);    // 2^6.3
}

TEST_CASE("the H200's measurements choose bounds and values together") {
  std::optional<TierSplit> s = ChooseTierSplit(H200(), 3);
  REQUIRE(s);
  CHECK(s->values == std::vector<std::string>{"16", "64", "128"});
  CHECK(s->bounds == std::vector<int64_t>{1024, 16384});
  CHECK(s->first == std::vector<std::size_t>{0, 2, 4});
  CHECK(s->worst_share == doctest::Approx(1.0));
}

TEST_CASE("the worst share decides, then the sum of shares") {
  // One tier over all points: only 128 was measured everywhere from 2048 up.
  std::vector<TierPoint> p = H200();
  p.erase(p.begin(), p.begin() + 2);
  std::optional<TierSplit> one = ChooseTierSplit(p, 1);
  REQUIRE(one);
  CHECK(one->values == std::vector<std::string>{"128"});
  CHECK(one->worst_share == doctest::Approx(85.21 / 109.0));
  // Two tiers: 64 for the two smaller points, 128 above.
  std::optional<TierSplit> two = ChooseTierSplit(p, 2);
  REQUIRE(two);
  CHECK(two->values == std::vector<std::string>{"64", "128"});
  CHECK(two->bounds == std::vector<int64_t>{16384});
  double worst = 0;
  CHECK(BestTierValue(p, 0, 2, &worst) == std::optional<std::string>("64"));
  CHECK(worst == doctest::Approx(1.0));
}

TEST_CASE("no split without enough points or a value measured across a tier") {
  CHECK_FALSE(ChooseTierSplit(H200(), 7));
  std::vector<TierPoint> gap = {{1, {{"16", 1.0}}}, {2, {{"32", 1.0}}}};
  CHECK_FALSE(ChooseTierSplit(gap, 1));
  CHECK(ChooseTierSplit(gap, 2));
}

TEST_CASE("a last bound at the largest integer gives an else tier without overflow") {
  const int64_t top = std::numeric_limits<int64_t>::max();
  std::vector<TierRange> r = TierRanges({64, top}, true, 1024);
  REQUIRE(r.size() == 3);
  CHECK(r[2].lo == top);
  CHECK(r[2].hi == top);
}

}  // namespace muh
