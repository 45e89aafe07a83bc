#include "engine/python/name_use.h"

#include <cstring>
#include <string_view>

#include "engine/python/ts_nodes.h"

namespace muh {

bool InAnnotation(const std::vector<TSNode>& path) {
  for (std::size_t i = path.size(); i-- > 1;) {
    if (Is(path[i], "type")) return true;
    if (Is(path[i - 1], "function_definition") && FieldIs(path[i - 1], "return_type", path[i])) {
      return true;
    }
  }
  return false;
}

namespace {

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

// Calls visit(depth, node, field) for every node under `root` (itself at
// depth 0), in document order, by one cursor: no stack of its own however
// deep a hostile file nests.
void CursorWalk(TSNode root, const std::function<void(std::size_t, TSNode, const char*)>& visit) {
  TSTreeCursor c = ts_tree_cursor_new(root);
  std::size_t depth = 0;  // of the cursor's node below root
  for (;;) {
    visit(depth, ts_tree_cursor_current_node(&c), ts_tree_cursor_current_field_name(&c));
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

}  // namespace

namespace {

bool Spans(TSNode n, std::uint32_t begin, std::uint32_t end) {
  return ts_node_start_byte(n) <= begin && ts_node_end_byte(n) >= end &&
         ts_node_end_byte(n) > begin;
}

}  // namespace

PathFinder::PathFinder(TSNode root) : cursor_(ts_tree_cursor_new(root)), stack_{root} {}

PathFinder::~PathFinder() { ts_tree_cursor_delete(&cursor_); }

std::vector<TSNode> PathFinder::PathTo(std::uint32_t begin, std::uint32_t end) {
  bool descend = true;
  if (begin < last_begin_) {
    ts_tree_cursor_reset(&cursor_, stack_.front());
    stack_.resize(1);
  } else {
    // Up from the last answer to the first node that spans the range. A
    // later sibling may: an earlier one ends before the last range began.
    // A parent reached from its last child spans it only across children
    // (none holds it alone), and is the answer's deepest node.
    while (stack_.size() > 1 && !Spans(stack_.back(), begin, end)) {
      if (ts_tree_cursor_goto_next_sibling(&cursor_)) {
        stack_.back() = ts_tree_cursor_current_node(&cursor_);
        descend = true;
        continue;
      }
      ts_tree_cursor_goto_parent(&cursor_);
      stack_.pop_back();
      descend = false;
    }
  }
  last_begin_ = begin;
  // Down to the first child that spans the range, while one does.
  while (descend && ts_tree_cursor_goto_first_child(&cursor_)) {
    descend = false;
    do {
      TSNode next = ts_tree_cursor_current_node(&cursor_);
      if (Spans(next, begin, end)) {
        stack_.push_back(next);
        descend = true;
        break;
      }
    } while (ts_tree_cursor_goto_next_sibling(&cursor_));
    if (!descend) ts_tree_cursor_goto_parent(&cursor_);
  }
  // Unnamed tokens (`(`, `.`) are not the node asked for; the smallest
  // named node spanning the range exactly is.
  std::vector<TSNode> out{stack_.front()};
  for (std::size_t i = 1; i < stack_.size(); ++i) {
    if (ts_node_is_named(stack_[i])) out.push_back(stack_[i]);
  }
  while (out.size() > 1 &&
         (ts_node_start_byte(out.back()) != begin || ts_node_end_byte(out.back()) != end)) {
    out.pop_back();
  }
  return out;
}

std::vector<TSNode> PathTo(TSNode root, std::uint32_t begin, std::uint32_t end) {
  return PathFinder(root).PathTo(begin, end);
}

NameUse UseOf(const std::vector<TSNode>& path) {
  if (path.size() < 2) return NameUse::kUnknown;
  std::size_t i = path.size() - 1;
  bool lone = true;
  for (int steps = 0; steps < 64 && i > 0; ++steps, --i) {
    TSNode n = path[i];
    TSNode p = path[i - 1];
    std::string_view type = ts_node_type(p);
    // `P(name=pattern)`: the keyword names an attribute.
    if (type == "keyword_pattern" && ts_node_eq(ts_node_named_child(p, 0), n)) {
      return NameUse::kNotAName;
    }
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
      // In a pattern, `A.B` is a value (A read), and so is a class's name
      // (`P(...)`) and a mapping's key: only a lone name elsewhere captures.
      bool first = ts_node_eq(ts_node_named_child(p, 0), n);
      if (ts_node_named_child_count(p) > 1) return first ? NameUse::kRead : NameUse::kNotAName;
      if (i >= 2 && ((Is(path[i - 2], "class_pattern") &&
                      ts_node_eq(ts_node_named_child(path[i - 2], 0), p)) ||
                     (Is(path[i - 2], "dict_pattern") && FieldIs(path[i - 2], "key", p)))) {
        return NameUse::kRead;
      }
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
  CursorWalk(root, [&](std::size_t depth, TSNode n, const char*) {
    path.resize(depth);
    path.push_back(n);
    // Unnamed nodes are tokens, which hold no nodes: every node of the
    // path above `n` is named.
    if (ts_node_is_named(n)) visit(path);
  });
}

namespace {

// Whose namespace a node's names bind in, as ForEachScopeBinding walks.
enum class Owner : std::uint8_t {
  kOwn,            // the scope's
  kComprehension,  // a comprehension of the scope's (`:=` binds in the scope)
  kOuter,          // the scope's own name, decorators, defaults: the enclosing one's
  kNested,         // a def, lambda or class inside the scope
};

bool IsComprehensionNode(TSNode n) {
  return Is(n, "list_comprehension") || Is(n, "set_comprehension") ||
         Is(n, "dictionary_comprehension") || Is(n, "generator_expression");
}

bool IsParameterHolder(TSNode n) {
  return Is(n, "default_parameter") || Is(n, "typed_default_parameter") || Is(n, "typed_parameter");
}

// The owner of `child` (held in `field` of path[i]), from the owners of
// path[0..i].
Owner OwnerOf(const std::vector<TSNode>& path, const std::vector<Owner>& owner, std::size_t i,
              TSNode child, const char* field) {
  TSNode p = path[i];
  Owner at = owner[i];
  auto in = [&](const char* name) { return field != nullptr && std::strcmp(field, name) == 0; };
  bool root = i == 0;
  if (Is(p, "function_definition") || Is(p, "lambda") || Is(p, "class_definition")) {
    bool inside = in("body") || (!Is(p, "class_definition") && in("parameters"));
    if (!inside) return root ? Owner::kOuter : at;
    return root ? Owner::kOwn : Owner::kNested;
  }
  // A parameter's default and annotation are computed where the def stands.
  if (IsParameterHolder(p) && (in("value") || in("type")) && i >= 2) {
    return i == 2 ? Owner::kOuter : owner[i - 2];
  }
  if (IsComprehensionNode(p)) {
    return at == Owner::kOwn ? Owner::kComprehension : at;
  }
  // A comprehension's first iterable is computed outside it.
  if (Is(p, "for_in_clause") && in("right") && i >= 1 && IsComprehensionNode(path[i - 1])) {
    TSNode first{};
    for (uint32_t k = 0; k < ts_node_named_child_count(path[i - 1]); ++k) {
      TSNode c = ts_node_named_child(path[i - 1], k);
      if (Is(c, "for_in_clause")) {
        first = c;
        break;
      }
    }
    if (!ts_node_is_null(first) && ts_node_eq(first, p)) return owner[i - 1];
  }
  (void)child;
  return at;
}

}  // namespace

void ForEachScopeBinding(TSNode scope,
                         const std::function<void(const std::vector<TSNode>&, NameUse)>& visit) {
  std::vector<TSNode> path;
  std::vector<Owner> owner;
  CursorWalk(scope, [&](std::size_t depth, TSNode n, const char* field) {
    path.resize(depth);
    owner.resize(depth);
    Owner o = depth == 0 ? Owner::kOwn : OwnerOf(path, owner, depth - 1, n, field);
    path.push_back(n);
    owner.push_back(o);
    if (depth == 0 || !Is(n, "identifier") || o == Owner::kOuter) return;
    NameUse use = UseOf(path);
    bool walrus = path.size() >= 2 && Is(path[path.size() - 2], "named_expression");
    bool counts = false;
    if (o == Owner::kOwn) {
      counts = Binds(use) && use != NameUse::kComprehend;
    } else if (o == Owner::kComprehension) {
      counts = (use == NameUse::kRebind && walrus) || use == NameUse::kUnknown;
    } else {
      counts = use == NameUse::kDeclare;
    }
    if (counts) visit(path, use);
  });
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
