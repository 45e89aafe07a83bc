#include "engine/model/tier_split.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace muh {

namespace {

constexpr double kEpsilon = 1e-12;

struct Score {
  double worst = -1;  // < 0: impossible
  double sum = 0;
};

// Whether `a` beats `b`: a larger worst share, then a larger sum.
bool Better(const Score& a, const Score& b) {
  if (a.worst > b.worst + kEpsilon) return true;
  if (a.worst < b.worst - kEpsilon) return false;
  return a.sum > b.sum + kEpsilon;
}

std::optional<double> TimeOf(const TierPoint& p, const std::string& value) {
  for (const auto& [v, us] : p.us) {
    if (v == value) return us;
  }
  return std::nullopt;
}

double BestAt(const TierPoint& p) {
  double best = 0;
  for (const auto& [v, us] : p.us) best = best == 0 ? us : std::min(best, us);
  return best;
}

// The best value for points [first, last) and its score.
std::optional<std::string> Best(const std::vector<TierPoint>& points, std::size_t first,
                                std::size_t last, Score* score) {
  std::optional<std::string> pick;
  Score best;
  for (const auto& [value, ignored] : points[first].us) {
    Score s{1, 0};
    for (std::size_t i = first; i < last && s.worst >= 0; ++i) {
      std::optional<double> t = TimeOf(points[i], value);
      if (!t || *t <= 0) {
        s.worst = -1;
        break;
      }
      double share = BestAt(points[i]) / *t;
      s.worst = std::min(s.worst, share);
      s.sum += share;
    }
    if (s.worst >= 0 && (!pick || Better(s, best))) {
      pick = value;
      best = s;
    }
  }
  *score = best;
  return pick;
}

}  // namespace

std::vector<TierRange> TierRanges(const std::vector<int64_t>& bounds, bool has_else, int64_t max) {
  std::vector<TierRange> out;
  int64_t lo = 0;
  for (int64_t b : bounds) {
    out.push_back({lo, b});
    lo = b;
  }
  // The last tier reaches `max`, or one past the last bound (none past the
  // largest integer).
  if (has_else) {
    out.push_back({lo, std::max(max, lo < std::numeric_limits<int64_t>::max() ? lo + 1 : lo)});
  }
  return out;
}

int64_t BoundBetween(int64_t a, int64_t b) {
  double mid = (std::log2(static_cast<double>(std::max<int64_t>(a, 1))) +
                std::log2(static_cast<double>(std::max<int64_t>(b, 1)))) /
               2;
  int exponent = static_cast<int>(std::ceil(mid - 0.5));
  exponent = std::clamp(exponent, 0, 62);
  return std::clamp<int64_t>(int64_t{1} << exponent, a, std::max(a, b - 1));
}

std::optional<std::string> BestTierValue(const std::vector<TierPoint>& points, std::size_t first,
                                         std::size_t last, double* worst) {
  if (first >= last || last > points.size()) return std::nullopt;
  Score s;
  std::optional<std::string> v = Best(points, first, last, &s);
  if (v) *worst = s.worst;
  return v;
}

std::optional<TierSplit> ChooseTierSplit(const std::vector<TierPoint>& points, std::size_t tiers) {
  std::size_t n = points.size();
  if (tiers == 0 || n < tiers) return std::nullopt;
  // score[t][j]: the first j points in t + 1 tiers; from[t][j]: where the last tier starts.
  std::vector<std::vector<Score>> score(tiers, std::vector<Score>(n + 1));
  std::vector<std::vector<std::size_t>> from(tiers, std::vector<std::size_t>(n + 1, 0));
  for (std::size_t t = 0; t < tiers; ++t) {
    for (std::size_t j = t + 1; j <= n; ++j) {
      for (std::size_t s = t; s < j; ++s) {
        if (t == 0 && s != 0) break;
        Score before = t == 0 ? Score{1, 0} : score[t - 1][s];
        if (before.worst < 0) continue;
        Score last;
        if (!Best(points, s, j, &last)) continue;
        Score both{std::min(before.worst, last.worst), before.sum + last.sum};
        if (Better(both, score[t][j])) {
          score[t][j] = both;
          from[t][j] = s;
        }
      }
    }
  }
  if (score[tiers - 1][n].worst < 0) return std::nullopt;
  TierSplit out;
  out.worst_share = score[tiers - 1][n].worst;
  out.first.resize(tiers);
  std::size_t j = n;
  for (std::size_t t = tiers; t-- > 0;) {
    out.first[t] = from[t][j];
    j = from[t][j];
  }
  for (std::size_t t = 0; t < tiers; ++t) {
    std::size_t last = t + 1 < tiers ? out.first[t + 1] : n;
    double worst = 0;
    out.values.push_back(*BestTierValue(points, out.first[t], last, &worst));
    out.worst.push_back(worst);
    if (t + 1 < tiers) out.bounds.push_back(BoundBetween(points[last - 1].at, points[last].at));
  }
  return out;
}

}  // namespace muh
