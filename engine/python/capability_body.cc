#include "engine/python/capability_body.h"

#include <algorithm>
#include <iterator>
#include <set>
#include <vector>

#include "engine/base/text.h"
#include "engine/python/syntax_tree.h"
#include "engine/python/ts_nodes.h"

namespace muh {

namespace {

// Kinds of node that compute nothing of their own.
constexpr std::string_view kKinds[] = {
    "block",
    "expression_statement",
    "assignment",
    "return_statement",
    "if_statement",
    "elif_clause",
    "else_clause",
    "comparison_operator",
    "binary_operator",
    "boolean_operator",
    "not_operator",
    "parenthesized_expression",
    "conditional_expression",
    "tuple",
    "expression_list",
    "pattern_list",
    "tuple_pattern",
    "list_splat_pattern",
    "call",
    "argument_list",
    "keyword_argument",
    "subscript",
    "attribute",
    "identifier",
    "string",
    "string_start",
    "string_content",
    "string_end",
    "none",
    "true",
    "false",
    "integer",
    "comment",
};

// Names the body may read besides its parameters and locals.
constexpr std::string_view kNames[] = {
    "torch",
    "pynvml",
    "DeviceCapability",
    "isinstance",
    "int",
    "tuple",
    "get_device_capability",
    "get_physical_device_capability",
    "device_id_to_physical_device_id",
};

// Methods the body may call (`X.name(...)`).
constexpr std::string_view kMethods[] = {
    "get_device_capability",
    "nvmlDeviceGetHandleByIndex",
    "nvmlDeviceGetCudaComputeCapability",
    "to_int",
    "split",
};

// Attributes that are modules on the way to a device query.
constexpr std::string_view kModules[] = {"torch.cuda", "torch.xpu"};

constexpr std::string_view kDecorators[] = {
    "classmethod", "staticmethod",    "lru_cache",         "functools.lru_cache",
    "cache",       "functools.cache", "with_nvml_context",
};

std::string OneLine(std::string_view text) {
  std::string out(text.substr(0, text.find('\n')));
  if (out.size() > 80) out = out.substr(0, 77) + "...";
  return out;
}

std::vector<std::string> ParameterNames(const SyntaxTree& tree, TSNode params) {
  std::vector<std::string> out;
  for (TSNode p : NamedChildren(params)) {
    TSNode name = Is(p, "identifier") ? p : Field(p, "name");
    if (ts_node_is_null(name) || !Is(name, "identifier")) {
      for (TSNode c : NamedChildren(p)) {
        if (Is(c, "identifier")) {
          name = c;
          break;
        }
      }
    }
    if (Is(name, "identifier")) out.emplace_back(TextOf(tree, name));
  }
  return out;
}

}  // namespace

CapabilityBody ReadCapabilityBody(std::string_view def_text) {
  CapabilityBody out;
  // A method's def is indented: read inside a class of our own.
  std::size_t first = def_text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) {
    out.construct = "an empty definition";
    return out;
  }
  std::size_t line_start = def_text.rfind('\n', first);
  line_start = line_start == std::string_view::npos ? 0 : line_start + 1;
  std::string text;
  if (first > line_start) text = "class _:\n";
  text += std::string(def_text);
  PythonParser parser;
  SyntaxTree tree = parser.Parse(text);
  if (tree.HasError()) {
    out.construct = "a definition that does not parse";
    return out;
  }
  // The first function definition, and its decorators.
  TSNode fn{};
  std::vector<TSNode> stack{tree.Root()};
  while (!stack.empty() && ts_node_is_null(fn)) {
    TSNode n = stack.back();
    stack.pop_back();
    if (Is(n, "function_definition")) {
      fn = n;
      break;
    }
    PushNamedChildren(n, &stack);
  }
  if (ts_node_is_null(fn)) {
    out.construct = "no function definition";
    return out;
  }
  TSNode parent = ts_node_parent(fn);
  if (Is(parent, "decorated_definition")) {
    for (TSNode d : NamedChildren(parent)) {
      if (!Is(d, "decorator")) continue;
      TSNode e = ts_node_named_child(d, 0);
      if (Is(e, "call")) e = Field(e, "function");
      if (!OneOf(TextOf(tree, e), kDecorators)) {
        out.construct = OneLine(TextOf(tree, d));
        return out;
      }
    }
  }
  // A parameter's default is an answer too (`bi100=(9, 0)`): only a
  // device number or None.
  for (TSNode p : NamedChildren(Field(fn, "parameters"))) {
    TSNode value = Field(p, "value");
    if (ts_node_is_null(value)) continue;
    std::string_view v = TextOf(tree, value);
    if (v != "0" && v != "None") {
      out.construct = OneLine(TextOf(tree, p));
      return out;
    }
  }
  std::vector<std::string> params = ParameterNames(tree, Field(fn, "parameters"));
  std::set<std::string> known(params.begin(), params.end());
  TSNode body = Field(fn, "body");
  // The names the body binds.
  std::vector<TSNode> walk{body};
  while (!walk.empty()) {
    TSNode n = walk.back();
    walk.pop_back();
    if (Is(n, "assignment")) {
      for (TSNode id : TargetIdentifiers(Field(n, "left"))) known.emplace(TextOf(tree, id));
    }
    PushNamedChildren(n, &walk);
  }
  walk.assign(1, body);
  while (!walk.empty()) {
    TSNode n = walk.back();
    walk.pop_back();
    std::string_view kind = ts_node_type(n);
    TSNode up = ts_node_parent(n);
    bool fine = OneOf(kind, kKinds);
    if (fine && kind == "identifier") {
      std::string name(TextOf(tree, n));
      bool field = (Is(up, "attribute") && FieldIs(up, "attribute", n)) ||
                   (Is(up, "keyword_argument") && FieldIs(up, "name", n));
      // A callee must be one of the known calls, not a name bound in the body.
      bool callee = Is(up, "call") && FieldIs(up, "function", n);
      fine =
          field || (callee ? OneOf(name, kNames) : known.count(name) != 0 || OneOf(name, kNames));
    } else if (fine && kind == "attribute") {
      std::string_view whole = TextOf(tree, n);
      bool callee = Is(up, "call") && FieldIs(up, "function", n);
      fine = OneOf(whole, kModules) ||
             (callee && OneOf(TextOf(tree, Field(n, "attribute")), kMethods));
    } else if (fine && kind == "string" && !Is(up, "expression_statement")) {
      // Only xpu's `['version']` and `.split('.')`: a string may spell a
      // number (`int("9.0".split(".")[0])`).
      std::string_view v = TextOf(tree, n);
      fine = v == "'version'" || v == "\"version\"" || v == "'.'" || v == "\".\"";
    } else if (fine && kind == "integer") {
      fine = TextOf(tree, n) == "10";
    } else if (fine && kind == "call") {
      TSNode f = Field(n, "function");
      fine = Is(f, "identifier") || Is(f, "attribute");
    }
    if (!fine) {
      out.construct = OneLine(TextOf(tree, n));
      return out;
    }
    PushNamedChildren(n, &walk);
  }
  out.from_device = true;
  return out;
}

}  // namespace muh
