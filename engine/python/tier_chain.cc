#include "engine/python/tier_chain.h"

#include <fmt/format.h>

#include <string_view>
#include <vector>

#include "engine/python/ts_nodes.h"

namespace muh {

namespace {

// The bound of `variable <= BOUND`, or a null node when `cond` is not that.
TSNode BoundOf(const SyntaxTree& tree, TSNode cond, const std::string& variable) {
  TSNode none{};
  if (ts_node_is_null(cond) || !Is(cond, "comparison_operator")) return none;
  if (ts_node_named_child_count(cond) != 2 || ts_node_child_count(cond) != 3) return none;
  TSNode left = ts_node_named_child(cond, 0);
  TSNode op = ts_node_child(cond, 1);
  if (!Is(left, "identifier") || TextOf(tree, left) != variable || !Is(op, "<=")) return none;
  return ts_node_named_child(cond, 1);
}

int LineOf(const SyntaxTree& tree, std::size_t at) {
  int line = 1;
  for (std::size_t i = 0; i < at && i < tree.bytes().size(); ++i) line += tree.bytes()[i] == '\n';
  return line;
}

}  // namespace

std::optional<TierChainAt> TierChainAround(const SyntaxTree& tree, std::size_t begin,
                                           std::size_t end, const std::string& variable,
                                           std::string* error) {
  TSNode n = ts_node_descendant_for_byte_range(tree.Root(), static_cast<uint32_t>(begin),
                                               static_cast<uint32_t>(end));
  // Up to the statement that holds the bytes, directly in a clause's block.
  TSNode block{};
  while (!ts_node_is_null(n)) {
    TSNode parent = ts_node_parent(n);
    if (ts_node_is_null(parent)) return std::nullopt;
    if (Is(parent, "block")) {
      block = parent;
      break;
    }
    n = parent;
  }
  if (ts_node_is_null(block)) return std::nullopt;
  TSNode clause = ts_node_parent(block);
  if (ts_node_is_null(clause)) return std::nullopt;
  TSNode chain = clause;
  if (Is(clause, "elif_clause") || Is(clause, "else_clause")) chain = ts_node_parent(clause);
  if (ts_node_is_null(chain) || !Is(chain, "if_statement")) return std::nullopt;
  TierChainAt out;
  out.chain.variable = variable;
  out.chain.begin = ts_node_start_byte(chain);
  // The clauses in order: the `if` itself, then its alternatives.
  for (uint32_t i = 0; i < ts_node_child_count(chain); ++i) {
    TSNode c = ts_node_child(chain, i);
    bool head = i == 0;
    if (!head && !Is(c, "elif_clause") && !Is(c, "else_clause")) continue;
    TierClause t;
    t.begin = ts_node_start_byte(head ? chain : c);
    if (!head && Is(c, "else_clause")) {
      out.chain.has_else = true;
    } else {
      TSNode cond = Field(head ? chain : c, "condition");
      TSNode bound = BoundOf(tree, cond, variable);
      if (ts_node_is_null(bound)) {
        *error = "the " + std::string(head ? "`if`" : "`elif`") + " at line " +
                 std::to_string(LineOf(tree, t.begin)) + " reads `" +
                 std::string(ts_node_is_null(cond) ? "" : TextOf(tree, cond)) + "`, not `" +
                 variable + " <= BOUND`";
        return std::nullopt;
      }
      t.bound = std::string(TextOf(tree, bound));
      t.bound_begin = ts_node_start_byte(bound);
      t.bound_end = ts_node_end_byte(bound);
    }
    TSNode body = head ? Field(chain, "consequence")
                       : Field(c, Is(c, "else_clause") ? "body" : "consequence");
    if (!ts_node_is_null(body) && ts_node_eq(body, block)) out.clause = out.chain.clauses.size();
    out.chain.clauses.push_back(std::move(t));
  }
  return out;
}

namespace {

// The names of TargetIdentifiers(target), as text.
void TargetNames(const SyntaxTree& tree, TSNode target, std::vector<std::string>* out) {
  for (TSNode t : TargetIdentifiers(target)) out->emplace_back(TextOf(tree, t));
}

// The names node `n` binds other than by assignment, `for` or walrus:
// imports (`import a.b` binds a; `from m import x as y` binds y),
// definitions, `del`, `as` targets of with and except. `every_name`: a star
// import, globals()/vars()/locals() or the module reached as an object
// (`sys.modules[__name__]`, a `__dict__`) may bind any.
void BindingsOf(const SyntaxTree& tree, TSNode n, std::vector<std::string>* out, bool* every_name) {
  auto text = [&tree](TSNode t) { return std::string(TextOf(tree, t)); };
  if (Is(n, "import_statement") || Is(n, "import_from_statement") ||
      Is(n, "future_import_statement")) {
    bool from = !Is(n, "import_statement");
    for (TSNode c : NamedChildren(n)) {
      if (Is(c, "wildcard_import")) *every_name = true;
      if (from && ts_node_eq(c, Field(n, "module_name"))) continue;
      if (Is(c, "aliased_import")) {
        TSNode alias = Field(c, "alias");
        if (!ts_node_is_null(alias)) out->push_back(text(alias));
      } else if (Is(c, "dotted_name") && ts_node_named_child_count(c) > 0) {
        // `import a.b` binds a; `from m import x` binds x.
        out->push_back(text(ts_node_named_child(c, 0)));
      }
    }
    return;
  }
  if (Is(n, "function_definition") || Is(n, "class_definition")) {
    TSNode name = Field(n, "name");
    if (!ts_node_is_null(name)) out->push_back(text(name));
    return;
  }
  if (Is(n, "delete_statement") || Is(n, "as_pattern_target") || Is(n, "except_clause") ||
      Is(n, "global_statement") || Is(n, "nonlocal_statement")) {
    for (TSNode c : NamedChildren(n)) {
      if (Is(c, "identifier")) out->push_back(text(c));
      if (Is(c, "as_pattern")) {
        TSNode alias = Field(c, "alias");
        if (!ts_node_is_null(alias)) out->push_back(text(alias));
      }
    }
    return;
  }
  // A capture in a `case` pattern binds its name (`case T:`, `case [T,
  // *rest]`, `case P(x=T)`); every name there is counted.
  if (Is(n, "case_pattern")) {
    std::vector<TSNode> stack{n};
    while (!stack.empty()) {
      TSNode t = stack.back();
      stack.pop_back();
      if (Is(t, "identifier")) out->push_back(text(t));
      PushNamedChildren(t, &stack);
    }
    return;
  }
  if (Is(n, "call")) {
    TSNode fn = Field(n, "function");
    if (!ts_node_is_null(fn) && Is(fn, "identifier")) {
      std::string f = text(fn);
      // exec and eval run code that may bind any name of the module.
      if (f == "globals" || f == "vars" || f == "locals" || f == "exec" || f == "eval") {
        *every_name = true;
      }
    }
  }
  // The module reached as an object: `sys.modules[__name__]` (setattr on
  // it, its __dict__), any `__dict__`, `import_module(__name__)`.
  if (Is(n, "attribute")) {
    TSNode attr = Field(n, "attribute");
    TSNode object = Field(n, "object");
    TSNode parent = ts_node_parent(n);
    bool sys_modules = !ts_node_is_null(attr) && text(attr) == "modules" &&
                       ((!ts_node_is_null(object) && text(object) == "sys") ||
                        (!ts_node_is_null(parent) && Is(parent, "subscript")));
    if (sys_modules || (!ts_node_is_null(attr) && text(attr) == "__dict__")) *every_name = true;
  }
  if (Is(n, "identifier") && text(n) == "__name__") {
    TSNode args = ts_node_parent(n);
    TSNode call = ts_node_is_null(args) ? args : ts_node_parent(args);
    if (!ts_node_is_null(call) && Is(call, "call") && Is(args, "argument_list")) {
      std::string f = text(Field(call, "function"));
      if (f == "import_module" || (f.size() > 14 && f.substr(f.size() - 14) == ".import_module") ||
          f == "__import__")
        *every_name = true;
    }
  }
}

}  // namespace

std::map<std::string, std::string> ModuleConstants(const SyntaxTree& tree,
                                                   std::map<std::string, std::string>* why_not) {
  std::map<std::string, std::string> out;
  // Says why `name`, a top-level constant so far, is left out: `n` binds it.
  auto drop = [&](const std::string& name, TSNode n, const char* how) {
    if (why_not != nullptr && out.count(name) != 0 && why_not->count(name) == 0) {
      std::string_view text = TextOf(tree, n);
      text = text.substr(0, text.find('\n'));
      (*why_not)[name] =
          fmt::format("`{}` (line {}) {}", text, ts_node_start_point(n).row + 1, how);
    }
    out.erase(name);
  };
  std::map<std::string, int> count;
  TSNode root = tree.Root();
  for (TSNode s : NamedChildren(root)) {
    if (!Is(s, "expression_statement") || ts_node_named_child_count(s) != 1) continue;
    TSNode a = ts_node_named_child(s, 0);
    if (!Is(a, "assignment") && !Is(a, "augmented_assignment")) continue;
    TSNode left = Field(a, "left");
    TSNode right = Field(a, "right");
    if (ts_node_is_null(left) || ts_node_is_null(right) || !Is(left, "identifier")) continue;
    std::string name(TextOf(tree, left));
    // `D = B = 7` is a chain, not a constant's expression.
    if (++count[name] > 1 || Is(a, "augmented_assignment") || Is(right, "assignment")) {
      drop(name, a, "binds it again");
      continue;
    }
    out[name] = std::string(TextOf(tree, right));
  }
  // A name bound anywhere else too (under a module-level `if`, in a `for`,
  // through `global` in a function, or a local of the same name) is left
  // out: its value may not be the one written at the top level. Walked with
  // a cursor, which keeps no stack of its own however deep a hostile file
  // nests. The top-level assignments read above sit at depth 2, in an
  // expression statement at depth 1.
  if (out.empty()) return out;
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  uint32_t depth = 0;
  bool in_statement = false;  // the depth-1 node is an expression statement
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&cursor);
    if (depth == 1) in_statement = Is(n, "expression_statement");
    if (ts_node_is_named(n)) {
      // Every other way Python binds a name (whitelisted below), or takes
      // the module's namespace whole.
      std::vector<std::string> bound;
      bool every_name = false;  // `from m import *`, globals(), vars()
      BindingsOf(tree, n, &bound, &every_name);
      if (every_name) {
        ts_tree_cursor_delete(&cursor);
        if (why_not != nullptr) {
          std::string_view text = TextOf(tree, n);
          text = text.substr(0, text.find('\n'));
          (*why_not)["*"] = fmt::format("`{}` (line {}) may bind any name of the module", text,
                                        ts_node_start_point(n).row + 1);
        }
        return {};
      }
      for (const std::string& b : bound) drop(b, n, "binds it again");
    }
    if (ts_node_is_named(n) && (Is(n, "assignment") || Is(n, "augmented_assignment") ||
                                Is(n, "for_statement") || Is(n, "named_expression"))) {
      TSNode target = Field(n, Is(n, "named_expression") ? "name" : "left");
      // The top-level `NAME = value` statements were counted above; a
      // pattern there (`A, B = 1, 2`, `[A] = [1]`) binds each of its names.
      bool counted =
          depth == 2 && in_statement && !ts_node_is_null(target) && Is(target, "identifier");
      std::vector<std::string> names;
      if (!counted) TargetNames(tree, target, &names);
      for (const std::string& b : names) drop(b, n, "binds it again");
    }
    if (ts_tree_cursor_goto_first_child(&cursor)) {
      ++depth;
      continue;
    }
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (depth == 0 || !ts_tree_cursor_goto_parent(&cursor)) {
        ts_tree_cursor_delete(&cursor);
        return out;
      }
      --depth;
    }
  }
}

std::map<std::string, std::string> FunctionConstants(const SyntaxTree& tree, TSNode fn,
                                                     std::size_t at,
                                                     std::map<std::string, std::string> module) {
  // Every binding in the function, by name, counted; nested scopes too (a
  // `nonlocal` there rebinds ours; a local there only hides it, which is
  // counted too, and costs only precision).
  std::map<std::string, int> bindings;
  std::vector<TSNode> stack{fn};
  while (!stack.empty()) {
    TSNode n = stack.back();
    stack.pop_back();
    if (!ts_node_is_named(n)) continue;
    std::vector<std::string> bound;
    bool every_name = false;
    if (!ts_node_eq(n, fn)) BindingsOf(tree, n, &bound, &every_name);
    if (every_name) return {};
    if (Is(n, "assignment") || Is(n, "augmented_assignment") || Is(n, "for_statement") ||
        Is(n, "named_expression") || Is(n, "for_in_clause")) {
      TargetNames(tree, Field(n, Is(n, "named_expression") ? "name" : "left"), &bound);
    }
    if (Is(n, "parameters") || Is(n, "lambda_parameters")) {
      std::vector<TSNode> params{n};
      while (!params.empty()) {
        TSNode p = params.back();
        params.pop_back();
        if (Is(p, "identifier")) bound.emplace_back(TextOf(tree, p));
        for (uint32_t i = 0; i < ts_node_named_child_count(p); ++i) {
          params.push_back(ts_node_named_child(p, i));
        }
      }
    }
    for (const std::string& b : bound) ++bindings[b];
    PushNamedChildren(n, &stack);
  }
  for (const auto& [name, count] : bindings) module.erase(name);
  TSNode body = Field(fn, "body");
  for (TSNode s : ts_node_is_null(body) ? std::vector<TSNode>{} : NamedChildren(body)) {
    if (ts_node_end_byte(s) > at) break;
    if (!Is(s, "expression_statement") || ts_node_named_child_count(s) != 1) continue;
    TSNode a = ts_node_named_child(s, 0);
    if (!Is(a, "assignment")) continue;
    TSNode left = Field(a, "left");
    TSNode right = Field(a, "right");
    if (ts_node_is_null(left) || ts_node_is_null(right) || !Is(left, "identifier") ||
        Is(right, "assignment")) {
      continue;
    }
    std::string name(TextOf(tree, left));
    if (bindings[name] == 1) module[name] = std::string(TextOf(tree, right));
  }
  return module;
}

}  // namespace muh
