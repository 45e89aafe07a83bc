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

namespace {

// A transform no rule of SelfTransform evaluates (op ""): the gate refuses.
SelfTransform Opaque(const SyntaxTree& tree, TSNode n) {
  SelfTransform t;
  t.line = static_cast<int>(ts_node_start_point(n).row) + 1;
  std::string_view text = TextOf(tree, n);
  t.text = std::string(text.substr(0, text.find('\n')));
  return t;
}

// The transforms of `target` (normalized) after `assignment`, the
// statement that binds it: in the enclosing function, and, where the
// function returns the dict or variable, in each function of the file that
// binds the call's result (`cfg = get_default_config(...)`), `depth` deep.
void Collect(const SyntaxTree& tree, TSNode assignment, const std::string& target, int depth,
             std::vector<SelfTransform>* out) {
  // The function that holds it (or the module).
  TSNode scope = assignment;
  for (TSNode p = ts_node_parent(assignment); !ts_node_is_null(p); p = ts_node_parent(p)) {
    scope = p;
    if (Is(p, "function_definition")) break;
  }
  // The variable, for a dict key's target (`config['K']`: `config`).
  std::string variable = target.substr(0, target.find('['));
  std::string key = target.size() > variable.size()
                        ? target.substr(variable.size() + 1, target.size() - variable.size() - 2)
                        : "";
  std::size_t after = ts_node_end_byte(assignment);
  std::vector<TSNode> stack{scope};
  std::vector<TSNode> found, aliases, merges, returns;
  while (!stack.empty()) {
    TSNode n = stack.back();
    stack.pop_back();
    if (ts_node_end_byte(n) <= after) continue;
    bool augmented = Is(n, "augmented_assignment");
    if ((augmented || Is(n, "assignment")) && ts_node_start_byte(n) >= after) {
      TSNode left = Field(n, "left");
      TSNode right = Field(n, "right");
      if (!ts_node_is_null(left) && !ts_node_is_null(right)) {
        std::string l = Normal(TextOf(tree, left));
        if (l == target) {
          found.push_back(n);
        } else if (!augmented && Is(left, "identifier") &&
                   Reads(Normal(TextOf(tree, right)), target)) {
          aliases.push_back(n);  // `bm = config['K']`
        } else if (augmented && !key.empty() && l == variable) {
          merges.push_back(n);  // `config |= {...}`
        }
      }
    }
    // `config.update(...)`: may store the key.
    if (!key.empty() && Is(n, "call") && ts_node_start_byte(n) >= after) {
      TSNode f = Field(n, "function");
      if (Is(f, "attribute") && Normal(TextOf(tree, Field(f, "object"))) == variable) {
        std::string_view m = TextOf(tree, Field(f, "attribute"));
        if (m == "update" || m == "setdefault" || m == "__setitem__" || m == "__ior__") {
          merges.push_back(n);
        }
      }
    }
    if (Is(n, "return_statement") && ts_node_start_byte(n) >= after) returns.push_back(n);
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
  for (TSNode n : merges) {
    if (exclusive(n)) continue;
    // `config.update(OTHER=1)` with neither the key nor a splat stores none.
    std::string text = Normal(TextOf(tree, n));
    std::string unquoted = key.size() >= 2 ? key.substr(1, key.size() - 2) : key;
    bool names_key = text.find(key) != std::string::npos ||
                     text.find(unquoted + "=") != std::string::npos ||
                     text.find("**") != std::string::npos || Is(n, "augmented_assignment");
    TSNode args = Is(n, "call") ? Field(n, "arguments") : TSNode{};
    for (TSNode a : ts_node_is_null(args) ? std::vector<TSNode>{} : NamedChildren(args)) {
      names_key = names_key || !Is(a, "keyword_argument");  // a dict passed whole
    }
    if (names_key) out->push_back(Opaque(tree, n));
  }
  for (TSNode n : found) {
    if (exclusive(n)) continue;
    TSNode right = Field(n, "right");
    SelfTransform t = Opaque(tree, n);
    TSNode operand{};
    if (Is(n, "augmented_assignment")) {
      TSNode op = Field(n, "operator");
      std::string o = ts_node_is_null(op) ? "" : std::string(TextOf(tree, op));
      if (!o.empty() && o.back() == '=') o.pop_back();
      t.op = o;
      operand = right;
    } else {
      // `X = X // 2`: the target, an operator, a literal; any other value
      // that reads the target, or a name computed from it after the value
      // (`bm = X`, then `X = bm // 2`), is a transform muhpatch cannot
      // follow, and one that reads neither is a new value (the liveness
      // analysis's).
      std::string r = Normal(TextOf(tree, right));
      bool through_alias = std::any_of(aliases.begin(), aliases.end(), [&](TSNode a) {
        return ts_node_start_byte(a) < ts_node_start_byte(n) &&
               Reads(r, Normal(TextOf(tree, Field(a, "left"))));
      });
      if (!Reads(r, target) && !through_alias) continue;
      if (!through_alias && Is(right, "binary_operator") &&
          Normal(TextOf(tree, Field(right, "left"))) == target) {
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
    out->push_back(std::move(t));
  }
  // The function returns the variable: its callers in this file that bind
  // the result transform it there.
  TSNode name = Is(scope, "function_definition") ? Field(scope, "name") : TSNode{};
  bool returned = std::any_of(returns.begin(), returns.end(), [&](TSNode r) {
    return !exclusive(r) && ts_node_named_child_count(r) == 1 &&
           Normal(TextOf(tree, ts_node_named_child(r, 0))) == variable;
  });
  if (depth >= 3 || ts_node_is_null(name) || !returned) return;
  std::string_view fn = TextOf(tree, name);
  std::vector<TSNode> calls{tree.Root()};
  while (!calls.empty()) {
    TSNode n = calls.back();
    calls.pop_back();
    if (Is(n, "assignment") && Is(Field(n, "left"), "identifier") &&
        Is(Field(n, "right"), "call") && TextOf(tree, Field(Field(n, "right"), "function")) == fn) {
      std::string bound(TextOf(tree, Field(n, "left")));
      Collect(tree, n, bound + target.substr(variable.size()), depth + 1, out);
    }
    PushNamedChildren(n, &calls);
  }
}

}  // namespace

std::vector<SelfTransform> LaterTransforms(const SyntaxTree& tree, std::size_t begin,
                                           std::size_t end) {
  std::vector<SelfTransform> out;
  TSNode v = ts_node_descendant_for_byte_range(tree.Root(), static_cast<uint32_t>(begin),
                                               static_cast<uint32_t>(end));
  TSNode assignment{};
  std::string target = TargetOf(tree, v, &assignment);
  if (target.empty()) return out;
  Collect(tree, assignment, target, 0, &out);
  std::sort(out.begin(), out.end(),
            [](const SelfTransform& a, const SelfTransform& b) { return a.line < b.line; });
  return out;
}

}  // namespace muh
