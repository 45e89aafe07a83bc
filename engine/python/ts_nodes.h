// The small questions every walk over a Python syntax tree asks of a node:
// its type, a field, its text, and the node inside redundant parentheses.
// One home for them (reaching_values, branch_condition, tier_chain and
// assigned_values used to keep a copy each).
#pragma once

#include <string_view>
#include <vector>

#include "engine/python/syntax_tree.h"

namespace muh {

// False for a null node (an absent field: the right side of `m: int`),
// which ts_node_type cannot read.
inline bool Is(TSNode n, std::string_view type) {
  return !ts_node_is_null(n) && std::string_view(ts_node_type(n)) == type;
}

inline TSNode Field(TSNode n, std::string_view name) {
  return ts_node_child_by_field_name(n, name.data(), static_cast<uint32_t>(name.size()));
}

// Whether `n` is `parent`'s child in `field`.
inline bool FieldIs(TSNode parent, const char* field, TSNode n) {
  TSNode c = Field(parent, field);
  return !ts_node_is_null(c) && ts_node_eq(c, n);
}

// Empty for a null node, as Is is false for it.
inline std::string_view TextOf(const SyntaxTree& tree, TSNode n) {
  if (ts_node_is_null(n)) return {};
  return tree.bytes().substr(ts_node_start_byte(n), ts_node_end_byte(n) - ts_node_start_byte(n));
}

// A node's named children, in order, found by one cursor walk:
// ts_node_named_child(n, i) starts from the first child each time, so a
// loop over it is quadratic in the children (a block of 30,000 statements).
inline std::vector<TSNode> NamedChildren(TSNode n) {
  std::vector<TSNode> out;
  TSTreeCursor c = ts_tree_cursor_new(n);
  if (ts_tree_cursor_goto_first_child(&c)) {
    do {
      TSNode k = ts_tree_cursor_current_node(&c);
      if (ts_node_is_named(k)) out.push_back(k);
    } while (ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
  return out;
}

// Pushes `n`'s named children on `stack` so that the first is popped first.
inline void PushNamedChildren(TSNode n, std::vector<TSNode>* stack) {
  std::vector<TSNode> kids = NamedChildren(n);
  stack->insert(stack->end(), kids.rbegin(), kids.rend());
}

// The names an assignment, `for`, `del` or `global` target binds: the
// target itself, or every name of a pattern at any depth (`A, (B, *C)`,
// `[A]`); an attribute or a subscript binds none. In source order; no
// recursion, however deep the pattern.
inline std::vector<TSNode> TargetIdentifiers(TSNode target) {
  std::vector<TSNode> out;
  std::vector<TSNode> stack{target};
  while (!stack.empty()) {
    TSNode t = stack.back();
    stack.pop_back();
    if (ts_node_is_null(t) || Is(t, "attribute") || Is(t, "subscript")) continue;
    if (Is(t, "identifier")) {
      out.push_back(t);
      continue;
    }
    PushNamedChildren(t, &stack);
  }
  return out;
}

// `(x)` and `((x))` are `x`.
inline TSNode Unwrapped(TSNode n) {
  while (Is(n, "parenthesized_expression") && ts_node_named_child_count(n) == 1)
    n = ts_node_named_child(n, 0);
  return n;
}

}  // namespace muh
