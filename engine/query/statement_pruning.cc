#include "engine/query/statement_pruning.h"

#include <algorithm>
#include <string_view>

namespace muh {

namespace {

using Kind = PatternNode::Kind;

// The node types that may hold a block (statements with a suite, their
// clauses) or be one; an error node may hold anything.
bool HoldsBlocks(std::string_view type) {
  static constexpr std::string_view kTypes[] = {"module",
                                                "block",
                                                "function_definition",
                                                "class_definition",
                                                "decorated_definition",
                                                "if_statement",
                                                "elif_clause",
                                                "else_clause",
                                                "for_statement",
                                                "while_statement",
                                                "try_statement",
                                                "except_clause",
                                                "except_group_clause",
                                                "finally_clause",
                                                "with_statement",
                                                "match_statement",
                                                "case_clause",
                                                "ERROR"};
  return std::find(std::begin(kTypes), std::end(kTypes), type) != std::end(kTypes);
}

class Check {
 public:
  Check(const TSLanguage* language, const std::vector<bool>& literal_captures)
      : language_(language), literal_(literal_captures) {}

  // Whether some node `n` may match is one of the types `pred` accepts.
  template <typename Pred>
  bool MayMatch(const PatternNode& n, Pred pred) const {
    switch (n.kind) {
      case Kind::kAny:
      case Kind::kAnyNamed:
        return true;
      case Kind::kAlternation:
        return std::any_of(n.branches.begin(), n.branches.end(),
                           [&](const PatternNode& b) { return MayMatch(b, pred); });
      case Kind::kNamed:
      case Kind::kAnonymous:
        for (std::size_t s = 0; s < n.symbols.size(); ++s) {
          if (n.symbols[s] && pred(std::string_view(
                                  ts_language_symbol_name(language_, static_cast<TSSymbol>(s))))) {
            return true;
          }
        }
        return false;
    }
    return true;
  }

  bool HoldsLiteralCapture(const PatternNode& n) const {
    for (uint32_t c : n.captures) {
      if (c < literal_.size() && literal_[c]) return true;
    }
    for (const PatternChild& ch : n.children) {
      if (HoldsLiteralCapture(ch.node[0])) return true;
    }
    return std::any_of(n.branches.begin(), n.branches.end(),
                       [&](const PatternNode& b) { return HoldsLiteralCapture(b); });
  }

  // `inside_expression`: an ancestor pattern node matches only nodes that
  // hold no block.
  bool Node(const PatternNode& n, bool inside_expression) const {
    if (n.kind == Kind::kAlternation) {
      return n.captures.empty() || inside_expression || !MayMatch(n, HoldsBlocks)
                 ? std::all_of(n.branches.begin(), n.branches.end(),
                               [&](const PatternNode& b) { return Node(b, inside_expression); })
                 : false;
    }
    if (!inside_expression) {
      if (!n.captures.empty() && MayMatch(n, HoldsBlocks)) return false;
      if (MayMatch(n, [](std::string_view t) { return t == "block"; })) {
        if (!n.negated.empty() || n.anchored_last) return false;
        if (!n.children.empty() && n.children[0].immediate) return false;
        for (const PatternChild& ch : n.children) {
          if (!HoldsLiteralCapture(ch.node[0])) return false;
        }
      }
    }
    const bool below = inside_expression || !MayMatch(n, HoldsBlocks);
    return std::all_of(n.children.begin(), n.children.end(),
                       [&](const PatternChild& ch) { return Node(ch.node[0], below); });
  }

 private:
  const TSLanguage* language_;
  const std::vector<bool>& literal_;
};

bool OnlyIdentifiers(const PatternNode& n, const TSLanguage* language, uint32_t c, bool* seen) {
  if (std::find(n.captures.begin(), n.captures.end(), c) != n.captures.end()) {
    *seen = true;
    if (n.kind != Kind::kNamed) return false;
    for (std::size_t s = 0; s < n.symbols.size(); ++s) {
      if (n.symbols[s] && std::string_view(ts_language_symbol_name(
                              language, static_cast<TSSymbol>(s))) != "identifier") {
        return false;
      }
    }
  }
  for (const PatternChild& ch : n.children) {
    if (!OnlyIdentifiers(ch.node[0], language, c, seen)) return false;
  }
  return std::all_of(n.branches.begin(), n.branches.end(),
                     [&](const PatternNode& b) { return OnlyIdentifiers(b, language, c, seen); });
}

}  // namespace

bool SurvivesStatementPruning(const Pattern& p, const TSLanguage* language,
                              const std::vector<bool>& literal_captures) {
  Check check(language, literal_captures);
  return check.Node(p.root, false);
}

bool CapturesOnlyIdentifiers(const Pattern& p, const TSLanguage* language, uint32_t c) {
  bool seen = false;
  return OnlyIdentifiers(p.root, language, c, &seen) && seen;
}

}  // namespace muh
