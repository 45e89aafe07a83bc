#include "engine/python/assigned_values.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "engine/python/ts_nodes.h"

namespace muh {

namespace {

// The identifiers `n` reads, leaving out the function a call names and the
// attribute part of `a.b` (`b`); each once, in source order. Iterative: an
// expression nested thousands deep is read like a flat one.
void ReadNames(const SyntaxTree& tree, TSNode root, std::vector<std::string>* out) {
  std::unordered_set<std::string> seen(out->begin(), out->end());
  std::vector<TSNode> stack{root};
  while (!stack.empty()) {
    TSNode n = stack.back();
    stack.pop_back();
    if (ts_node_is_null(n)) continue;
    if (Is(n, "identifier")) {
      std::string name(TextOf(tree, n));
      if (seen.insert(name).second) out->push_back(std::move(name));
      continue;
    }
    if (Is(n, "call")) {
      stack.push_back(ts_node_child_by_field_name(n, "arguments", 9));
      continue;
    }
    if (Is(n, "attribute")) {
      stack.push_back(ts_node_child_by_field_name(n, "object", 6));
      continue;
    }
    PushNamedChildren(n, &stack);
  }
}

// Pre-order walk of every assignment node.
template <typename F>
void EachAssignment(TSNode n, F f) {
  std::vector<TSNode> stack{n};
  while (!stack.empty()) {
    TSNode node = stack.back();
    stack.pop_back();
    if (Is(node, "assignment")) f(node);
    PushNamedChildren(node, &stack);
  }
}

}  // namespace

std::optional<RunTimeValue> RunTimeInputs(const SyntaxTree& tree, std::size_t begin,
                                          std::size_t end) {
  TSNode n = ts_node_descendant_for_byte_range(tree.Root(), static_cast<uint32_t>(begin),
                                               static_cast<uint32_t>(end));
  if (ts_node_is_null(n) || ts_node_start_byte(n) != begin || ts_node_end_byte(n) != end)
    return std::nullopt;
  while (!ts_node_is_named(n)) n = ts_node_parent(n);
  if (Is(n, "identifier") || Is(n, "attribute") || Is(n, "string")) return std::nullopt;
  std::vector<std::string> names;
  ReadNames(tree, n, &names);
  if (names.empty()) return std::nullopt;
  RunTimeValue v;
  TSNode parent = ts_node_parent(n);
  if (!ts_node_is_null(parent) && Is(parent, "assignment")) {
    TSNode left = ts_node_child_by_field_name(parent, "left", 4);
    if (!ts_node_is_null(left)) v.assigned_to = std::string(TextOf(tree, left));
  }
  // The last assignment of each name before the value, in one walk.
  std::unordered_map<std::string_view, std::size_t> last;
  EachAssignment(tree.Root(), [&](TSNode a) {
    TSNode left = ts_node_child_by_field_name(a, "left", 4);
    if (ts_node_end_byte(a) <= begin && !ts_node_is_null(left) && Is(left, "identifier")) {
      last[TextOf(tree, left)] = ts_node_start_byte(a);
    }
  });
  for (const std::string& name : names) {
    auto it = last.find(name);
    v.inputs.push_back(it == last.end() ? ValueInput{name, 0, false}
                                        : ValueInput{name, it->second, true});
  }
  return v;
}

std::vector<std::string> AssignedTargets(const SyntaxTree& tree, std::size_t begin,
                                         std::size_t end) {
  std::vector<std::string> out;
  TSNode n = ts_node_descendant_for_byte_range(tree.Root(), static_cast<uint32_t>(begin),
                                               static_cast<uint32_t>(end));
  if (ts_node_is_null(n) || ts_node_start_byte(n) != begin || ts_node_end_byte(n) != end) {
    return out;
  }
  // The widest node of exactly these bytes (`(8)` aside, a value is one node).
  for (TSNode p = ts_node_parent(n);
       !ts_node_is_null(p) && ts_node_start_byte(p) == begin && ts_node_end_byte(p) == end;
       p = ts_node_parent(p)) {
    n = p;
  }
  for (TSNode a = ts_node_parent(n); !ts_node_is_null(a) && Is(a, "assignment");
       n = a, a = ts_node_parent(a)) {
    TSNode right = ts_node_child_by_field_name(a, "right", 5);
    TSNode left = ts_node_child_by_field_name(a, "left", 4);
    if (ts_node_is_null(right) || !ts_node_eq(right, n) || ts_node_is_null(left)) break;
    out.emplace_back(TextOf(tree, left));
  }
  return out;
}

std::vector<AssignmentTo> AssignmentsTo(const SyntaxTree& tree, const std::string& name) {
  std::vector<AssignmentTo> out;
  EachAssignment(tree.Root(), [&](TSNode a) {
    TSNode left = ts_node_child_by_field_name(a, "left", 4);
    TSNode right = ts_node_child_by_field_name(a, "right", 5);
    if (ts_node_is_null(left) || ts_node_is_null(right) || TextOf(tree, left) != name) return;
    out.push_back({ts_node_start_byte(a), std::string(TextOf(tree, right))});
  });
  return out;
}

}  // namespace muh
