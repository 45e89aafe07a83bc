#include "engine/pattern/pattern_matcher.h"

#include <re2/re2.h>

#include <algorithm>
#include <string_view>
#include <utility>

#include "engine/pattern/code_pattern.h"
#include "engine/python/child_mapping.h"

namespace muh {

namespace {

using Binding = std::vector<PatternBinding>;

constexpr std::size_t kStepsPerKeptMatch = 8;

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
    // Runs leave gaps: the next named child pattern is not immediate, nor
    // is the last one closed.
    std::vector<const PatternNode*> patterns;
    std::vector<ChildStep> steps;
    bool gap = false;
    bool any_named = false;
    for (const PatternNode& c : pat.children) {
      if (c.kind == Kind::kRun) {
        gap = true;
        continue;
      }
      bool named = IsNamedPattern(c);
      patterns.push_back(&c);
      steps.push_back({c.field, named && pat.ordered && !gap});
      if (named) {
        gap = false;
        any_named = true;
      }
    }
    std::vector<ChildNode> kids = ChildrenOf(&cursor_, node);
    auto match = [&](std::size_t k, TSNode kid, std::vector<Binding>* found) {
      Match(*patterns[k], kid, found);
    };
    auto spend = [this](std::size_t n) { return Spend(n); };
    auto before = [](std::size_t, std::size_t) { return true; };
    ChildMapping<Binding, decltype(match), decltype(spend), decltype(before)> mapping(
        steps, kids, pat.ordered && !gap && any_named, kStepsPerKeptMatch, match, spend, before);
    mapping.Run(std::move(own), out);
  }

 private:
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
    for (const ChildNode& k : ChildrenOf(&cursor_, node)) Below(alt, k.node, depth - 1, out);
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

}  // namespace

bool MatchPatternTrees(const std::vector<PatternTree>& trees, const SyntaxTree& tree,
                       std::vector<PatternTreeMatch>* out, std::size_t* budget) {
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
      std::vector<bool> keep = FirstOfEachCaptureSet(found);
      for (std::size_t i = 0; i < found.size(); ++i) {
        if (keep[i] && SameAsHolds(trees[p], found[i], tree.bytes()))
          out->push_back({p, std::move(found[i])});
      }
    }
  }
  return true;
}

}  // namespace muh
