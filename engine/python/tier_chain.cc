#include "engine/python/tier_chain.h"

#include <fmt/format.h>

#include <string_view>
#include <vector>

#include "engine/python/name_use.h"
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

// The statement or clause that holds the last node of `path`, to cite:
// `except E as T:`, `def f(T):`, `x = [(T := v) for v in w]`.
TSNode StatementOf(const std::vector<TSNode>& path) {
  for (std::size_t i = path.size(); i-- > 0;) {
    std::string_view type = ts_node_type(path[i]);
    auto ends = [&](std::string_view suffix) {
      return type.size() > suffix.size() && type.substr(type.size() - suffix.size()) == suffix;
    };
    bool part_of_expression =
        type == "for_in_clause" || type == "if_clause" || type == "with_clause";
    if ((ends("_statement") || ends("_clause") || type == "function_definition" ||
         type == "class_definition") &&
        !part_of_expression) {
      return path[i];
    }
  }
  return path.back();
}

// "`text` (line N) HOW", of the first line of `n`'s text.
std::string Citing(const SyntaxTree& tree, TSNode n, const char* how) {
  std::string_view text = TextOf(tree, n);
  text = text.substr(0, text.find('\n'));
  return fmt::format("`{}` (line {}) {}", text, ts_node_start_point(n).row + 1, how);
}

}  // namespace

std::map<std::string, std::string> ModuleConstants(const SyntaxTree& tree,
                                                   std::map<std::string, std::string>* why_not) {
  // Each name's lone top-level `NAME = value` statements, and the first
  // other binding of it anywhere in the file (name_use.h: an assignment of
  // any other form, `for`, `with`/`except` as, `:=`, an import, def, class,
  // del, global, a case capture, a parameter, a position not modeled). A
  // comprehension's variable binds in the comprehension only.
  std::map<std::string, std::vector<TSNode>> assigned;  // the assignment statements
  std::map<std::string, TSNode> other;
  std::optional<TSNode> wide;  // a statement that may bind any name
  ForEachNamedPath(tree.Root(), [&](const std::vector<TSNode>& path) {
    if (wide) return;
    if (NamespaceWide(tree, path)) {
      wide = StatementOf(path);
      return;
    }
    TSNode n = path.back();
    if (!Is(n, "identifier")) return;
    NameUse use = UseOf(path);
    if (!Binds(use) || use == NameUse::kComprehend) return;
    std::string name(TextOf(tree, n));
    if (use == NameUse::kAssign && path.size() == 4 && Is(path[1], "expression_statement") &&
        Is(path[2], "assignment")) {
      // `NAME: T` alone binds nothing in a module's namespace.
      if (!ts_node_is_null(Field(path[2], "right"))) assigned[name].push_back(path[1]);
      return;
    }
    other.emplace(name, StatementOf(path));
  });
  if (wide) {
    if (why_not != nullptr)
      (*why_not)["*"] = Citing(tree, *wide, "may bind any name of the module");
    return {};
  }
  std::map<std::string, std::string> out;
  for (const auto& [name, statements] : assigned) {
    auto again = other.find(name);
    if (statements.size() == 1 && again == other.end()) {
      TSNode a = ts_node_named_child(statements[0], 0);
      out[name] = std::string(TextOf(tree, Field(a, "right")));
    } else if (why_not != nullptr) {
      // A second top-level assignment is named first, as the reader meets it.
      (*why_not)[name] =
          Citing(tree, statements.size() > 1 ? statements[1] : again->second, "binds it again");
    }
  }
  return out;
}

std::optional<std::string> ModuleConstantAt(const SyntaxTree& tree, std::size_t begin,
                                            std::size_t end) {
  std::vector<TSNode> path =
      PathTo(tree.Root(), static_cast<std::uint32_t>(begin), static_cast<std::uint32_t>(end));
  // module > expression_statement > assignment > the value
  if (path.size() != 4 || !Is(path[1], "expression_statement") || !Is(path[2], "assignment")) {
    return std::nullopt;
  }
  TSNode left = Field(path[2], "left");
  TSNode right = Field(path[2], "right");
  if (ts_node_is_null(left) || !Is(left, "identifier") || ts_node_is_null(right) ||
      !ts_node_eq(right, path[3])) {
    return std::nullopt;
  }
  return std::string(TextOf(tree, left));
}

std::optional<std::string> ConstantAt(const SyntaxTree& tree, std::size_t at,
                                      const std::string& name) {
  std::map<std::string, std::string> constants = ModuleConstants(tree);
  std::vector<TSNode> path =
      PathTo(tree.Root(), static_cast<std::uint32_t>(at), static_cast<std::uint32_t>(at));
  for (std::size_t i = 0; i + 1 < path.size(); ++i) {
    if (Is(path[i], "class_definition")) return std::nullopt;
    if (Is(path[i], "function_definition")) {
      constants = FunctionConstants(tree, path[i], at, std::move(constants));
    }
  }
  auto it = constants.find(name);
  if (it == constants.end()) return std::nullopt;
  return it->second;
}

std::map<std::string, std::string> FunctionConstants(const SyntaxTree& tree, TSNode fn,
                                                     std::size_t at,
                                                     std::map<std::string, std::string> module) {
  // Every binding in the function, by name, counted (name_use.h); nested
  // scopes too (a `nonlocal` there rebinds ours; a local there only hides
  // it, which is counted too, and costs only precision). The function's
  // own name is the enclosing scope's.
  std::map<std::string, int> bindings;
  bool wide = false;
  ForEachNamedPath(fn, [&](const std::vector<TSNode>& path) {
    if (wide) return;
    wide = NamespaceWide(tree, path);
    TSNode n = path.back();
    if (!Is(n, "identifier") || (path.size() == 2 && ts_node_eq(Field(fn, "name"), n))) return;
    if (Binds(UseOf(path))) ++bindings[std::string(TextOf(tree, n))];
  });
  if (wide) return {};
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
