#include "engine/python/branch_condition.h"

#include <cstdlib>
#include <regex>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/python/ts_nodes.h"

namespace muh {

namespace {

// Parentheses around an atom group nothing: `a and (b)` is `a and b`.
bool Atom(TSNode n) {
  for (std::string_view t : {"identifier", "call", "attribute", "subscript", "integer", "float",
                             "string", "true", "false", "none", "parenthesized_expression"}) {
    if (Is(n, t)) return true;
  }
  return false;
}

// The tokens of `root`, one space apart; false (and `out` cut short) once
// they exceed `limit` bytes. Iterative: nesting depth costs no stack.
bool Tokens(const SyntaxTree& tree, TSNode root, std::string* out,
            std::size_t limit = std::string::npos) {
  std::vector<TSNode> stack{root};
  while (!stack.empty()) {
    TSNode n = stack.back();
    stack.pop_back();
    if (Is(n, "comment")) continue;
    if (Is(n, "parenthesized_expression") && ts_node_named_child_count(n) == 1 &&
        Atom(ts_node_named_child(n, 0))) {
      stack.push_back(ts_node_named_child(n, 0));
      continue;
    }
    if (ts_node_child_count(n) == 0 || Is(n, "string")) {
      std::string_view bytes = tree.bytes();
      if (!out->empty()) *out += ' ';
      *out += bytes.substr(ts_node_start_byte(n), ts_node_end_byte(n) - ts_node_start_byte(n));
      if (out->size() > limit) return false;
      continue;
    }
    for (uint32_t i = ts_node_child_count(n); i > 0; --i) stack.push_back(ts_node_child(n, i - 1));
  }
  return true;
}

}  // namespace

BranchCondition ConditionOf(const SyntaxTree& tree, TSNode n) {
  BranchCondition c;
  n = Unwrapped(n);
  while (Is(n, "not_operator")) {
    c.negated = !c.negated;
    n = Unwrapped(ts_node_child_by_field_name(n, "argument", 8));
  }
  Tokens(tree, n, &c.canonical);
  return c;
}

bool IsCondition(const SyntaxTree& tree, TSNode n, const std::string& canonical) {
  std::string tokens;
  return Tokens(tree, n, &tokens, canonical.size()) && tokens == canonical;
}

std::optional<BranchCondition> ParseBranchCondition(std::string_view text, std::size_t* error_at,
                                                    std::string* error) {
  PythonParser parser;
  SyntaxTree tree = parser.Parse(text);
  if (std::optional<SyntaxProblem> p = tree.FirstProblem()) {
    // An ERROR over the whole text: Python stopped making sense at its end.
    std::size_t at = p->offset;
    if (at == 0) {
      at = text.size();
      while (at > 0 && (text[at - 1] == ' ' || text[at - 1] == '\n')) --at;
    }
    *error_at = at;
    *error = p->what + " in the condition (is it Python?)";
    return std::nullopt;
  }
  TSNode module = tree.Root();
  std::optional<TSNode> expression;
  for (TSNode s : NamedChildren(module)) {
    if (Is(s, "comment")) continue;
    if (expression || !Is(s, "expression_statement") || ts_node_named_child_count(s) != 1 ||
        Is(ts_node_named_child(s, 0), "assignment")) {
      *error_at = ts_node_start_byte(s);
      *error = "a condition is one Python expression, such as `current_platform.is_rocm()`";
      return std::nullopt;
    }
    expression = ts_node_named_child(s, 0);
  }
  if (!expression) {
    *error_at = 0;
    *error = "the condition is empty";
    return std::nullopt;
  }
  return ConditionOf(tree, *expression);
}

namespace {

// `P.has_device_capability(N)` in canonical form: P and N.
std::optional<std::pair<std::string, long>> CapabilityTest(const std::string& canonical) {
  static const std::regex kTest(
      R"(^([A-Za-z_][A-Za-z0-9_]*(?: ?\. ?[A-Za-z_][A-Za-z0-9_]*)*) ?\. ?has_device_capability ?\( ?([0-9]{1,4}) ?\)$)");
  std::smatch m;
  if (!std::regex_match(canonical, m, kTest)) return std::nullopt;
  return std::make_pair(m[1].str(), std::strtol(m[2].str().c_str(), nullptr, 10));
}

}  // namespace

std::optional<bool> Implied(const std::string& known, bool known_holds, const std::string& other) {
  if (known == other) return known_holds;
  std::optional<std::pair<std::string, long>> k = CapabilityTest(known);
  std::optional<std::pair<std::string, long>> o = CapabilityTest(other);
  if (!k || !o || k->first != o->first) return std::nullopt;
  if (!known_holds && o->second >= k->second) return false;  // below N <= M
  if (known_holds && o->second <= k->second) return true;    // at least N >= M
  return std::nullopt;
}

}  // namespace muh
