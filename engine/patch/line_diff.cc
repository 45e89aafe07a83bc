#include "engine/patch/line_diff.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace muh {

namespace {

using Index = std::ptrdiff_t;

// Myers' linear-space O((N + M) * D) algorithm ("An O(ND) Difference
// Algorithm and Its Variations", section 4b) over interned line ids. Marks
// every line that is not part of one longest common subsequence.
class MyersSolver {
 public:
  MyersSolver(const std::vector<int>& a, const std::vector<int>& b, std::vector<char>* a_changed,
              std::vector<char>* b_changed)
      : a_(a),
        b_(b),
        a_changed_(*a_changed),
        b_changed_(*b_changed),
        forward_(a.size() + b.size() + 3),
        backward_(a.size() + b.size() + 3) {}

  void Run() { Compare(0, static_cast<Index>(a_.size()), 0, static_cast<Index>(b_.size())); }

 private:
  struct Point {
    Index x;
    Index y;
  };

  // Marks the changed lines of a[a_lo, a_hi) against b[b_lo, b_hi).
  void Compare(Index a_lo, Index a_hi, Index b_lo, Index b_hi) {
    while (a_lo < a_hi && b_lo < b_hi && a_[a_lo] == b_[b_lo]) ++a_lo, ++b_lo;
    while (a_lo < a_hi && b_lo < b_hi && a_[a_hi - 1] == b_[b_hi - 1]) --a_hi, --b_hi;
    if (a_lo == a_hi) {
      std::fill(b_changed_.begin() + b_lo, b_changed_.begin() + b_hi, 1);
    } else if (b_lo == b_hi) {
      std::fill(a_changed_.begin() + a_lo, a_changed_.begin() + a_hi, 1);
    } else {
      const Point mid = MiddleSnake(a_lo, a_hi, b_lo, b_hi);
      Compare(a_lo, a_lo + mid.x, b_lo, b_lo + mid.y);
      Compare(a_lo + mid.x, a_hi, b_lo + mid.y, b_hi);
    }
  }

  // Returns, relative to (a_lo, b_lo), a point on a shortest edit path that
  // splits its cost D into ceil(D / 2) before and floor(D / 2) after. The
  // ranges are non-empty and differ in their first and in their last lines.
  Point MiddleSnake(Index a_lo, Index a_hi, Index b_lo, Index b_hi) {
    const int* a = a_.data() + a_lo;
    const int* b = b_.data() + b_lo;
    const Index n = a_hi - a_lo;
    const Index m = b_hi - b_lo;
    const Index delta = n - m;
    const bool odd = delta % 2 != 0;
    // Both arrays are indexed by diagonal k = x - y in [-m - 1, n + 1]; the
    // outermost slots are sentinels that are never chosen.
    Index* fwd = forward_.data() + (m + 1);
    Index* bwd = backward_.data() + (m + 1);
    fwd[-m - 1] = fwd[n + 1] = -1;
    bwd[-m - 1] = bwd[n + 1] = std::numeric_limits<Index>::max();
    fwd[1] = 0;
    bwd[delta - 1] = n;
    for (Index d = 0;; ++d) {
      // Furthest-reaching paths of cost d from (0, 0): on diagonal k, one
      // insertion from k + 1 or one deletion from k - 1, then equal lines.
      Index k_min = std::max(-d, -m);
      if ((k_min - d) % 2 != 0) ++k_min;
      Index k_max = std::min(d, n);
      if ((k_max - d) % 2 != 0) --k_max;
      for (Index k = k_min; k <= k_max; k += 2) {
        const bool insert = k == -d || (k != d && fwd[k - 1] < fwd[k + 1]);
        Index x = insert ? fwd[k + 1] : fwd[k - 1] + 1;
        Index y = x - k;
        while (x < n && y < m && a[x] == b[y]) ++x, ++y;
        fwd[k] = x;
        if (odd && k >= delta - (d - 1) && k <= delta + (d - 1) && x >= bwd[k]) return {x, y};
      }
      // Likewise backward from (n, m), whose diagonal is delta.
      k_min = std::max(delta - d, -m);
      if ((k_min - delta - d) % 2 != 0) ++k_min;
      k_max = std::min(delta + d, n);
      if ((k_max - delta - d) % 2 != 0) --k_max;
      for (Index k = k_min; k <= k_max; k += 2) {
        const bool insert = k == delta + d || (k != delta - d && bwd[k - 1] < bwd[k + 1]);
        Index x = insert ? bwd[k - 1] : bwd[k + 1] - 1;
        Index y = x - k;
        while (x > 0 && y > 0 && a[x - 1] == b[y - 1]) --x, --y;
        bwd[k] = x;
        if (!odd && k >= -d && k <= d && x <= fwd[k]) return {x, y};
      }
    }
  }

  const std::vector<int>& a_;
  const std::vector<int>& b_;
  std::vector<char>& a_changed_;
  std::vector<char>& b_changed_;
  std::vector<Index> forward_;
  std::vector<Index> backward_;
};

// One file's side of the diff during compaction, following git's xdiff
// (xdl_change_compact without the indent heuristic).
struct Side {
  const std::vector<std::string_view>& lines;
  std::vector<char>& changed;
  Index size() const { return static_cast<Index>(lines.size()); }
};

// A maximal run [start, end) of changed lines; empty between two unchanged
// lines. The i-th groups of the two files correspond to each other.
struct Group {
  Index start = 0;
  Index end = 0;
};

Group FirstGroup(const Side& s) {
  Group g;
  while (g.end < s.size() && s.changed[g.end]) ++g.end;
  return g;
}

bool NextGroup(const Side& s, Group* g) {
  if (g->end == s.size()) return false;
  g->start = g->end + 1;
  g->end = g->start;
  while (g->end < s.size() && s.changed[g->end]) ++g->end;
  return true;
}

bool PreviousGroup(const Side& s, Group* g) {
  if (g->start == 0) return false;
  g->end = g->start - 1;
  g->start = g->end;
  while (g->start > 0 && s.changed[g->start - 1]) --g->start;
  return true;
}

bool SlideDown(const Side& s, Group* g) {
  if (g->end == s.size() || s.lines[g->start] != s.lines[g->end]) return false;
  s.changed[g->start++] = 0;
  s.changed[g->end++] = 1;
  while (g->end < s.size() && s.changed[g->end]) ++g->end;
  return true;
}

bool SlideUp(const Side& s, Group* g) {
  if (g->start == 0 || s.lines[g->start - 1] != s.lines[g->end - 1]) return false;
  s.changed[--g->start] = 1;
  s.changed[--g->end] = 0;
  while (g->start > 0 && s.changed[g->start - 1]) --g->start;
  return true;
}

// Moves each changed group of `s` within its run of equal lines: onto a
// change of `other` when it can line up with one, else as low as possible.
void Compact(const Side& s, const Side& other) {
  Group g = FirstGroup(s);
  Group go = FirstGroup(other);
  while (true) {
    if (g.end != g.start) {
      Index group_size = 0;
      Index earliest_end = 0;
      Index end_matching_other = -1;
      do {
        group_size = g.end - g.start;
        end_matching_other = -1;
        while (SlideUp(s, &g)) PreviousGroup(other, &go);
        earliest_end = g.end;
        if (go.end > go.start) end_matching_other = g.end;
        while (SlideDown(s, &g)) {
          NextGroup(other, &go);
          if (go.end > go.start) end_matching_other = g.end;
        }
      } while (group_size != g.end - g.start);
      if (g.end != earliest_end && end_matching_other != -1) {
        while (go.end == go.start) {
          SlideUp(s, &g);
          PreviousGroup(other, &go);
        }
      }
    }
    if (!NextGroup(s, &g)) break;
    NextGroup(other, &go);
  }
}

}  // namespace

std::vector<std::string_view> SplitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t newline = text.find('\n', start);
    const std::size_t end = newline == std::string_view::npos ? text.size() : newline + 1;
    lines.push_back(text.substr(start, end - start));
    start = end;
  }
  return lines;
}

std::vector<LineChange> DiffLines(const std::vector<std::string_view>& old_lines,
                                  const std::vector<std::string_view>& new_lines) {
  const std::size_t n = old_lines.size();
  const std::size_t m = new_lines.size();
  std::size_t prefix = 0;
  while (prefix < n && prefix < m && old_lines[prefix] == new_lines[prefix]) ++prefix;
  std::size_t suffix = 0;
  while (suffix < n - prefix && suffix < m - prefix &&
         old_lines[n - 1 - suffix] == new_lines[m - 1 - suffix]) {
    ++suffix;
  }

  // Intern the middle lines (hash, then bytes on collision). A line absent
  // from the other side is in no common subsequence, so it is marked changed
  // up front and kept out of the Myers search.
  std::unordered_map<std::string_view, int> ids;
  std::vector<int> old_ids;
  std::vector<int> new_ids;
  for (std::size_t i = prefix; i < n - suffix; ++i) {
    old_ids.push_back(ids.emplace(old_lines[i], static_cast<int>(ids.size())).first->second);
  }
  for (std::size_t j = prefix; j < m - suffix; ++j) {
    new_ids.push_back(ids.emplace(new_lines[j], static_cast<int>(ids.size())).first->second);
  }
  std::vector<char> in_old(ids.size(), 0);
  std::vector<char> in_new(ids.size(), 0);
  for (int id : old_ids) in_old[id] = 1;
  for (int id : new_ids) in_new[id] = 1;

  std::vector<char> old_changed(n, 0);
  std::vector<char> new_changed(m, 0);
  std::vector<int> a, b;
  std::vector<std::size_t> a_line, b_line;
  for (std::size_t i = 0; i < old_ids.size(); ++i) {
    if (in_new[old_ids[i]]) {
      a.push_back(old_ids[i]);
      a_line.push_back(prefix + i);
    } else {
      old_changed[prefix + i] = 1;
    }
  }
  for (std::size_t j = 0; j < new_ids.size(); ++j) {
    if (in_old[new_ids[j]]) {
      b.push_back(new_ids[j]);
      b_line.push_back(prefix + j);
    } else {
      new_changed[prefix + j] = 1;
    }
  }
  std::vector<char> a_changed(a.size(), 0);
  std::vector<char> b_changed(b.size(), 0);
  MyersSolver(a, b, &a_changed, &b_changed).Run();
  for (std::size_t i = 0; i < a.size(); ++i) old_changed[a_line[i]] = a_changed[i];
  for (std::size_t j = 0; j < b.size(); ++j) new_changed[b_line[j]] = b_changed[j];

  const Side old_side{old_lines, old_changed};
  const Side new_side{new_lines, new_changed};
  Compact(old_side, new_side);
  Compact(new_side, old_side);

  std::vector<LineChange> changes;
  std::size_t i = 0;
  std::size_t j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && !old_changed[i] && !new_changed[j]) {
      ++i, ++j;
      continue;
    }
    LineChange change;
    change.old_begin = i;
    change.new_begin = j;
    while (i < n && old_changed[i]) ++i;
    while (j < m && new_changed[j]) ++j;
    change.old_count = i - change.old_begin;
    change.new_count = j - change.new_begin;
    changes.push_back(change);
  }
  return changes;
}

}  // namespace muh
