#include "engine/python/value_use.h"

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>

#include "engine/base/text.h"
#include "engine/python/ts_nodes.h"

namespace muh {

namespace {

// Builtins that give back one of their arguments: the knob's value comes
// out of them as it is or replaced (a clamp).
constexpr std::string_view kSelecting[] = {"max", "min"};
// Builtins that give back the value in another type: as it is, for the
// knob's whole numbers.
constexpr std::string_view kConverting[] = {"int", "abs", "round", "float"};

template <std::size_t N>
bool Calls(const SyntaxTree& tree, TSNode call, const std::string_view (&names)[N]) {
  TSNode f = Field(call, "function");
  if (!Is(f, "identifier")) return false;
  return std::find(std::begin(names), std::end(names), TextOf(tree, f)) != std::end(names);
}

// Python's builtin functions and types (dir(builtins), 3.8 to 3.13). Any
// but the two lists above computes another quantity (len, range, str ...).
constexpr std::string_view kBuiltins[] = {
    "abs",      "aiter",      "all",        "anext",   "any",      "ascii",     "bin",
    "bool",     "breakpoint", "bytearray",  "bytes",   "callable", "chr",       "classmethod",
    "compile",  "complex",    "delattr",    "dict",    "dir",      "divmod",    "enumerate",
    "eval",     "exec",       "filter",     "float",   "format",   "frozenset", "getattr",
    "globals",  "hasattr",    "hash",       "help",    "hex",      "id",        "input",
    "int",      "isinstance", "issubclass", "iter",    "len",      "list",      "locals",
    "map",      "max",        "memoryview", "min",     "next",     "object",    "oct",
    "open",     "ord",        "pow",        "print",   "property", "range",     "repr",
    "reversed", "round",      "set",        "setattr", "slice",    "sorted",    "staticmethod",
    "str",      "sum",        "super",      "tuple",   "type",     "vars",      "zip",
};

// Positions whose value is a decision: a condition's own node.
bool IsCondition(TSNode parent, TSNode n) {
  if (Is(parent, "if_statement") || Is(parent, "elif_clause") || Is(parent, "while_statement")) {
    return FieldIs(parent, "condition", n);
  }
  if (Is(parent, "assert_statement")) {
    return ts_node_named_child_count(parent) > 0 && ts_node_eq(ts_node_named_child(parent, 0), n);
  }
  if (Is(parent, "conditional_expression")) {
    return ts_node_named_child_count(parent) == 3 && ts_node_eq(ts_node_named_child(parent, 1), n);
  }
  return Is(parent, "if_clause");
}

// A parent that hands the value on as it is, to where this file does not
// follow it.
bool HandsOn(std::string_view type) {
  static constexpr std::string_view kTypes[] = {"return_statement",
                                                "yield",
                                                "tuple",
                                                "list",
                                                "set",
                                                "expression_list",
                                                "pair",
                                                "assignment",
                                                "pattern_list",
                                                "named_expression",
                                                "lambda"};
  return OneOf(type, kTypes);
}

}  // namespace

ValueUse UseOfValue(const SyntaxTree& tree, const std::vector<TSNode>& path, bool changed) {
  ValueUse out;
  if (path.empty()) return out;
  TSNode first_change{};
  auto change = [&](TSNode n) {
    if (!changed) first_change = n;
    changed = true;
  };
  auto done = [&](ValueUseKind kind, TSNode at) {
    out.kind = kind;
    out.at = at;
    out.changed = changed;
    return out;
  };
  // A value that went through a clamp, then reaches a call or another
  // quantity: the clamp is the place.
  auto reaches = [&](ValueUseKind kind, TSNode at) {
    return changed ? done(ValueUseKind::kChanged, first_change) : done(kind, at);
  };
  // `and`/`or` between the read and a condition: a decision if a condition
  // is reached through them alone, else a value (`v or 32`).
  TSNode boolean{};
  for (std::size_t i = path.size() - 1; i > 0; --i) {
    TSNode n = path[i];
    TSNode p = path[i - 1];
    std::string_view type = ts_node_type(p);
    if (type == "parenthesized_expression") continue;
    if (type == "boolean_operator") {
      if (ts_node_is_null(boolean)) boolean = p;
      continue;
    }
    if (type == "not_operator" || type == "comparison_operator" || IsCondition(p, n)) {
      return done(ValueUseKind::kTested, p);
    }
    if (!ts_node_is_null(boolean)) {
      // `v or 32` used as a value: it may be replaced.
      change(boolean);
      boolean = TSNode{};
    }
    if (type == "conditional_expression") {
      change(p);  // a branch: it may be replaced
      continue;
    }
    if (type == "binary_operator" || type == "unary_operator" || type == "interpolation") {
      return reaches(ValueUseKind::kDerived, p);
    }
    TSNode list{};
    if (type == "argument_list") {
      list = p;
    } else if (type == "keyword_argument" && FieldIs(p, "value", n) && i >= 2 &&
               Is(path[i - 2], "argument_list")) {
      list = path[i - 2];
      --i;
    }
    if (!ts_node_is_null(list)) {
      TSNode call = i >= 2 ? path[i - 2] : TSNode{};
      if (!Is(call, "call") || !FieldIs(call, "arguments", list)) {  // a class's bases
        change(p);
        break;
      }
      bool selecting = Calls(tree, call, kSelecting);
      if (selecting || Calls(tree, call, kConverting)) {
        if (selecting) change(call);
        --i;  // on from the call
        continue;
      }
      return reaches(Calls(tree, call, kBuiltins) ? ValueUseKind::kDerived : ValueUseKind::kPassed,
                     call);
    }
    if (type == "expression_statement" && ts_node_named_child_count(p) == 1) {
      return done(ValueUseKind::kDiscarded, p);
    }
    // An assert's message (`assert BLOCK >= 16, BLOCK`): shown, not used (a
    // helper probe of the name check).
    if (type == "assert_statement") return done(ValueUseKind::kDiscarded, p);
    if (type == "assignment" && FieldIs(p, "right", n) && Is(Field(p, "left"), "identifier") &&
        i >= 2 && Is(path[i - 2], "expression_statement")) {
      return done(ValueUseKind::kAliased, p);
    }
    // Carried where this file does not follow: the parent is the place.
    // Handed on whole (returned, put in a container, bound by a pattern)
    // or made something else (a subscript, an attribute, a splat).
    out.carried = !changed && HandsOn(type);
    change(p);
    break;
  }
  return done(ValueUseKind::kChanged, first_change);
}

bool IsBoundValue(std::string_view rhs, std::size_t begin, std::size_t end) {
  if (begin >= end || end > rhs.size()) return false;
  std::string text = "(" + std::string(rhs) + "\n)";
  PythonParser parser;
  SyntaxTree tree = parser.Parse(text);
  if (tree.HasError()) return false;
  const auto b = static_cast<uint32_t>(begin + 1);
  const auto e = static_cast<uint32_t>(end + 1);
  TSNode n = ts_node_named_descendant_for_byte_range(tree.Root(), b, e);
  if (ts_node_is_null(n) || ts_node_start_byte(n) != b || ts_node_end_byte(n) != e) return false;
  // Up through the branches and brackets to the outer parentheses we added.
  for (TSNode up = ts_node_parent(n); !ts_node_is_null(up); n = up, up = ts_node_parent(up)) {
    if (Is(up, "parenthesized_expression")) {
      if (ts_node_start_byte(up) == 0) return true;  // ours: the whole right side
      continue;
    }
    if (Is(up, "conditional_expression") && !ts_node_eq(ts_node_named_child(up, 1), n)) continue;
    return false;
  }
  return false;
}

}  // namespace muh
