#include "engine/patch/myers_split.h"

#include <cstddef>
#include <limits>

namespace muh {

namespace {

using Index = std::ptrdiff_t;

// git's limits for its default diff: a snake longer than kSnakeLength
// counts as a good one; past kHeuristicMinCost, a split at a good snake far
// enough along is taken early; past the larger of kMaxCostMin and the
// square root (as git rounds it) of the diagonals, the furthest point
// reached is taken.
constexpr Index kSnakeLength = 20;
constexpr Index kHeuristicMinCost = 256;
constexpr Index kMaxCostMin = 256;
constexpr Index kHeuristicFactor = 4;
constexpr Index kNoLine = std::numeric_limits<Index>::max() / 2;

// Where a range is cut, and whether each half must be diffed minimally.
struct Split {
  Index i1 = 0;
  Index i2 = 0;
  bool min_low = true;
  bool min_high = true;
};

class Solver {
 public:
  Solver(const std::vector<int>& a, const std::vector<int>& b, std::vector<char>* a_changed,
         std::vector<char>* b_changed)
      : a_(a),
        b_(b),
        a_changed_(*a_changed),
        b_changed_(*b_changed),
        offset_(static_cast<Index>(b.size()) + 1),
        forward_(a.size() + b.size() + 3),
        backward_(a.size() + b.size() + 3) {
    max_cost_ = static_cast<Index>(RoughSqrt(a.size() + b.size() + 3));
    if (max_cost_ < kMaxCostMin) max_cost_ = kMaxCostMin;
  }

  void Run() { Compare(0, static_cast<Index>(a_.size()), 0, static_cast<Index>(b_.size()), false); }

 private:
  Index& Forward(Index diagonal) { return forward_[static_cast<std::size_t>(diagonal + offset_)]; }
  Index& Backward(Index diagonal) {
    return backward_[static_cast<std::size_t>(diagonal + offset_)];
  }
  bool Same(Index i1, Index i2) const {
    return a_[static_cast<std::size_t>(i1)] == b_[static_cast<std::size_t>(i2)];
  }

  // Marks the changes of a[off1, lim1) against b[off2, lim2).
  void Compare(Index off1, Index lim1, Index off2, Index lim2, bool need_min) {
    while (off1 < lim1 && off2 < lim2 && Same(off1, off2)) ++off1, ++off2;
    while (off1 < lim1 && off2 < lim2 && Same(lim1 - 1, lim2 - 1)) --lim1, --lim2;
    if (off1 == lim1) {
      for (Index i = off2; i < lim2; ++i) b_changed_[static_cast<std::size_t>(i)] = 1;
    } else if (off2 == lim2) {
      for (Index i = off1; i < lim1; ++i) a_changed_[static_cast<std::size_t>(i)] = 1;
    } else {
      const Split split = FindSplit(off1, lim1, off2, lim2, need_min);
      Compare(off1, split.i1, off2, split.i2, split.min_low);
      Compare(split.i1, lim1, split.i2, lim2, split.min_high);
    }
  }

  // Diagonals are k = i1 - i2 in absolute positions. Both searches widen
  // their band by one diagonal per step, each step scanning from the
  // highest diagonal down; a forward tie goes to the deletion, and the
  // first overlap found is the split.
  Split FindSplit(Index off1, Index lim1, Index off2, Index lim2, bool need_min) {
    const Index dmin = off1 - lim2;
    const Index dmax = lim1 - off2;
    const Index fmid = off1 - off2;
    const Index bmid = lim1 - lim2;
    const bool odd = ((fmid - bmid) & 1) != 0;
    Index fmin = fmid, fmax = fmid, bmin = bmid, bmax = bmid;
    Forward(fmid) = off1;
    Backward(bmid) = lim1;
    for (Index cost = 1;; ++cost) {
      bool got_snake = false;
      if (fmin > dmin) {
        Forward(--fmin - 1) = -1;
      } else {
        ++fmin;
      }
      if (fmax < dmax) {
        Forward(++fmax + 1) = -1;
      } else {
        --fmax;
      }
      for (Index d = fmax; d >= fmin; d -= 2) {
        Index i1 = Forward(d - 1) >= Forward(d + 1) ? Forward(d - 1) + 1 : Forward(d + 1);
        const Index start = i1;
        Index i2 = i1 - d;
        while (i1 < lim1 && i2 < lim2 && Same(i1, i2)) ++i1, ++i2;
        if (i1 - start > kSnakeLength) got_snake = true;
        Forward(d) = i1;
        if (odd && bmin <= d && d <= bmax && Backward(d) <= i1) return {i1, i2, true, true};
      }
      if (bmin > dmin) {
        Backward(--bmin - 1) = kNoLine;
      } else {
        ++bmin;
      }
      if (bmax < dmax) {
        Backward(++bmax + 1) = kNoLine;
      } else {
        --bmax;
      }
      for (Index d = bmax; d >= bmin; d -= 2) {
        Index i1 = Backward(d - 1) < Backward(d + 1) ? Backward(d - 1) : Backward(d + 1) - 1;
        const Index start = i1;
        Index i2 = i1 - d;
        while (i1 > off1 && i2 > off2 && Same(i1 - 1, i2 - 1)) --i1, --i2;
        if (start - i1 > kSnakeLength) got_snake = true;
        Backward(d) = i1;
        if (!odd && fmin <= d && d <= fmax && i1 <= Forward(d)) return {i1, i2, true, true};
      }
      if (need_min) continue;
      Split split;
      if (got_snake && cost > kHeuristicMinCost &&
          GoodSnakeSplit(off1, lim1, off2, lim2, cost, fmin, fmax, fmid, bmin, bmax, bmid,
                         &split)) {
        return split;
      }
      if (cost >= max_cost_) return FurthestSplit(off1, lim1, off2, lim2, fmin, fmax, bmin, bmax);
    }
  }

  // git's first shortcut: a point well ahead of the cost spent that ends
  // (forward) or starts (backward) a snake of kSnakeLength lines.
  bool GoodSnakeSplit(Index off1, Index lim1, Index off2, Index lim2, Index cost, Index fmin,
                      Index fmax, Index fmid, Index bmin, Index bmax, Index bmid, Split* split) {
    Index best = 0;
    for (Index d = fmax; d >= fmin; d -= 2) {
      const Index dd = d > fmid ? d - fmid : fmid - d;
      const Index i1 = Forward(d);
      const Index i2 = i1 - d;
      const Index v = (i1 - off1) + (i2 - off2) - dd;
      if (v > kHeuristicFactor * cost && v > best && off1 + kSnakeLength <= i1 && i1 < lim1 &&
          off2 + kSnakeLength <= i2 && i2 < lim2) {
        for (Index k = 1; Same(i1 - k, i2 - k); ++k) {
          if (k == kSnakeLength) {
            best = v;
            *split = {i1, i2, true, false};
            break;
          }
        }
      }
    }
    if (best > 0) return true;
    for (Index d = bmax; d >= bmin; d -= 2) {
      const Index dd = d > bmid ? d - bmid : bmid - d;
      const Index i1 = Backward(d);
      const Index i2 = i1 - d;
      const Index v = (lim1 - i1) + (lim2 - i2) - dd;
      if (v > kHeuristicFactor * cost && v > best && off1 < i1 && i1 <= lim1 - kSnakeLength &&
          off2 < i2 && i2 <= lim2 - kSnakeLength) {
        for (Index k = 0; Same(i1 + k, i2 + k); ++k) {
          if (k == kSnakeLength - 1) {
            best = v;
            *split = {i1, i2, false, true};
            break;
          }
        }
      }
    }
    return best > 0;
  }

  // git's second shortcut: the furthest point either search reached.
  Split FurthestSplit(Index off1, Index lim1, Index off2, Index lim2, Index fmin, Index fmax,
                      Index bmin, Index bmax) {
    Index fbest = -1, fbest1 = -1;
    for (Index d = fmax; d >= fmin; d -= 2) {
      Index i1 = Forward(d) < lim1 ? Forward(d) : lim1;
      Index i2 = i1 - d;
      if (lim2 < i2) i1 = lim2 + d, i2 = lim2;
      if (fbest < i1 + i2) fbest = i1 + i2, fbest1 = i1;
    }
    Index bbest = kNoLine, bbest1 = kNoLine;
    for (Index d = bmax; d >= bmin; d -= 2) {
      Index i1 = Backward(d) > off1 ? Backward(d) : off1;
      Index i2 = i1 - d;
      if (i2 < off2) i1 = off2 + d, i2 = off2;
      if (i1 + i2 < bbest) bbest = i1 + i2, bbest1 = i1;
    }
    if ((lim1 + lim2) - bbest < fbest - (off1 + off2)) return {fbest1, fbest - fbest1, true, false};
    return {bbest1, bbest - bbest1, false, true};
  }

  const std::vector<int>& a_;
  const std::vector<int>& b_;
  std::vector<char>& a_changed_;
  std::vector<char>& b_changed_;
  const Index offset_;
  std::vector<Index> forward_;
  std::vector<Index> backward_;
  Index max_cost_ = kMaxCostMin;
};

}  // namespace

std::size_t RoughSqrt(std::size_t n) {
  std::size_t root = 1;
  for (; n > 0; n >>= 2) root <<= 1;
  return root;
}

void MarkChanges(const std::vector<int>& a, const std::vector<int>& b, std::vector<char>* a_changed,
                 std::vector<char>* b_changed) {
  Solver(a, b, a_changed, b_changed).Run();
}

}  // namespace muh
