#include "engine/patch/change_compact.h"

#include <cstddef>

namespace muh {

namespace {

using Index = std::ptrdiff_t;

constexpr int kMaxIndent = 200;
constexpr int kMaxBlanks = 20;
constexpr Index kMaxSliding = 100;

// git's weights for a boundary between lines (xdiff's indent heuristic).
constexpr int kStartOfFilePenalty = 1;
constexpr int kEndOfFilePenalty = 21;
constexpr int kTotalBlankWeight = -30;
constexpr int kPostBlankWeight = 6;
constexpr int kRelativeIndentPenalty = -4;
constexpr int kRelativeIndentWithBlankPenalty = 10;
constexpr int kRelativeOutdentPenalty = 24;
constexpr int kRelativeOutdentWithBlankPenalty = 17;
constexpr int kRelativeDedentPenalty = 23;
constexpr int kRelativeDedentWithBlankPenalty = 17;
constexpr int kIndentWeight = 60;

// A maximal run [start, end) of changed lines; empty between two unchanged
// lines. The i-th groups of the two files correspond to each other.
struct Group {
  Index start = 0;
  Index end = 0;
};

class Sliding {
 public:
  explicit Sliding(const DiffSide& side) : side_(side) {}

  Index size() const { return static_cast<Index>(side_.lines.size()); }
  bool Changed(Index i) const { return i >= 0 && i < size() && side_.changed[At(i)] != 0; }
  std::string_view Line(Index i) const { return side_.lines[At(i)]; }

  Group First() const {
    Group g;
    while (Changed(g.end)) ++g.end;
    return g;
  }

  bool Next(Group* g) const {
    if (g->end == size()) return false;
    g->start = g->end + 1;
    g->end = g->start;
    while (Changed(g->end)) ++g->end;
    return true;
  }

  bool Previous(Group* g) const {
    if (g->start == 0) return false;
    g->end = g->start - 1;
    g->start = g->end;
    while (Changed(g->start - 1)) --g->start;
    return true;
  }

  bool SlideDown(Group* g) const {
    if (g->end == size() || Line(g->start) != Line(g->end)) return false;
    side_.changed[At(g->start++)] = 0;
    side_.changed[At(g->end++)] = 1;
    while (Changed(g->end)) ++g->end;
    return true;
  }

  bool SlideUp(Group* g) const {
    if (g->start == 0 || Line(g->start - 1) != Line(g->end - 1)) return false;
    side_.changed[At(--g->start)] = 1;
    side_.changed[At(--g->end)] = 0;
    while (Changed(g->start - 1)) --g->start;
    return true;
  }

 private:
  static std::size_t At(Index i) { return static_cast<std::size_t>(i); }
  const DiffSide& side_;
};

// What the lines around the boundary before line `split` look like.
struct Boundary {
  bool end_of_file = false;
  int indent = -1;       // of the line after the boundary; -1 if blank
  int pre_blank = 0;     // blank lines just above it
  int pre_indent = -1;   // of the nearest non-blank line above; -1 if none
  int post_blank = 0;    // blank lines below the line after it
  int post_indent = -1;  // of the nearest non-blank line below that; -1 if none
};

Boundary Measure(const Sliding& s, Index split) {
  Boundary m;
  if (split >= s.size()) {
    m.end_of_file = true;
  } else {
    m.indent = LineIndent(s.Line(split));
  }
  for (Index i = split - 1; i >= 0; --i) {
    m.pre_indent = LineIndent(s.Line(i));
    if (m.pre_indent != -1) break;
    if (++m.pre_blank == kMaxBlanks) {
      m.pre_indent = 0;
      break;
    }
  }
  for (Index i = split + 1; i < s.size(); ++i) {
    m.post_indent = LineIndent(s.Line(i));
    if (m.post_indent != -1) break;
    if (++m.post_blank == kMaxBlanks) {
      m.post_indent = 0;
      break;
    }
  }
  return m;
}

struct Score {
  int effective_indent = 0;
  int penalty = 0;
};

void AddBoundary(const Boundary& m, Score* score) {
  if (m.pre_indent == -1 && m.pre_blank == 0) score->penalty += kStartOfFilePenalty;
  if (m.end_of_file) score->penalty += kEndOfFilePenalty;
  const int post_blank = m.indent == -1 ? 1 + m.post_blank : 0;
  const int total_blank = m.pre_blank + post_blank;
  score->penalty += kTotalBlankWeight * total_blank + kPostBlankWeight * post_blank;
  const int indent = m.indent != -1 ? m.indent : m.post_indent;
  const bool any_blanks = total_blank != 0;
  score->effective_indent += indent;
  if (indent == -1 || m.pre_indent == -1 || indent == m.pre_indent) return;
  if (indent > m.pre_indent) {
    score->penalty += any_blanks ? kRelativeIndentWithBlankPenalty : kRelativeIndentPenalty;
  } else if (m.post_indent != -1 && m.post_indent > indent) {
    score->penalty += any_blanks ? kRelativeOutdentWithBlankPenalty : kRelativeOutdentPenalty;
  } else {
    score->penalty += any_blanks ? kRelativeDedentWithBlankPenalty : kRelativeDedentPenalty;
  }
}

// Negative when `a` reads better than `b`.
int Compare(const Score& a, const Score& b) {
  const int indents =
      (a.effective_indent > b.effective_indent) - (a.effective_indent < b.effective_indent);
  return kIndentWeight * indents + (a.penalty - b.penalty);
}

// The end, between `earliest_end` and `g.end`, that the indent heuristic
// gives a group of `size` lines; ties go to the lowest.
Index BestEnd(const Sliding& s, const Group& g, Index size, Index earliest_end) {
  Index shift = earliest_end;
  if (g.end - size - 1 > shift) shift = g.end - size - 1;
  if (g.end - kMaxSliding > shift) shift = g.end - kMaxSliding;
  Index best = -1;
  Score best_score;
  for (; shift <= g.end; ++shift) {
    Score score;
    AddBoundary(Measure(s, shift), &score);
    AddBoundary(Measure(s, shift - size), &score);
    if (best == -1 || Compare(score, best_score) <= 0) {
      best_score = score;
      best = shift;
    }
  }
  return best;
}

}  // namespace

int LineIndent(std::string_view line) {
  int indent = 0;
  for (char c : line) {
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\v' && c != '\f') return indent;
    if (c == ' ') {
      indent += 1;
    } else if (c == '\t') {
      indent += 8 - indent % 8;
    }
    if (indent >= kMaxIndent) return kMaxIndent;
  }
  return -1;
}

void CompactChanges(const DiffSide& side, const DiffSide& other) {
  const Sliding s(side);
  const Sliding o(other);
  Group g = s.First();
  Group go = o.First();
  while (true) {
    if (g.end != g.start) {
      Index size = 0;
      Index earliest_end = 0;
      Index end_matching_other = -1;
      // Slide up then down as far as it goes, merging with groups it meets,
      // until its size stops changing.
      do {
        size = g.end - g.start;
        end_matching_other = -1;
        while (s.SlideUp(&g)) o.Previous(&go);
        earliest_end = g.end;
        if (go.end > go.start) end_matching_other = g.end;
        while (s.SlideDown(&g)) {
          o.Next(&go);
          if (go.end > go.start) end_matching_other = g.end;
        }
      } while (size != g.end - g.start);
      Index target = g.end;
      if (g.end == earliest_end) {
        target = g.end;
      } else if (end_matching_other != -1) {
        target = end_matching_other;
      } else {
        target = BestEnd(s, g, size, earliest_end);
      }
      while (g.end > target) {
        s.SlideUp(&g);
        o.Previous(&go);
      }
    }
    if (!s.Next(&g)) break;
    o.Next(&go);
  }
}

}  // namespace muh
