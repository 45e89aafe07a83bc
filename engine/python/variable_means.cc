#include "engine/python/variable_means.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <string_view>
#include <vector>

#include "engine/python/ts_nodes.h"
#include "engine/python/wrap_safety.h"

namespace muh {

namespace {

// `s` without blanks and line continuations: `M  *  topk` is `M*topk`.
std::string Compact(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (!std::isspace(static_cast<unsigned char>(c)) && c != '\\') out += c;
  }
  return out;
}

// The line of a `nonlocal NAME` in a scope nested in `function`, or 0.
int NonlocalLine(const SyntaxTree& tree, TSNode function, const std::string& name) {
  std::vector<TSNode> stack{Field(function, "body")};
  while (!stack.empty()) {
    TSNode n = stack.back();
    stack.pop_back();
    if (ts_node_is_null(n)) continue;
    if (Is(n, "nonlocal_statement")) {
      for (TSNode c : NamedChildren(n)) {
        if (TextOf(tree, c) == name) return static_cast<int>(ts_node_start_point(n).row) + 1;
      }
    }
    PushNamedChildren(n, &stack);
  }
  return 0;
}

bool Reads(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

}  // namespace

std::string WhyNotMeans(const SyntaxTree& tree, TSNode function, std::size_t at,
                        const std::string& variable, const std::string& means) {
  std::string fn(TextOf(tree, Field(function, "name")));
  std::vector<std::string> params = ParameterNames(tree, function);
  std::string want = Compact(means);
  std::vector<Rebinding> bindings = BindingsOf(tree, function, {variable});
  // A nested scope's `nonlocal` of the variable rebinds it unseen.
  if (int line = NonlocalLine(tree, function, variable)) {
    return fmt::format("line {} declares `nonlocal {}` in a nested scope", line, variable);
  }
  if (want == variable) {  // the parameter itself, as passed
    if (!Reads(params, variable)) return fmt::format("`{}` is no parameter of {}", variable, fn);
    for (const Rebinding& b : bindings) {
      if (b.at < at) return fmt::format("line {} binds the parameter `{}` again", b.line, variable);
    }
    return "";
  }
  if (bindings.empty() || Reads(params, variable)) {
    return fmt::format("{} does not assign `{}` once from `{}`", fn, variable, means);
  }
  if (bindings.size() > 1) {
    return fmt::format("{} binds `{}` {} times (lines {} and {}): no one value of it", fn, variable,
                       bindings.size(), bindings[0].line, bindings[1].line);
  }
  const Rebinding& b = bindings.front();
  TSNode name = ts_node_descendant_for_byte_range(function, static_cast<uint32_t>(b.at),
                                                  static_cast<uint32_t>(b.at + variable.size()));
  TSNode assignment = ts_node_parent(name);
  TSNode statement = ts_node_parent(assignment);
  TSNode right = Field(assignment, "right");
  if (!Is(assignment, "assignment") || !ts_node_eq(Field(assignment, "left"), name) ||
      ts_node_is_null(right) || Is(right, "assignment") || !Is(statement, "expression_statement") ||
      !ts_node_eq(ts_node_parent(statement), Field(function, "body"))) {
    return fmt::format("line {} binds `{}` otherwise than by `{} = {}` in {}'s own body", b.line,
                       variable, variable, means, fn);
  }
  if (b.at >= at) return fmt::format("line {} assigns `{}` only after the chain", b.line, variable);
  right = Unwrapped(right);
  std::string got = Compact(TextOf(tree, right));
  bool same = got == want;
  if (!same && Is(right, "binary_operator")) {
    std::string op = Compact(TextOf(tree, Field(right, "operator")));
    if (op == "*" || op == "+") {
      same = Compact(TextOf(tree, Field(right, "right"))) + op +
                 Compact(TextOf(tree, Field(right, "left"))) ==
             want;
    }
  }
  if (!same) {
    return fmt::format("`{}` is `{}` here (line {}), not `{}`", variable, TextOf(tree, right),
                       b.line, means);
  }
  std::vector<std::string> read = NamesRead(tree, right);
  for (const std::string& r : read) {
    if (!Reads(params, r)) {
      return fmt::format("`{}`, which `{}` reads at line {}, is no parameter of {}", r, variable,
                         b.line, fn);
    }
  }
  // A nested scope's `nonlocal` of a name it reads (a helper called
  // before it is computed) rebinds that name unseen.
  for (const std::string& r : read) {
    if (int line = NonlocalLine(tree, function, r)) {
      return fmt::format("line {} declares `nonlocal {}` in a nested scope", line, r);
    }
  }
  for (const Rebinding& r : BindingsOf(tree, function, read)) {
    if (r.at < ts_node_start_byte(statement)) {
      return fmt::format("line {} binds `{}` before line {} computes `{}` from it", r.line, r.name,
                         b.line, variable);
    }
  }
  return "";
}

}  // namespace muh
