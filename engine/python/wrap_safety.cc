#include "engine/python/wrap_safety.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <unordered_set>

#include "engine/python/name_use.h"
#include "engine/python/ts_nodes.h"

namespace muh {

namespace {

// The `try` and `with` statements of `function` whose body holds `n`,
// innermost first: where an exception raised at `n` may be caught or
// suppressed (a `finally` or a context manager's exit runs code too).
std::vector<TSNode> ExceptionGuards(TSNode n, TSNode function) {
  std::vector<TSNode> out;
  TSNode child = n;
  for (TSNode p = ts_node_parent(n); !ts_node_is_null(p) && !ts_node_eq(p, function);
       child = p, p = ts_node_parent(p)) {
    if ((Is(p, "try_statement") || Is(p, "with_statement")) &&
        ts_node_eq(Field(p, "body"), child)) {
      out.push_back(p);
    }
  }
  return out;
}

// A named child and the field that holds it (null: none).
struct Child {
  TSNode node;
  const char* field = nullptr;

  bool In(const char* name) const { return field != nullptr && std::strcmp(field, name) == 0; }
};

// A node's named children, listed by one cursor: ts_node_named_child(n, i)
// starts over from the first child each time.
class Children {
 public:
  explicit Children(TSNode root) : cursor_(ts_tree_cursor_new(root)) {}
  ~Children() { ts_tree_cursor_delete(&cursor_); }
  Children(const Children&) = delete;
  Children& operator=(const Children&) = delete;

  std::vector<Child> Of(TSNode n) {
    std::vector<Child> out;
    ts_tree_cursor_reset(&cursor_, n);
    if (!ts_tree_cursor_goto_first_child(&cursor_)) return out;
    do {
      TSNode c = ts_tree_cursor_current_node(&cursor_);
      if (ts_node_is_named(c)) out.push_back(Child{c, ts_tree_cursor_current_field_name(&cursor_)});
    } while (ts_tree_cursor_goto_next_sibling(&cursor_));
    return out;
  }

 private:
  TSTreeCursor cursor_;
};

// Appends the names `target` binds (TargetIdentifiers) to `out`.
void TargetNames(TSNode target, std::vector<TSNode>* out) {
  for (TSNode t : TargetIdentifiers(target)) out->push_back(t);
}

bool IsComprehension(TSNode n) {
  return Is(n, "list_comprehension") || Is(n, "set_comprehension") ||
         Is(n, "dictionary_comprehension") || Is(n, "generator_expression");
}

}  // namespace

std::vector<std::string> NamesRead(const SyntaxTree& tree, TSNode condition) {
  // Scope 0 is the condition's (where `:=` binds, even in a comprehension);
  // a comprehension or a lambda opens one inside it.
  struct Scope {
    int parent = -1;
    std::vector<std::string_view> names;
  };
  struct Item {
    TSNode node;
    int scope = 0;
  };
  std::vector<Scope> scopes(1);
  std::vector<Item> stack{{condition, 0}};
  std::vector<Item> reads;
  std::vector<TSNode> bound;
  Children kids(condition);
  auto bind = [&](int scope, TSNode target) {
    bound.clear();
    TargetNames(target, &bound);
    for (TSNode b : bound) scopes[scope].names.push_back(TextOf(tree, b));
  };
  while (!stack.empty()) {
    Item it = stack.back();
    stack.pop_back();
    TSNode n = it.node;
    if (Is(n, "identifier")) {
      reads.push_back(it);
      continue;
    }
    std::vector<Child> cs = kids.Of(n);
    std::vector<Item> next;
    int inner = it.scope;
    if (IsComprehension(n) || Is(n, "lambda")) {
      scopes.push_back(Scope{it.scope, {}});
      inner = static_cast<int>(scopes.size()) - 1;
    }
    bool first_for = true;
    for (const Child& c : cs) {
      if ((Is(n, "attribute") && c.In("attribute")) ||
          (Is(n, "keyword_argument") && c.In("name"))) {
        continue;
      } else if (Is(n, "named_expression") && c.In("name")) {
        bind(0, c.node);
      } else if (Is(n, "lambda") && c.In("parameters")) {
        // A default is computed where the lambda is written.
        for (const Child& p : kids.Of(c.node)) {
          TSNode value = Is(p.node, "default_parameter") ? Field(p.node, "value") : TSNode{};
          bind(inner, ts_node_is_null(value) ? p.node : Field(p.node, "name"));
          if (!ts_node_is_null(value)) next.push_back(Item{value, it.scope});
        }
      } else if (IsComprehension(n) && Is(c.node, "for_in_clause")) {
        // The first iterable is computed outside the comprehension.
        for (const Child& f : kids.Of(c.node)) {
          if (f.In("left"))
            bind(inner, f.node);
          else
            next.push_back(Item{f.node, first_for ? it.scope : inner});
        }
        first_for = false;
      } else {
        next.push_back(Item{c.node, inner});
      }
    }
    for (auto i = next.rbegin(); i != next.rend(); ++i) stack.push_back(*i);
  }
  std::vector<std::string> out;
  std::unordered_set<std::string_view> seen;  // a condition may read 30,000 names
  for (const Item& r : reads) {
    std::string_view name = TextOf(tree, r.node);
    bool local = false;
    for (int s = r.scope; s >= 0 && !local; s = scopes[s].parent) {
      const std::vector<std::string_view>& names = scopes[s].names;
      local = std::find(names.begin(), names.end(), name) != names.end();
    }
    if (!local && seen.insert(name).second) out.emplace_back(name);
  }
  return out;
}

TSNode StatementAround(TSNode function, std::size_t at) {
  TSNode n = function;
  while (!Is(n, "expression_statement")) {
    TSNode c = ts_node_first_named_child_for_byte(n, static_cast<uint32_t>(at));
    if (ts_node_is_null(c) || ts_node_start_byte(c) > at) break;
    n = c;
  }
  return n;
}

namespace {

// Every binding of a name in `names` by `function` itself in [from, to),
// in source order (name_use.h's ForEachScopeBinding, less the parameters:
// the callers ask about the body).
std::vector<Rebinding> BindingsIn(const SyntaxTree& tree, TSNode function,
                                  const std::vector<std::string>& names, std::size_t from,
                                  std::size_t to) {
  std::unordered_set<std::string_view> wanted(names.begin(), names.end());
  std::vector<Rebinding> out;
  ForEachScopeBinding(function, [&](const std::vector<TSNode>& path, NameUse use) {
    TSNode b = path.back();
    std::size_t at = ts_node_start_byte(b);
    std::string_view name = TextOf(tree, b);
    if (use == NameUse::kParameter || at < from || at >= to || wanted.count(name) == 0) return;
    out.push_back(
        Rebinding{std::string(name), at, static_cast<int>(ts_node_start_point(b).row) + 1});
  });
  return out;
}

}  // namespace

std::optional<Rebinding> FirstRebinding(const SyntaxTree& tree, TSNode function, std::size_t from,
                                        std::size_t to, TSNode condition) {
  std::vector<std::string> names = NamesRead(tree, condition);
  if (names.empty() || from >= to) return std::nullopt;
  std::vector<Rebinding> all = BindingsIn(tree, function, names, from, to);
  if (all.empty()) return std::nullopt;
  return all.front();
}

std::vector<Rebinding> BindingsOf(const SyntaxTree& tree, TSNode function,
                                  const std::vector<std::string>& names) {
  return BindingsIn(tree, function, names, 0, SIZE_MAX);
}

namespace {

bool IsVllmModule(std::string_view dotted) {
  return dotted == "vllm" || dotted.substr(0, 5) == "vllm.";
}

// The names the file binds only by importing them from a `vllm` module,
// anywhere in it (any binding in any scope, name_use.h, counts against).
std::vector<std::string> VllmImportedNames(const SyntaxTree& tree) {
  std::vector<std::string> vllm, other;
  ForEachNamedPath(tree.Root(), [&](const std::vector<TSNode>& path) {
    TSNode n = path.back();
    if (!Is(n, "identifier")) return;
    NameUse use = UseOf(path);
    if (!Binds(use) || use == NameUse::kComprehend) return;
    bool from_vllm = false;
    if (use == NameUse::kImport) {
      for (std::size_t i = path.size() - 1; i-- > 0 && i + 4 > path.size();) {
        if (!Is(path[i], "import_from_statement")) continue;
        from_vllm = IsVllmModule(TextOf(tree, Field(path[i], "module_name")));
        break;
      }
    }
    (from_vllm ? vllm : other).emplace_back(TextOf(tree, n));
  });
  std::vector<std::string> out;
  for (const std::string& name : vllm) {
    if (std::find(other.begin(), other.end(), name) == other.end() &&
        std::find(out.begin(), out.end(), name) == out.end()) {
      out.push_back(name);
    }
  }
  return out;
}

bool HasAttributeOrSubscript(Children* kids, TSNode target) {
  std::vector<TSNode> stack{target};
  while (!stack.empty()) {
    TSNode n = stack.back();
    stack.pop_back();
    if (ts_node_is_null(n)) continue;
    if (Is(n, "attribute") || Is(n, "subscript")) return true;
    for (const Child& c : kids->Of(n)) stack.push_back(c.node);
  }
  return false;
}

}  // namespace

std::vector<std::string> ParameterNames(const SyntaxTree& tree, TSNode function) {
  std::vector<std::string> out;
  Children kids(function);
  std::vector<TSNode> params{Field(function, "parameters")};
  while (!params.empty()) {
    TSNode p = params.back();
    params.pop_back();
    if (ts_node_is_null(p)) continue;
    if (Is(p, "identifier")) out.emplace_back(TextOf(tree, p));
    for (const Child& c : kids.Of(p)) {
      if (!c.In("value") && !c.In("type")) params.push_back(c.node);  // not a default's names
    }
  }
  return out;
}

FixedNames::FixedNames(const SyntaxTree& tree, TSNode function) {
  std::vector<std::string> platform = VllmImportedNames(tree);
  // The object a platform name denotes is not fixed where the file stores
  // through it (`current_platform.has_device_capability = f`, `del
  // current_platform.x`, `setattr(current_platform, ...)`), nor is any
  // name where the file may bind its namespace wholesale (name_use.h's
  // NamespaceWide: `globals()[...] = v`, a star import, exec).
  bool wide = false;
  std::unordered_set<std::string> stored;
  ForEachNamedPath(tree.Root(), [&](const std::vector<TSNode>& path) {
    if (wide) return;
    if (NamespaceWide(tree, path)) {
      wide = true;
      return;
    }
    TSNode n = path.back();
    TSNode root{};
    if ((Is(n, "attribute") || Is(n, "subscript")) && Binds(UseOf(path))) {
      root = n;
      while (!ts_node_is_null(root) && (Is(root, "attribute") || Is(root, "subscript"))) {
        root = Field(root, Is(root, "attribute") ? "object" : "value");
      }
    } else if (Is(n, "call")) {
      TSNode f = Field(n, "function");
      TSNode args = Field(n, "arguments");
      if (!ts_node_is_null(f) && !ts_node_is_null(args) && Is(f, "identifier") &&
          (TextOf(tree, f) == "setattr" || TextOf(tree, f) == "delattr") &&
          ts_node_named_child_count(args) > 0) {
        root = ts_node_named_child(args, 0);
      }
    }
    if (!ts_node_is_null(root) && Is(root, "identifier")) stored.emplace(TextOf(tree, root));
  });
  if (wide) platform.clear();
  platform.erase(std::remove_if(platform.begin(), platform.end(),
                                [&](const std::string& p) { return stored.count(p) != 0; }),
                 platform.end());
  std::unordered_set<std::string> fixed_platform(platform.begin(), platform.end());
  std::unordered_set<std::string> unfixed;   // bound in the function otherwise
  std::unordered_set<std::string> assigned;  // bound by `name = EXPR`, EXPR fixed
  Children kids(function);
  // Its parameters, and any `global` or `nonlocal`, here or in a nested scope.
  std::vector<TSNode> all{Field(function, "parameters"), Field(function, "body")};
  while (!all.empty()) {
    TSNode n = all.back();
    all.pop_back();
    if (ts_node_is_null(n)) continue;
    bool declares = Is(n, "global_statement") || Is(n, "nonlocal_statement");
    for (const Child& c : kids.Of(n)) {
      if (declares) unfixed.emplace(TextOf(tree, c.node));
      all.push_back(c.node);
    }
  }
  for (std::string& p : ParameterNames(tree, function)) unfixed.insert(std::move(p));
  // The function's own bindings: `name = EXPR` with EXPR over platform
  // names is fixed; any other binding is not.
  ForEachScopeBinding(function, [&](const std::vector<TSNode>& path, NameUse use) {
    TSNode b = path.back();
    std::string name(TextOf(tree, b));
    TSNode a = path.size() >= 2 ? path[path.size() - 2] : TSNode{};
    TSNode right = Is(a, "assignment") ? Field(a, "right") : TSNode{};
    bool from_platform = use == NameUse::kAssign && !ts_node_is_null(right);
    if (from_platform) {
      for (const std::string& r : NamesRead(tree, right)) {
        if (fixed_platform.count(r) == 0) from_platform = false;
      }
    }
    (from_platform ? assigned : unfixed).insert(std::move(name));
  });
  // A local hides the module's name: only its own bindings decide.
  for (const std::string& name : platform) {
    if (unfixed.count(name) == 0 && assigned.count(name) == 0) names_.insert(name);
  }
  for (const std::string& name : assigned) {
    if (unfixed.count(name) == 0) names_.insert(name);
  }
}

bool FixedNames::Has(std::string_view name) const { return names_.count(std::string(name)) != 0; }

std::optional<Rebinding> UnfixedRead(const SyntaxTree& tree, const FixedNames& fixed,
                                     TSNode condition) {
  for (const std::string& name : NamesRead(tree, condition)) {
    if (fixed.Has(name)) continue;
    // Where the condition reads it first.
    std::size_t at = ts_node_start_byte(condition);
    std::string_view text = TextOf(tree, condition);
    for (std::size_t i = text.find(name); i != std::string_view::npos; i = text.find(name, i + 1)) {
      TSNode n = ts_node_descendant_for_byte_range(condition, static_cast<uint32_t>(at + i),
                                                   static_cast<uint32_t>(at + i + name.size()));
      if (Is(n, "identifier") && TextOf(tree, n) == name) {
        at += i;
        break;
      }
    }
    TSNode n = ts_node_descendant_for_byte_range(condition, static_cast<uint32_t>(at),
                                                 static_cast<uint32_t>(at));
    return Rebinding{name, at, static_cast<int>(ts_node_start_point(n).row) + 1};
  }
  return std::nullopt;
}

TSNode FirstCodeRunner(const SyntaxTree& tree, const FixedNames& fixed, TSNode function,
                       std::size_t from, std::size_t to) {
  return FirstRunnerUnder(tree, fixed, Field(function, "body"), from, to);
}

TSNode FirstRunnerUnder(const SyntaxTree& tree, const FixedNames& fixed, TSNode root,
                        std::size_t from, std::size_t to) {
  Children kids(root);
  std::vector<TSNode> stack{root};
  while (!stack.empty()) {
    TSNode n = stack.back();
    stack.pop_back();
    if (ts_node_is_null(n) || ts_node_end_byte(n) <= from || ts_node_start_byte(n) >= to) continue;
    bool inside = ts_node_start_byte(n) >= from;
    if (inside) {
      if (Is(n, "call")) {
        std::vector<std::string> callee = NamesRead(tree, Field(n, "function"));
        if (!std::all_of(callee.begin(), callee.end(),
                         [&](const std::string& c) { return fixed.Has(c); })) {
          return n;
        }
      } else if (Is(n, "await") || Is(n, "yield") || Is(n, "import_statement") ||
                 Is(n, "import_from_statement") || Is(n, "future_import_statement") ||
                 Is(n, "with_statement") || Is(n, "for_statement") || Is(n, "for_in_clause") ||
                 Is(n, "decorator")) {
        return n;
      } else if ((Is(n, "assignment") || Is(n, "augmented_assignment")) &&
                 HasAttributeOrSubscript(&kids, Field(n, "left"))) {
        return n;
      } else if (Is(n, "delete_statement") && HasAttributeOrSubscript(&kids, n)) {
        return n;
      }
    }
    std::vector<Child> cs = kids.Of(n);
    bool scope = Is(n, "function_definition") || Is(n, "lambda");
    for (auto c = cs.rbegin(); c != cs.rend(); ++c) {
      if (scope && c->In("body")) continue;  // defining it runs none of it
      stack.push_back(c->node);
    }
  }
  return TSNode{};
}

std::optional<WrapHazard> WrapHazardOf(const SyntaxTree& tree, TSNode function,
                                       std::size_t value_at, TSNode condition) {
  return WrapHazardOf(tree, function, value_at, condition, FixedNames(tree, function));
}

std::optional<WrapHazard> WrapHazardOf(const SyntaxTree& tree, TSNode function,
                                       std::size_t value_at, TSNode condition,
                                       const FixedNames& fixed) {
  TSNode statement = StatementAround(function, value_at);
  std::size_t stated = ts_node_start_byte(statement);
  std::size_t tested = ts_node_start_byte(condition);
  WrapHazard h;
  h.test_line = static_cast<int>(ts_node_start_point(condition).row) + 1;
  // A test inside a def, lambda or class nested in `function` reads that
  // scope's names first: one it binds anywhere (a parameter, an import in
  // the helper) is not the name the wrap would read in `function`.
  std::vector<std::string> read = NamesRead(tree, condition);
  for (TSNode s = ts_node_parent(condition); !ts_node_is_null(s) && !ts_node_eq(s, function);
       s = ts_node_parent(s)) {
    if (!Is(s, "function_definition") && !Is(s, "lambda") && !Is(s, "class_definition")) continue;
    std::optional<Rebinding> r =
        FirstRebinding(tree, s, ts_node_start_byte(s), ts_node_end_byte(s), condition);
    TSNode params = Field(s, "parameters");
    std::vector<TSNode> stack;
    if (!r && !ts_node_is_null(params)) stack.push_back(params);
    while (!stack.empty() && !r) {
      TSNode p = stack.back();
      stack.pop_back();
      if (Is(p, "identifier")) {
        std::string_view name = TextOf(tree, p);
        if (std::find(read.begin(), read.end(), name) != read.end()) {
          r = Rebinding{std::string(name), ts_node_start_byte(p),
                        static_cast<int>(ts_node_start_point(p).row) + 1};
        }
      }
      for (uint32_t i = 0; i < ts_node_named_child_count(p); ++i) {
        stack.push_back(ts_node_named_child(p, i));
      }
    }
    if (r) {
      TSNode name = Field(s, "name");
      h.nested_in = ts_node_is_null(name) ? "a lambda" : std::string(TextOf(tree, name));
      h.rebinding = *r;
      return h;
    }
  }
  h.before_test = stated < tested;
  h.test_line = static_cast<int>(ts_node_start_point(condition).row) + 1;
  // The same handlers around the test and the statement: a test that
  // raises then stops both the original and the wrap alike.
  std::vector<TSNode> around_test = ExceptionGuards(condition, function);
  std::vector<TSNode> around_value = ExceptionGuards(statement, function);
  if (!std::equal(around_test.begin(), around_test.end(), around_value.begin(), around_value.end(),
                  [](TSNode a, TSNode b) { return ts_node_eq(a, b); })) {
    // The innermost one that holds one of them and not the other.
    const std::vector<TSNode>& longer =
        around_test.size() >= around_value.size() ? around_test : around_value;
    const std::vector<TSNode>& shorter =
        around_test.size() >= around_value.size() ? around_value : around_test;
    TSNode g = longer.front();
    for (TSNode t : longer) {
      if (std::none_of(shorter.begin(), shorter.end(),
                       [&](TSNode u) { return ts_node_eq(t, u); })) {
        g = t;
        break;
      }
    }
    h.guard = Is(g, "with_statement") ? "with" : "try";
    h.guard_holds_test = &longer == &around_test;
    h.guard_line = static_cast<int>(ts_node_start_point(g).row) + 1;
    return h;
  }
  // Before the test: from the statement (its own targets are bound after
  // the value is computed) to the test. After it: from the end of the
  // test to the statement, which reads the names before binding its own.
  std::optional<Rebinding> r =
      h.before_test
          ? FirstRebinding(tree, function, stated, tested, condition)
          : FirstRebinding(tree, function, ts_node_end_byte(condition), stated, condition);
  if (r) {
    h.rebinding = *r;
    return h;
  }
  // The wrap evaluates the condition once more: only where that runs no
  // code (a call may do something, or answer otherwise the second time).
  TSNode effect = FirstRunnerUnder(tree, fixed, condition, ts_node_start_byte(condition),
                                   ts_node_end_byte(condition));
  // A `:=` in it would bind its name where the value is, before reads of
  // the old binding between there and the test.
  for (std::vector<TSNode> stack{condition}; ts_node_is_null(effect) && !stack.empty();) {
    TSNode n = stack.back();
    stack.pop_back();
    if (Is(n, "named_expression")) effect = n;
    PushNamedChildren(n, &stack);
  }
  if (!ts_node_is_null(effect)) {
    std::string_view by = TextOf(tree, effect);
    h.effect = StateHazard{"", 0, std::string(by.substr(0, by.find('\n'))),
                           static_cast<int>(ts_node_start_point(effect).row) + 1};
    return h;
  }
  std::optional<Rebinding> unfixed = UnfixedRead(tree, fixed, condition);
  if (!unfixed) return std::nullopt;
  // A local the test binds (`ok = C`, then `if ok:`) holds the value once
  // its assignment ends.
  std::size_t tested_end = ts_node_end_byte(condition);
  TSNode parent = ts_node_parent(condition);
  if (Is(parent, "assignment") && ts_node_eq(Field(parent, "left"), condition)) {
    tested_end = ts_node_end_byte(parent);
  }
  TSNode runner = h.before_test ? FirstCodeRunner(tree, fixed, function, stated, tested)
                                : FirstCodeRunner(tree, fixed, function, tested_end, stated);
  if (ts_node_is_null(runner)) return std::nullopt;
  std::string_view by = TextOf(tree, runner);
  by = by.substr(0, by.find('\n'));
  h.state = StateHazard{unfixed->name, unfixed->line, std::string(by),
                        static_cast<int>(ts_node_start_point(runner).row) + 1};
  return h;
}

}  // namespace muh
