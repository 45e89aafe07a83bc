// A tier chain's ranges and, from measurements, its bounds and values chosen
// together. Tier i of a chain with bounds B1 < ... < Bn covers (B(i-1), Bi]
// (from 0 for the first); a final `else` covers (Bn, the largest value the
// workload brings]. With candidates timed at measured points of the tier
// variable, ChooseTierSplit splits the sorted points into as many contiguous
// tiers as the chain has, each with one value measured at all of its points,
// so that the worst share of the best time over every point is largest; a
// bound falls between the last point of one tier and the first of the next.
// Pure.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace muh {

struct TierRange {
  int64_t lo = 0;  // exclusive
  int64_t hi = 0;  // inclusive
};

// The range of each tier: bounds ascending; `has_else` adds the tier above
// the last bound, up to `max` (at least the last bound + 1).
std::vector<TierRange> TierRanges(const std::vector<int64_t>& bounds, bool has_else, int64_t max);

// A bound between measured points a < b: the power of two nearest the
// geometric middle of a and b (in log scale; the smaller on a tie), kept
// within [a, b - 1].
int64_t BoundBetween(int64_t a, int64_t b);

// One measured point of the tier variable: each candidate value that ran
// there and its time, in microseconds.
struct TierPoint {
  int64_t at = 0;
  std::vector<std::pair<std::string, double>> us;
};

struct TierSplit {
  std::vector<std::size_t> first;   // per tier: the index of its first point
  std::vector<std::string> values;  // per tier
  std::vector<double> worst;        // per tier: its worst share of a point's best
  std::vector<int64_t> bounds;      // between the tiers (tiers - 1 of them)
  double worst_share = 0;           // over every point
};

// The split of `points` (ascending by `at`, distinct) into exactly `tiers`
// non-empty contiguous tiers. Ties: the larger sum of shares, then the
// earlier split, then the value listed first at the tier's first point.
// nullopt when there are fewer points than tiers or no split gives every
// tier a value measured at all of its points.
std::optional<TierSplit> ChooseTierSplit(const std::vector<TierPoint>& points, std::size_t tiers);

// The value for points [first, last) alone (a tier whose bounds are kept):
// its worst share in `*worst`; nullopt when no value was measured at all.
std::optional<std::string> BestTierValue(const std::vector<TierPoint>& points, std::size_t first,
                                         std::size_t last, double* worst);

}  // namespace muh
