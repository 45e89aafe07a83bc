// Mapping a node pattern's child patterns onto a syntax node's children:
// the step both our query matcher (query/pattern_match.h) and the code
// pattern matcher (pattern/pattern_matcher.h) take at every node. Every
// way to give each child pattern, in order, a distinct child (in its field
// when it names one) is a mapping; an immediate step takes the next named
// child or none (passing over the named children it may skip), and a
// closed list lets no named child follow the last step's. Header-only: the
// matchers' own binding types and callbacks.
#pragma once

#include <tree_sitter/api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace muh {

struct ChildNode {
  TSNode node;
  TSFieldId field;  // 0: none
  bool named;
};

// The children of `node`, with their fields: a cursor gives each child's
// field (ts_node_field_name_for_child misnames some in libtree-sitter 0.20).
inline std::vector<ChildNode> ChildrenOf(TSTreeCursor* cursor, TSNode node) {
  std::vector<ChildNode> kids;
  ts_tree_cursor_reset(cursor, node);
  if (!ts_tree_cursor_goto_first_child(cursor)) return kids;
  do {
    TSNode n = ts_tree_cursor_current_node(cursor);
    kids.push_back({n, ts_tree_cursor_current_field_id(cursor), ts_node_is_named(n)});
  } while (ts_tree_cursor_goto_next_sibling(cursor));
  return kids;
}

struct ChildStep {
  TSFieldId field = 0;     // 0: any field or none
  bool immediate = false;  // takes the next named child or none
  // An immediate step may pass over the named children whose symbols this
  // marks (a query's `. (comment)* .` before it); null or empty: none.
  const std::vector<bool>* skippable = nullptr;
};

// Appends to `*out` `acc` extended by each mapping of `steps` onto `kids`.
// `match(k, kid, &bindings)` appends the bindings of step k at `kid`
// (asked once per pair); `spend(n)` charges n steps of work and says
// whether the budget allows going on; `before(k, from)` may stop the search
// before step k tries the kids from `from` on (a matcher that hands off).
// Each mapping kept costs `kept_cost` plus its bindings.
template <typename Binding, typename Match, typename Spend, typename Before>
class ChildMapping {
 public:
  ChildMapping(const std::vector<ChildStep>& steps, const std::vector<ChildNode>& kids, bool closed,
               std::size_t kept_cost, Match match, Spend spend, Before before)
      : steps_(steps),
        kids_(kids),
        closed_(closed),
        kept_cost_(kept_cost),
        match_(match),
        spend_(spend),
        before_(before),
        memo_(steps.size() * kids.size()),
        done_(memo_.size(), false) {}

  void Run(Binding acc, std::vector<Binding>* out) {
    acc_ = std::move(acc);
    out_ = out;
    Assign(0, 0, static_cast<std::size_t>(-1));
  }

 private:
  const std::vector<Binding>& At(std::size_t k, std::size_t j) {
    std::size_t i = k * kids_.size() + j;
    if (!done_[i]) {
      done_[i] = true;
      if (steps_[k].field == 0 || kids_[j].field == steps_[k].field)
        match_(k, kids_[j].node, &memo_[i]);
    }
    return memo_[i];
  }

  // Steps k.. map to kids from..; `last` is the kid of step k-1.
  void Assign(std::size_t k, std::size_t from, std::size_t last) {
    const std::size_t n = kids_.size();
    if (!spend_(1)) return;
    if (k == steps_.size()) {
      if (closed_) {
        for (std::size_t j = last + 1; j < n; ++j) {
          if (kids_[j].named) return;
        }
      }
      if (spend_(kept_cost_ + acc_.size())) out_->push_back(acc_);
      return;
    }
    if (!before_(k, from)) return;
    const bool immediate = steps_[k].immediate;
    std::size_t passed = static_cast<std::size_t>(-1);  // the last kid passed over
    for (std::size_t j = from; j < n; ++j) {
      if (immediate && !kids_[j].named) continue;
      const std::vector<Binding>& options = At(k, j);
      for (const Binding& b : options) {
        std::size_t mark = acc_.size();
        acc_.insert(acc_.end(), b.begin(), b.end());
        Assign(k + 1, j + 1, j);
        acc_.resize(mark);
      }
      if (!spend_(0)) break;
      if (!immediate) continue;
      // Passing over kid j repeats the `*` once more, and a repetition
      // takes the very next sibling: an anonymous kid (`,`) between two
      // passed over ends the run (libtree-sitter 0.20.7; a helper probe).
      if (!Skippable(k, j) || (passed != static_cast<std::size_t>(-1) && j != passed + 1)) break;
      passed = j;
    }
  }

  bool Skippable(std::size_t k, std::size_t j) const {
    const std::vector<bool>* skip = steps_[k].skippable;
    if (skip == nullptr || !kids_[j].named) return false;
    TSSymbol s = ts_node_symbol(kids_[j].node);
    return s < skip->size() && (*skip)[s];
  }

  const std::vector<ChildStep>& steps_;
  const std::vector<ChildNode>& kids_;
  const bool closed_;
  const std::size_t kept_cost_;
  Match match_;
  Spend spend_;
  Before before_;
  std::vector<std::vector<Binding>> memo_;  // [step * kids + kid]
  std::vector<bool> done_;
  Binding acc_;
  std::vector<Binding>* out_ = nullptr;
};

// Which of `found` (the bindings of one pattern at one node, each a list of
// {capture, node}) to keep: mappings with the same captures (ids and
// nodes) count once, the first of them kept.
template <typename Binding>
std::vector<bool> FirstOfEachCaptureSet(const std::vector<Binding>& found) {
  std::vector<bool> keep(found.size(), true);
  if (found.size() < 2) return keep;
  using Key = std::vector<std::pair<uint32_t, const void*>>;
  std::vector<std::pair<Key, std::size_t>> keys;
  for (std::size_t i = 0; i < found.size(); ++i) {
    Key key;
    key.reserve(found[i].size());
    for (const auto& c : found[i]) key.emplace_back(c.capture, c.node.id);
    std::sort(key.begin(), key.end());
    keys.emplace_back(std::move(key), i);
  }
  std::sort(keys.begin(), keys.end());
  for (std::size_t i = 1; i < keys.size(); ++i) {
    if (keys[i].first == keys[i - 1].first) keep[keys[i].second] = false;
  }
  return keep;
}

}  // namespace muh
