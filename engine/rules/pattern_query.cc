#include "engine/rules/pattern_query.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <utility>

#include "engine/base/one_line.h"
#include "engine/pattern/code_pattern.h"
#include "engine/pattern/pattern_matcher.h"
#include "engine/query/no_match.h"

namespace muh {

namespace {

std::vector<QueryMatch> MatchesIn(const std::vector<PatternTree>& trees, const SyntaxTree& tree) {
  std::vector<PatternTreeMatch> found;
  std::size_t budget = 0;
  if (!MatchPatternTrees(trees, tree, &found, &budget)) {
    std::string head = OneLine(trees.front().source, 80);
    throw QueryBudgetExceeded(
        fmt::format("pattern `{}` needs more work on one file than the matcher's budget of {} "
                    "steps (kPatternStepBudget in pattern_matcher.h)",
                    head, budget));
  }
  std::string_view bytes = tree.bytes();
  std::vector<QueryMatch> out;
  out.reserve(found.size());
  for (const PatternTreeMatch& m : found) {
    QueryMatch& qm = out.emplace_back();
    for (const PatternBinding& b : m.captures) {
      Capture& c = qm.captures.emplace_back();
      c.name = trees[m.tree].captures[b.capture];
      c.begin = ts_node_start_byte(b.node);
      c.end = ts_node_end_byte(b.node);
      c.text = std::string(bytes.substr(c.begin, c.end - c.begin));
      c.node_type = ts_node_type(b.node);
    }
  }
  SortMatches(&out);
  return out;
}

void CapturesOf(const PatternNode& n, std::set<std::string>* out) {
  if (!n.capture.empty()) out->insert(n.capture);
  for (const PatternNode& c : n.children) CapturesOf(c, out);
}

// Whether every node that binds `capture` is an identifier (and one does).
bool OnlyIdentifiers(const PatternNode& n, const std::string& capture, bool* seen) {
  if (n.capture == capture) {
    *seen = true;
    if (n.kind != PatternNode::Kind::kNode || n.type != "identifier") return false;
  }
  return std::all_of(n.children.begin(), n.children.end(),
                     [&](const PatternNode& c) { return OnlyIdentifiers(c, capture, seen); });
}

// A node of the pattern matched on its own, for ExplainNoMatch: the node
// with the constraints on its captures alone.
struct Part : NoMatchPart {
  PatternTree tree;
};

class Parts {
 public:
  explicit Parts(const PatternTree& whole) : whole_(whole) {}

  // The parts of `n`'s subtree: `n` itself when it is a node of its own,
  // else those of its children; their indexes are appended to `out`.
  void Collect(const PatternNode& n, std::vector<std::size_t>* out) {
    using Kind = PatternNode::Kind;
    switch (n.kind) {
      case Kind::kToken:
      case Kind::kRun:
        return;
      case Kind::kEither:
        for (const PatternNode& c : n.children) Collect(c, out);
        return;
      case Kind::kAnyDepth:
        // Each alternative at each depth, below wrappers of any node.
        for (const PatternNode& a : n.children) {
          for (int d = a.min_depth; d <= kInsideDepth; ++d) {
            PatternNode wrapped = a;
            for (int k = 0; k < d; ++k) {
              PatternNode any;
              any.source = a.source;
              any.children.push_back(std::move(wrapped));
              wrapped = std::move(any);
            }
            Collect(wrapped, out);
          }
        }
        return;
      case Kind::kNode:
      case Kind::kMetavariable:
        break;
    }
    std::size_t k = parts.size();
    parts.emplace_back();
    out->push_back(k);
    std::vector<std::size_t> children;
    for (const PatternNode& c : n.children) Collect(c, &children);
    Part& part = parts[k];
    part.children = std::move(children);
    part.tree.root = n;
    part.tree.root.field = 0;
    part.tree.source = n.source;
    std::set<std::string> bound;
    CapturesOf(n, &bound);
    for (const PatternConstraint& c : whole_.constraints) {
      bool all = bound.count(c.capture) != 0 &&
                 (c.kind != PatternConstraint::Kind::kSameAs || bound.count(c.other) != 0);
      if (all) part.tree.constraints.push_back(c);
    }
    FinishPatternTree(&part.tree);
    part.shown = OneLine(n.source.empty() ? "_" : n.source, 96);
    part.anchored = !part.tree.constraints.empty();
    part.wildcard = !part.anchored && n.type.empty();
  }

  std::vector<Part> parts;

 private:
  const PatternTree& whole_;
};

}  // namespace

PatternQuery::PatternQuery(std::vector<PatternTree> trees) : trees_(std::move(trees)) {
  for (const PatternTree& t : trees_) {
    for (const std::string& c : t.captures) {
      if (std::find(capture_names_.begin(), capture_names_.end(), c) == capture_names_.end())
        capture_names_.push_back(c);
    }
  }
}

std::vector<QueryMatch> PatternQuery::Run(const SyntaxTree& tree) const {
  return MatchesIn(trees_, tree);
}

void PatternQuery::IndexFor(const SyntaxTree& tree) const { tree.NodeIndex(); }

std::vector<SiteQuery::LiteralGroup> PatternQuery::RequiredLiteralGroups() const {
  // A literal is required only when every tree requires it; with one tree
  // (the common case) that is simply its own groups.
  if (trees_.size() != 1) return {};
  std::vector<LiteralGroup> groups;
  for (const PatternConstraint& c : trees_[0].constraints) {
    if (c.kind != PatternConstraint::Kind::kEquals && c.kind != PatternConstraint::Kind::kAnyOf)
      continue;
    bool seen = false;
    bool identifier = OnlyIdentifiers(trees_[0].root, c.capture, &seen) && seen;
    groups.push_back(LiteralGroup{c.texts, identifier});
  }
  return groups;
}

std::optional<NoMatchReason> PatternQuery::ExplainNoMatch(const SyntaxTree& tree) const {
  if (trees_.empty()) return std::nullopt;
  Parts parts(trees_[0]);
  std::vector<std::size_t> roots;
  parts.Collect(trees_[0].root, &roots);
  if (roots.empty()) return std::nullopt;
  std::vector<NoMatchPart> plain(parts.parts.begin(), parts.parts.end());
  return DescendParts(plain, roots[0], [&](std::size_t c) {
    std::vector<std::size_t> at;
    for (const QueryMatch& m : MatchesIn({parts.parts[c].tree}, tree)) at.push_back(m.Begin());
    return std::optional<std::vector<std::size_t>>(std::move(at));
  });
}

}  // namespace muh
