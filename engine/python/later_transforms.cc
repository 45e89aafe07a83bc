#include "engine/python/later_transforms.h"

#include <algorithm>
#include <cstdint>
#include <string_view>

#include "engine/python/ts_nodes.h"

namespace muh {

namespace {

// A target's text without blanks, its quotes as `'`: `config["K"]` and
// `config[ 'K' ]` are `config['K']`.
std::string Normal(std::string_view t) {
  std::string out;
  for (char c : t) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\') continue;
    out.push_back(c == '"' ? '\'' : c);
  }
  return out;
}

std::optional<int64_t> Integer(std::string_view text) {
  int64_t v = 0;
  bool any = false;
  for (char c : text) {
    if (c == '_') continue;
    if (c < '0' || c > '9') return std::nullopt;
    if (__builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, c - '0', &v)) {
      return std::nullopt;
    }
    any = true;
  }
  if (!any) return std::nullopt;
  return v;
}

// The target the value at `v` is assigned to (normalized), and the
// assignment; "" when the value is no assignment's.
std::string TargetOf(const SyntaxTree& tree, TSNode v, TSNode* assignment) {
  TSNode n = v;
  std::string key;  // the key of a dict display's pair
  for (int steps = 0; steps < 16; ++steps) {
    TSNode p = ts_node_parent(n);
    if (ts_node_is_null(p)) return "";
    if (Is(p, "conditional_expression") || Is(p, "parenthesized_expression")) {
      n = p;
      continue;
    }
    if (Is(p, "pair") && key.empty() && ts_node_eq(Field(p, "value"), n)) {
      TSNode k = Field(p, "key");
      TSNode d = ts_node_parent(p);
      if (ts_node_is_null(k) || ts_node_is_null(d) || !Is(d, "dictionary")) return "";
      key = std::string(TextOf(tree, k));
      n = d;
      continue;
    }
    if (!Is(p, "assignment") || !ts_node_eq(Field(p, "right"), n)) return "";
    TSNode left = Field(p, "left");
    if (ts_node_is_null(left) || !(Is(left, "identifier") || Is(left, "subscript"))) return "";
    if (!key.empty() && !Is(left, "identifier")) return "";
    *assignment = p;
    std::string target(TextOf(tree, left));
    return Normal(key.empty() ? target : target + "[" + key + "]");
  }
  return "";
}

// Whether `text` (normalized) reads `target`: as a whole word for a name,
// as a substring for a subscript.
bool Reads(const std::string& text, const std::string& target) {
  auto word = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  };
  for (std::size_t at = text.find(target); at != std::string::npos;
       at = text.find(target, at + 1)) {
    bool left = at == 0 || !word(text[at - 1]);
    bool right = at + target.size() >= text.size() || !word(text[at + target.size()]) ||
                 target.back() == ']';
    if (left && right) return true;
  }
  return false;
}

}  // namespace

std::string SelfTransform::Key() const {
  return op + " " + (operand ? std::to_string(*operand) : std::string("?"));
}

std::optional<int64_t> SelfTransform::Apply(int64_t x) const {
  if (!operand || repeats) return std::nullopt;
  int64_t c = *operand;
  int64_t out = 0;
  if (op == "*") {
    if (__builtin_mul_overflow(x, c, &out)) return std::nullopt;
  } else if (op == "+") {
    if (__builtin_add_overflow(x, c, &out)) return std::nullopt;
  } else if (op == "-") {
    if (__builtin_sub_overflow(x, c, &out)) return std::nullopt;
  } else if (op == "//") {
    if (c == 0) return std::nullopt;
    out = x / c;
    if ((x % c != 0) && ((x < 0) != (c < 0))) --out;  // Python floors
  } else if (op == "<<") {
    if (c < 0 || c > 62 || x < 0 || x > (INT64_MAX >> c)) return std::nullopt;
    out = x << c;
  } else if (op == ">>") {
    if (c < 0 || c > 63) return std::nullopt;
    out = x >> c;
  } else {
    return std::nullopt;
  }
  return out;
}

std::vector<SelfTransform> LaterTransforms(const SyntaxTree& tree, std::size_t begin,
                                           std::size_t end) {
  std::vector<SelfTransform> out;
  TSNode v = ts_node_descendant_for_byte_range(tree.Root(), static_cast<uint32_t>(begin),
                                               static_cast<uint32_t>(end));
  TSNode assignment{};
  std::string target = TargetOf(tree, v, &assignment);
  if (target.empty()) return out;
  // The function that holds it (or the module).
  TSNode scope = assignment;
  for (TSNode p = ts_node_parent(assignment); !ts_node_is_null(p); p = ts_node_parent(p)) {
    scope = p;
    if (Is(p, "function_definition")) break;
  }
  std::size_t after = ts_node_end_byte(assignment);
  std::vector<TSNode> stack{scope};
  std::vector<TSNode> found;
  while (!stack.empty()) {
    TSNode n = stack.back();
    stack.pop_back();
    if (ts_node_end_byte(n) <= after) continue;
    bool augmented = Is(n, "augmented_assignment");
    if ((augmented || Is(n, "assignment")) && ts_node_start_byte(n) >= after) {
      TSNode left = Field(n, "left");
      TSNode right = Field(n, "right");
      if (!ts_node_is_null(left) && !ts_node_is_null(right) &&
          Normal(TextOf(tree, left)) == target) {
        found.push_back(n);
      }
    }
    PushNamedChildren(n, &stack);
  }
  // The value's own path up the tree: a transform in another branch of an
  // `if` (or another `case`) that holds the value never follows it.
  std::vector<TSNode> up;
  for (TSNode p = assignment; !ts_node_is_null(p); p = ts_node_parent(p)) up.push_back(p);
  auto exclusive = [&](TSNode n) {
    TSNode child = n;
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); child = p, p = ts_node_parent(p)) {
      auto at = std::find_if(up.begin(), up.end(), [&](TSNode u) { return ts_node_eq(u, p); });
      if (at == up.end()) continue;
      if (at == up.begin()) return false;
      TSNode mine = *(at - 1);  // the value's branch under the common ancestor
      bool branches = Is(p, "if_statement") || Is(p, "block");
      auto branch = [](TSNode b) {
        return Is(b, "block") || Is(b, "elif_clause") || Is(b, "else_clause") ||
               Is(b, "case_clause");
      };
      return branches && !ts_node_eq(mine, child) && branch(mine) && branch(child) &&
             (Is(p, "if_statement") || Is(mine, "case_clause"));
    }
    return false;
  };
  for (TSNode n : found) {
    if (exclusive(n)) continue;
    TSNode right = Field(n, "right");
    SelfTransform t;
    t.line = static_cast<int>(ts_node_start_point(n).row) + 1;
    std::string_view text = TextOf(tree, n);
    t.text = std::string(text.substr(0, text.find('\n')));
    TSNode operand{};
    if (Is(n, "augmented_assignment")) {
      TSNode op = Field(n, "operator");
      std::string o = ts_node_is_null(op) ? "" : std::string(TextOf(tree, op));
      if (!o.empty() && o.back() == '=') o.pop_back();
      t.op = o;
      operand = right;
    } else {
      // `X = X // 2`: the target, an operator, a literal; any other value
      // that reads the target is a transform muhpatch cannot follow, and
      // one that does not is a new value (the liveness analysis's).
      if (!Reads(Normal(TextOf(tree, right)), target)) continue;
      if (Is(right, "binary_operator") && Normal(TextOf(tree, Field(right, "left"))) == target) {
        TSNode op = Field(right, "operator");
        t.op = ts_node_is_null(op) ? "" : std::string(TextOf(tree, op));
        operand = Field(right, "right");
      }
    }
    if (t.op != "//" && t.op != "*" && t.op != "+" && t.op != "-" && t.op != "<<" && t.op != ">>") {
      t.op.clear();
    }
    if (!ts_node_is_null(operand) && Is(operand, "integer"))
      t.operand = Integer(TextOf(tree, operand));
    // A loop around the transform and not around the value may apply it
    // any number of times.
    for (TSNode p = ts_node_parent(n); !ts_node_is_null(p) && !ts_node_eq(p, scope);
         p = ts_node_parent(p)) {
      if ((Is(p, "for_statement") || Is(p, "while_statement")) && ts_node_start_byte(p) >= after) {
        t.repeats = true;
      }
    }
    out.push_back(std::move(t));
  }
  std::sort(out.begin(), out.end(),
            [](const SelfTransform& a, const SelfTransform& b) { return a.line < b.line; });
  return out;
}

}  // namespace muh
