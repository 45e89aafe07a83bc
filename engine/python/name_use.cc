#include "engine/python/name_use.h"

#include <string_view>

#include "engine/python/ts_nodes.h"

namespace muh {

namespace {

bool FieldIs(TSNode parent, const char* field, TSNode n) {
  TSNode c = Field(parent, field);
  return !ts_node_is_null(c) && ts_node_eq(c, n);
}

// Parents that hold a target or a part of one and say nothing themselves:
// the use is the enclosing construct's. `lone`: the node is still the
// target itself, not an element of a pattern.
bool Transparent(std::string_view type, bool* lone) {
  if (type == "parenthesized_expression") return true;
  for (std::string_view t :
       {"tuple", "list", "pattern_list", "tuple_pattern", "list_pattern", "expression_list",
        "list_splat_pattern", "dictionary_splat_pattern", "list_splat", "parenthesized_list_splat",
        "splat_pattern", "dict_pattern", "class_pattern", "keyword_pattern", "union_pattern",
        "as_pattern"}) {
    if (type == t) {
      *lone = false;
      return true;
    }
  }
  return false;
}

// Parents of which every expression child is read.
bool Reads(std::string_view type) {
  for (std::string_view t : {"call",
                             "argument_list",
                             "binary_operator",
                             "boolean_operator",
                             "not_operator",
                             "unary_operator",
                             "comparison_operator",
                             "conditional_expression",
                             "subscript",
                             "slice",
                             "if_statement",
                             "elif_clause",
                             "while_statement",
                             "return_statement",
                             "expression_statement",
                             "assert_statement",
                             "raise_statement",
                             "pair",
                             "dictionary",
                             "set",
                             "list_comprehension",
                             "set_comprehension",
                             "dictionary_comprehension",
                             "generator_expression",
                             "if_clause",
                             "lambda",
                             "await",
                             "yield",
                             "interpolation",
                             "decorator",
                             "with_item",
                             "except_clause",
                             "except_group_clause",
                             "match_statement",
                             "dictionary_splat",
                             "print_statement",
                             "exec_statement",
                             "chevron",
                             "format_expression"}) {
    if (type == t) return true;
  }
  return false;
}

// `import a.b` binds a; `from m import x` binds x; a module path binds
// nothing. `d` is a dotted name whose parent is `g`.
NameUse InDottedName(TSNode n, TSNode d, TSNode g) {
  bool first = ts_node_named_child_count(d) > 0 && ts_node_eq(ts_node_named_child(d, 0), n);
  std::string_view type = ts_node_type(g);
  if (type == "import_statement" || type == "future_import_statement") {
    return first ? NameUse::kImport : NameUse::kNotAName;
  }
  if (type == "import_from_statement") {
    if (FieldIs(g, "module_name", d)) return NameUse::kNotAName;
    return first ? NameUse::kImport : NameUse::kNotAName;
  }
  if (type == "aliased_import" || type == "relative_import") return NameUse::kNotAName;
  return NameUse::kUnknown;
}

}  // namespace

std::vector<TSNode> PathTo(TSNode root, std::uint32_t begin, std::uint32_t end) {
  std::vector<TSNode> out{root};
  TSTreeCursor c = ts_tree_cursor_new(root);
  // Down to the child that spans the range, while one does.
  bool found = true;
  while (found && ts_tree_cursor_goto_first_child(&c)) {
    found = false;
    do {
      TSNode next = ts_tree_cursor_current_node(&c);
      if (ts_node_start_byte(next) <= begin && ts_node_end_byte(next) >= end &&
          ts_node_end_byte(next) > begin) {
        // Unnamed tokens (`(`, `.`) are not the node asked for.
        if (ts_node_is_named(next)) out.push_back(next);
        found = true;
        break;
      }
    } while (ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
  // The smallest named node spanning the range exactly.
  while (out.size() > 1 &&
         (ts_node_start_byte(out.back()) != begin || ts_node_end_byte(out.back()) != end)) {
    out.pop_back();
  }
  return out;
}

NameUse UseOf(const std::vector<TSNode>& path) {
  if (path.size() < 2) return NameUse::kUnknown;
  std::size_t i = path.size() - 1;
  bool lone = true;
  for (int steps = 0; steps < 64 && i > 0; ++steps, --i) {
    TSNode n = path[i];
    TSNode p = path[i - 1];
    std::string_view type = ts_node_type(p);
    if (Transparent(type, &lone)) continue;
    if (type == "attribute") return FieldIs(p, "object", n) ? NameUse::kRead : NameUse::kNotAName;
    if (type == "keyword_argument") {
      return FieldIs(p, "name", n) ? NameUse::kNotAName : NameUse::kRead;
    }
    if (type == "assignment") {
      if (!FieldIs(p, "left", n)) {
        // The value of `A = B = v` is itself an assignment: B is a target.
        if (FieldIs(p, "right", n) && !Is(n, "assignment")) return NameUse::kRead;
        if (FieldIs(p, "type", n)) return NameUse::kRead;
        return NameUse::kUnknown;
      }
      TSNode right = Field(p, "right");  // none in `NAME: T`
      bool chained = (!ts_node_is_null(right) && Is(right, "assignment")) ||
                     (i >= 2 && Is(path[i - 2], "assignment") && FieldIs(path[i - 2], "right", p));
      return lone && !chained ? NameUse::kAssign : NameUse::kRebind;
    }
    if (type == "augmented_assignment" || type == "for_statement") {
      return FieldIs(p, "left", n) ? NameUse::kRebind : NameUse::kRead;
    }
    if (type == "for_in_clause") {
      return FieldIs(p, "left", n) ? NameUse::kComprehend : NameUse::kRead;
    }
    if (type == "named_expression") {
      return FieldIs(p, "name", n) ? NameUse::kRebind : NameUse::kRead;
    }
    if (type == "as_pattern_target" || type == "case_pattern") return NameUse::kRebind;
    if (type == "type") {
      if (i >= 2 && Is(path[i - 2], "type_alias_statement") && FieldIs(path[i - 2], "left", p)) {
        return NameUse::kRebind;
      }
      return NameUse::kRead;
    }
    if (type == "type_alias_statement") return NameUse::kRead;  // its left is a `type`
    if (type == "dotted_name") {
      // In an import; elsewhere (a case pattern's capture or value) the
      // construct around it says.
      NameUse in_import = i >= 2 ? InDottedName(n, p, path[i - 2]) : NameUse::kUnknown;
      if (in_import != NameUse::kUnknown) return in_import;
      lone = false;
      continue;
    }
    if (type == "aliased_import") {
      return FieldIs(p, "alias", n) ? NameUse::kImport : NameUse::kNotAName;
    }
    if (type == "function_definition" || type == "class_definition") {
      return FieldIs(p, "name", n) ? NameUse::kDefine : NameUse::kUnknown;
    }
    if (type == "parameters" || type == "lambda_parameters" || type == "typed_parameter") {
      return NameUse::kParameter;  // a name, `*args` or `**kw` (an annotation is a `type`)
    }
    if (type == "default_parameter" || type == "typed_default_parameter") {
      return FieldIs(p, "name", n) ? NameUse::kParameter : NameUse::kRead;
    }
    if (type == "global_statement" || type == "nonlocal_statement") return NameUse::kDeclare;
    if (type == "delete_statement") return NameUse::kDelete;
    if (Reads(type)) return NameUse::kRead;
    return NameUse::kUnknown;
  }
  return NameUse::kUnknown;
}

bool NamesAttribute(const std::vector<TSNode>& path) {
  return path.size() >= 2 && Is(path[path.size() - 2], "attribute") &&
         FieldIs(path[path.size() - 2], "attribute", path.back());
}

void ForEachNamedPath(TSNode root, const std::function<void(const std::vector<TSNode>&)>& visit) {
  std::vector<TSNode> path;
  TSTreeCursor c = ts_tree_cursor_new(root);
  std::size_t depth = 0;  // of the cursor's node below root
  for (;;) {
    TSNode n = ts_tree_cursor_current_node(&c);
    path.resize(depth);
    path.push_back(n);
    // Unnamed nodes are tokens, which hold no nodes: every node of the
    // path above `n` is named.
    if (ts_node_is_named(n)) visit(path);
    if (ts_tree_cursor_goto_first_child(&c)) {
      ++depth;
      continue;
    }
    while (!ts_tree_cursor_goto_next_sibling(&c)) {
      if (depth == 0 || !ts_tree_cursor_goto_parent(&c)) {
        ts_tree_cursor_delete(&c);
        return;
      }
      --depth;
    }
  }
}

bool NamespaceWide(const SyntaxTree& tree, const std::vector<TSNode>& path) {
  if (path.empty()) return false;
  TSNode n = path.back();
  TSNode parent = path.size() >= 2 ? path[path.size() - 2] : TSNode{};
  if (Is(n, "wildcard_import")) return true;
  if (Is(n, "identifier")) {
    std::string_view name = TextOf(tree, n);
    if ((name == "globals" || name == "vars" || name == "locals" || name == "exec" ||
         name == "eval") &&
        UseOf(path) == NameUse::kRead) {
      // A function's locals() is a snapshot of its own names; exec and eval
      // there may still run `global X` or call globals().
      bool in_function = false;
      for (TSNode p : path)
        in_function = in_function || Is(p, "function_definition") || Is(p, "lambda");
      return name != "locals" || !in_function;
    }
    // `import_module(__name__)`, `__import__(__name__)`: the module itself.
    if (name == "__name__" && path.size() >= 3 && Is(parent, "argument_list") &&
        Is(path[path.size() - 3], "call")) {
      TSNode function = Field(path[path.size() - 3], "function");
      std::string_view f = ts_node_is_null(function) ? "" : TextOf(tree, function);
      constexpr std::string_view kDotted = ".import_module";
      if (f == "import_module" || f == "__import__" ||
          (f.size() > kDotted.size() && f.substr(f.size() - kDotted.size()) == kDotted)) {
        return true;
      }
    }
    return false;
  }
  if (Is(n, "attribute")) {
    TSNode attr = Field(n, "attribute");
    if (ts_node_is_null(attr)) return false;
    std::string_view a = TextOf(tree, attr);
    if (a == "__dict__") return true;
    TSNode object = Field(n, "object");
    return a == "modules" && ((!ts_node_is_null(object) && TextOf(tree, object) == "sys") ||
                              (!ts_node_is_null(parent) && Is(parent, "subscript")));
  }
  return false;
}

const char* Describe(NameUse u) {
  switch (u) {
    case NameUse::kRead:
      return "reads it";
    case NameUse::kAssign:
      return "assigns it";
    case NameUse::kRebind:
      return "binds it again";
    case NameUse::kComprehend:
      return "binds it in a comprehension";
    case NameUse::kDelete:
      return "deletes it";
    case NameUse::kDeclare:
      return "declares it global or nonlocal";
    case NameUse::kDefine:
      return "defines it";
    case NameUse::kImport:
      return "imports it";
    case NameUse::kParameter:
      return "binds it as a parameter";
    case NameUse::kNotAName:
      return "names no variable";
    case NameUse::kUnknown:
      break;
  }
  return "may bind it (a construct muhpatch does not model)";
}

}  // namespace muh
