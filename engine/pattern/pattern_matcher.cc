#include "engine/pattern/pattern_matcher.h"

#include <re2/re2.h>

#include <algorithm>
#include <string_view>
#include <utility>

#include "engine/pattern/code_pattern.h"

namespace muh {

namespace {

using Binding = std::vector<PatternBinding>;

constexpr std::size_t kStepsPerKeptMatch = 8;

struct Kid {
  TSNode node;
  TSFieldId field;
  bool named;
};

std::string_view NodeText(std::string_view bytes, TSNode node) {
  uint32_t b = ts_node_start_byte(node);
  return bytes.substr(b, ts_node_end_byte(node) - b);
}

// Whether `text` passes a constraint on one capture.
bool Holds(const PatternConstraint& c, std::string_view text) {
  switch (c.kind) {
    case PatternConstraint::Kind::kEquals:
      return text == c.texts[0];
    case PatternConstraint::Kind::kRegex:
      return c.regex && c.regex->ok() && re2::RE2::PartialMatch(text, *c.regex);
    case PatternConstraint::Kind::kAnyOf:
      return std::find(c.texts.begin(), c.texts.end(), text) != c.texts.end();
    case PatternConstraint::Kind::kSameAs:
      break;
  }
  return true;
}

bool IsNamedPattern(const PatternNode& n) {
  return n.kind != PatternNode::Kind::kToken && n.kind != PatternNode::Kind::kRun;
}

class Matcher {
 public:
  Matcher(const PatternTree& pattern, std::string_view bytes, TSNode root, std::size_t* steps,
          std::size_t budget)
      : pattern_(pattern),
        bytes_(bytes),
        steps_(steps),
        budget_(budget),
        cursor_(ts_tree_cursor_new(root)) {}
  ~Matcher() { ts_tree_cursor_delete(&cursor_); }
  Matcher(const Matcher&) = delete;
  Matcher& operator=(const Matcher&) = delete;

  bool exceeded() const { return exceeded_; }

  // Every binding of `pat` at `node`, appended to `out`.
  void Match(const PatternNode& pat, TSNode node, std::vector<Binding>* out) {
    using Kind = PatternNode::Kind;
    if (!Spend(1)) return;
    switch (pat.kind) {
      case Kind::kRun:
        return;
      case Kind::kEither:
        for (const PatternNode& b : pat.children) Match(b, node, out);
        return;
      case Kind::kAnyDepth:
        for (const PatternNode& a : pat.children) {
          for (int d = a.min_depth; d <= kInsideDepth; ++d) Below(a, node, d, out);
        }
        return;
      case Kind::kToken:
        if (!ts_node_is_named(node) && Is(pat, node)) out->emplace_back();
        return;
      case Kind::kMetavariable:
      case Kind::kNode:
        break;
    }
    if (!ts_node_is_named(node) || (!pat.type.empty() && !Is(pat, node))) return;
    Binding own;
    if (!Bind(pat, node, &own)) return;
    if (pat.children.empty()) {
      out->push_back(std::move(own));
      return;
    }
    Assignment a{{}, {}, Kids(node), {}, {}, std::move(own), out, false};
    bool gap = false;
    bool any_named = false;
    for (const PatternNode& c : pat.children) {
      if (c.kind == Kind::kRun) {
        gap = true;
        continue;
      }
      bool named = IsNamedPattern(c);
      a.steps.push_back(&c);
      a.immediate.push_back(named && pat.ordered && !gap);
      if (named) {
        gap = false;
        any_named = true;
      }
    }
    a.closed = pat.ordered && !gap && any_named;
    a.memo.resize(a.steps.size() * a.kids.size());
    a.done.assign(a.memo.size(), false);
    Assign(&a, 0, 0, static_cast<std::size_t>(-1));
  }

 private:
  struct Assignment {
    std::vector<const PatternNode*> steps;  // the child patterns, runs left out
    std::vector<bool> immediate;            // each takes the next named kid or none
    std::vector<Kid> kids;
    std::vector<std::vector<Binding>> memo;  // [step * kids + kid]
    std::vector<bool> done;
    Binding acc;
    std::vector<Binding>* out;
    bool closed;  // no named kid may follow the last step's
  };

  bool Spend(std::size_t steps) {
    *steps_ += steps;
    if (*steps_ > budget_) exceeded_ = true;
    return !exceeded_;
  }

  static bool Is(const PatternNode& pat, TSNode node) {
    TSSymbol s = ts_node_symbol(node);
    return s < pat.symbols.size() && pat.symbols[s];
  }

  // `alt` at `depth` nodes below `node`: the node itself at depth 0, else a
  // child of a named node at depth - 1.
  void Below(const PatternNode& alt, TSNode node, int depth, std::vector<Binding>* out) {
    if (depth == 0) {
      Match(alt, node, out);
      return;
    }
    if (!Spend(1) || !ts_node_is_named(node)) return;
    for (const Kid& k : Kids(node)) Below(alt, k.node, depth - 1, out);
  }

  bool Bind(const PatternNode& pat, TSNode node, Binding* b) {
    if (pat.capture_id == kNoCapture) return true;
    for (const PatternConstraint& c : pattern_.constraints) {
      if (c.capture_id == pat.capture_id && c.kind != PatternConstraint::Kind::kSameAs &&
          !Holds(c, NodeText(bytes_, node)))
        return false;
    }
    b->push_back({pat.capture_id, node});
    return true;
  }

  std::vector<Kid> Kids(TSNode node) {
    std::vector<Kid> kids;
    ts_tree_cursor_reset(&cursor_, node);
    if (!ts_tree_cursor_goto_first_child(&cursor_)) return kids;
    do {
      TSNode n = ts_tree_cursor_current_node(&cursor_);
      kids.push_back({n, ts_tree_cursor_current_field_id(&cursor_), ts_node_is_named(n)});
    } while (ts_tree_cursor_goto_next_sibling(&cursor_));
    return kids;
  }

  const std::vector<Binding>& At(Assignment* a, std::size_t k, std::size_t j) {
    std::size_t i = k * a->kids.size() + j;
    if (!a->done[i]) {
      a->done[i] = true;
      const PatternNode& step = *a->steps[k];
      if (step.field == 0 || a->kids[j].field == step.field)
        Match(step, a->kids[j].node, &a->memo[i]);
    }
    return a->memo[i];
  }

  // Steps k.. map to kids from..; `last` is the kid of step k-1.
  void Assign(Assignment* a, std::size_t k, std::size_t from, std::size_t last) {
    const std::size_t n = a->kids.size();
    if (!Spend(1)) return;
    if (k == a->steps.size()) {
      if (a->closed) {
        for (std::size_t j = last + 1; j < n; ++j) {
          if (a->kids[j].named) return;
        }
      }
      if (Spend(kStepsPerKeptMatch + a->acc.size())) a->out->push_back(a->acc);
      return;
    }
    const bool immediate = a->immediate[k];
    for (std::size_t j = from; j < n && !exceeded_; ++j) {
      if (immediate && !a->kids[j].named) continue;
      const std::vector<Binding>& options = At(a, k, j);
      for (const Binding& b : options) {
        std::size_t mark = a->acc.size();
        a->acc.insert(a->acc.end(), b.begin(), b.end());
        Assign(a, k + 1, j + 1, j);
        a->acc.resize(mark);
      }
      if (immediate) break;
    }
  }

  const PatternTree& pattern_;
  std::string_view bytes_;
  std::size_t* steps_;
  const std::size_t budget_;
  TSTreeCursor cursor_;
  bool exceeded_ = false;
};

// Whether the constraints on two captures hold (`$X = $X + 1`).
bool SameAsHolds(const PatternTree& pattern, const Binding& b, std::string_view bytes) {
  auto text_of = [&](uint32_t id, std::string_view* text) {
    for (const PatternBinding& c : b) {
      if (c.capture == id) {
        *text = NodeText(bytes, c.node);
        return true;
      }
    }
    return false;
  };
  for (const PatternConstraint& c : pattern.constraints) {
    if (c.kind != PatternConstraint::Kind::kSameAs) continue;
    std::string_view one, other;
    if (text_of(c.capture_id, &one) && text_of(c.other_id, &other) && one != other) return false;
  }
  return true;
}

// Key for "the same captures": capture ids and node identities.
std::vector<std::pair<uint32_t, const void*>> KeyOf(const Binding& b) {
  std::vector<std::pair<uint32_t, const void*>> key;
  key.reserve(b.size());
  for (const PatternBinding& c : b) key.emplace_back(c.capture, c.node.id);
  std::sort(key.begin(), key.end());
  return key;
}

}  // namespace

bool MatchPatternTrees(const std::vector<PatternTree>& trees, const SyntaxTree& tree,
                       std::vector<PatternMatch>* out, std::size_t* budget) {
  out->clear();
  const SyntaxTree::Index& index = tree.NodeIndex();
  *budget = kPatternStepBudget + kPatternStepsPerNode * index.nodes.size();
  std::size_t steps = 0;
  std::vector<Binding> found;
  std::vector<uint32_t> positions;
  for (std::size_t p = 0; p < trees.size(); ++p) {
    const PatternNode& root = trees[p].root;
    // The nodes this pattern can start at: those of its type, else all.
    std::vector<TSNode> starts;
    if (!root.type.empty()) {
      positions.clear();
      for (std::size_t sym = 0; sym < root.symbols.size() && sym < index.by_symbol.size(); ++sym) {
        if (root.symbols[sym]) {
          positions.insert(positions.end(), index.by_symbol[sym].begin(),
                           index.by_symbol[sym].end());
        }
      }
      std::sort(positions.begin(), positions.end());
      for (uint32_t at : positions) starts.push_back(index.nodes[at]);
    } else {
      starts = index.nodes;
    }
    Matcher matcher(trees[p], tree.bytes(), tree.Root(), &steps, *budget);
    for (const TSNode& start : starts) {
      found.clear();
      matcher.Match(root, start, &found);
      if (matcher.exceeded()) {
        out->clear();
        return false;
      }
      std::vector<bool> keep(found.size(), true);
      if (found.size() > 1) {
        std::vector<std::pair<std::vector<std::pair<uint32_t, const void*>>, std::size_t>> keys;
        for (std::size_t i = 0; i < found.size(); ++i) keys.emplace_back(KeyOf(found[i]), i);
        std::sort(keys.begin(), keys.end());
        for (std::size_t i = 1; i < keys.size(); ++i) {
          if (keys[i].first == keys[i - 1].first) keep[keys[i].second] = false;
        }
      }
      for (std::size_t i = 0; i < found.size(); ++i) {
        if (keep[i] && SameAsHolds(trees[p], found[i], tree.bytes()))
          out->push_back({p, std::move(found[i])});
      }
    }
  }
  return true;
}

}  // namespace muh
