#include "engine/query/pattern_match.h"

#include <algorithm>
#include <utility>

#include "engine/python/child_mapping.h"

namespace muh {

namespace {

using Binding = std::vector<PatternCapture>;

class Matcher {
 public:
  Matcher(const TSLanguage* language, TSNode root, const AdmitFn& admit, MatchWork* work)
      : admit_(admit),
        work_(work),
        semicolon_(ts_language_symbol_for_name(language, ";", 1, false)),
        cursor_(ts_tree_cursor_new(root)) {}
  ~Matcher() { ts_tree_cursor_delete(&cursor_); }
  Matcher(const Matcher&) = delete;
  Matcher& operator=(const Matcher&) = delete;

  void set_pattern(std::size_t p) { pattern_ = p; }
  // Why libtree-sitter must match this tree instead, or kNone.
  HandOff hand_off() const { return hand_off_; }

  // Every binding of `pat` at `node`, appended to `out`.
  void Match(const QueryNode& pat, TSNode node, std::vector<Binding>* out) {
    using Kind = QueryNode::Kind;
    if (!Spend(1)) return;
    if (pat.kind == Kind::kAlternation) {
      std::size_t first = out->size();
      for (const QueryNode& b : pat.branches) Match(b, node, out);
      if (pat.captures.empty()) return;
      for (std::size_t i = first; i < out->size();) {
        if (Bind(pat, node, &(*out)[i])) {
          ++i;
        } else {
          out->erase(out->begin() + static_cast<std::ptrdiff_t>(i));
        }
      }
      return;
    }
    if (!NodeLevelMatch(pat, node)) return;
    Binding own;
    if (!Bind(pat, node, &own)) return;
    if (pat.children.empty()) {
      out->push_back(std::move(own));
      return;
    }
    std::vector<ChildNode> kids = ChildrenOf(&cursor_, node);
    // libtree-sitter scopes some anchor checks by the hidden node that holds
    // `a; b` statement lists (a statement before `;` counts as a last child);
    // anchors among such siblings are left to it.
    if (HasAnchor(pat)) {
      for (const ChildNode& k : kids) {
        if (!k.named && ts_node_symbol(k.node) == semicolon_) {
          hand_off_ = HandOff::kAnchorAmongSemicolonStatements;
          return;
        }
      }
    }
    std::vector<ChildStep> steps;
    steps.reserve(pat.children.size());
    for (const QueryChild& c : pat.children) {
      steps.push_back({c.field, c.immediate, c.skippable.empty() ? nullptr : &c.skippable});
    }
    auto match = [&](std::size_t k, TSNode kid, std::vector<Binding>* found) {
      Match(pat.children[k].node[0], kid, found);
    };
    auto spend = [this](std::size_t n) { return Spend(n); };
    auto before = [&](std::size_t k, std::size_t from) {
      // A step libtree-sitter may commit to its first candidate sibling.
      const QueryChild& spec = pat.children[k];
      if (spec.may_take_first_candidate_only && hand_off_ == HandOff::kNone) {
        int candidates = 0;
        for (std::size_t j = from; j < kids.size() && candidates < 2; ++j) {
          if ((spec.field == 0 || kids[j].field == spec.field) &&
              NodeLevelMatch(spec.node[0], kids[j].node)) {
            ++candidates;
          }
        }
        if (candidates > 1) hand_off_ = HandOff::kFirstCandidateStep;
      }
      return hand_off_ == HandOff::kNone;
    };
    ChildMapping<Binding, decltype(match), decltype(spend), decltype(before)> mapping(
        steps, kids, pat.anchored_last, kStepsPerKeptMatch, match, spend, before);
    mapping.Run(std::move(own), out);
  }

 private:
  // False once the budget has run out.
  bool Spend(std::size_t steps) {
    work_->steps += steps;
    if (work_->steps > work_->budget) work_->exceeded = true;
    return !work_->exceeded;
  }

  static bool HasAnchor(const QueryNode& pat) {
    if (pat.anchored_last) return true;
    for (const QueryChild& c : pat.children) {
      if (c.immediate) return true;
    }
    return false;
  }

  // Type and negated fields: what libtree-sitter checks before it looks at
  // a node's children.
  static bool NodeLevelMatch(const QueryNode& pat, TSNode node) {
    if (pat.kind == QueryNode::Kind::kAlternation) {
      for (const QueryNode& b : pat.branches) {
        if (NodeLevelMatch(b, node)) return true;
      }
      return false;
    }
    if (!TypeMatches(pat, node)) return false;
    for (TSFieldId f : pat.negated) {
      if (!ts_node_is_null(ts_node_child_by_field_id(node, f))) return false;
    }
    return true;
  }

  static bool TypeMatches(const QueryNode& pat, TSNode node) {
    using Kind = QueryNode::Kind;
    switch (pat.kind) {
      case Kind::kAny:
        return true;
      case Kind::kAnyNamed:
        return ts_node_is_named(node);
      case Kind::kNamed:
      case Kind::kAnonymous: {
        if (ts_node_is_named(node) != (pat.kind == Kind::kNamed)) return false;
        TSSymbol s = ts_node_symbol(node);
        return s < pat.symbols.size() && pat.symbols[s];
      }
      case Kind::kAlternation:
        break;
    }
    return false;
  }

  bool Bind(const QueryNode& pat, TSNode node, Binding* b) {
    for (uint32_t c : pat.captures) {
      if (admit_ && !admit_(pattern_, c, node)) return false;
      b->push_back({c, node});
    }
    return true;
  }

  const AdmitFn& admit_;
  MatchWork* work_;
  const TSSymbol semicolon_;
  TSTreeCursor cursor_;
  std::size_t pattern_ = 0;
  HandOff hand_off_ = HandOff::kNone;
};

}  // namespace

HandOff MatchPatterns(const ParsedQuery& query, const SyntaxTree& tree, const AdmitFn& admit,
                      std::vector<PatternMatch>* out, MatchWork* work) {
  out->clear();
  // Error recovery's ERROR, MISSING and zero-width nodes are matched as
  // libtree-sitter's cursor sees them: such trees are its (fuzz_query found
  // corner after corner), and they are rare here.
  if (tree.HasError()) return HandOff::kSyntaxErrors;
  // A tree that ends at byte 0 (an empty file) holds only nodes ending
  // where libtree-sitter's cursor starts, which it skips: no match (fuzz_query).
  if (ts_node_end_byte(tree.Root()) == 0) return HandOff::kNone;
  const std::vector<const SyntaxTree::Index*> indexes = {&tree.NodeIndex()};
  std::size_t nodes = 0;
  for (const SyntaxTree::Index* index : indexes) nodes += index->nodes.size();
  if (work->budget == 0) work->budget = kMatchStepBudget + kMatchStepsPerNode * nodes;
  Matcher matcher(query.language, tree.Root(), admit, work);
  std::vector<Binding> found;
  std::vector<uint32_t> positions;
  std::vector<TSNode> starts;
  for (std::size_t p = 0; p < query.patterns.size(); ++p) {
    const QueryNode& root = query.patterns[p].root;
    // The nodes this pattern can start at: those of its type, else all.
    starts.clear();
    for (const SyntaxTree::Index* index : indexes) {
      if (root.kind == QueryNode::Kind::kNamed || root.kind == QueryNode::Kind::kAnonymous) {
        positions.clear();
        for (std::size_t sym = 0; sym < root.symbols.size() && sym < index->by_symbol.size();
             ++sym) {
          if (root.symbols[sym]) {
            positions.insert(positions.end(), index->by_symbol[sym].begin(),
                             index->by_symbol[sym].end());
          }
        }
        std::sort(positions.begin(), positions.end());
        for (uint32_t at : positions) starts.push_back(index->nodes[at]);
      } else {
        starts.insert(starts.end(), index->nodes.begin(), index->nodes.end());
      }
    }
    matcher.set_pattern(p);
    for (const TSNode& start : starts) {
      found.clear();
      matcher.Match(root, start, &found);
      if (matcher.hand_off() != HandOff::kNone) {
        out->clear();
        return matcher.hand_off();
      }
      if (work->exceeded) {
        out->clear();
        return HandOff::kNone;
      }
      std::vector<bool> keep = FirstOfEachCaptureSet(found);
      for (std::size_t i = 0; i < found.size(); ++i) {
        if (keep[i]) out->push_back({p, std::move(found[i])});
      }
    }
  }
  return HandOff::kNone;
}

}  // namespace muh
