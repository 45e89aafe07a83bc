#include "engine/python/later_transforms.h"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string_view>

#include "engine/base/text.h"
#include "engine/python/name_use.h"
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

// The text of an expression as Normal gives it, but for one blank kept
// between two word characters (`use_v1 or x`): Normal's `use_v1orx` would
// hide a read of `use_v1` from Reads.
std::string Spaced(std::string_view t) {
  auto word = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  };
  std::string out;
  bool blank = false;
  for (char c : t) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\') {
      blank = true;
      continue;
    }
    if (blank && !out.empty() && word(out.back()) && word(c)) out.push_back(' ');
    blank = false;
    out.push_back(c == '"' ? '\'' : c);
  }
  return out;
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
  // `x >> n` is `x // 2**n` and `x << n` is `x * 2**n` for every Python int:
  // one key, so that a domain's `// 2` accounts for `BLOCK >>= 1` too (a
  // helper probe of d751784: the halving was counted twice, and refused).
  if (operand && *operand >= 0 && *operand < 62 && (op == ">>" || op == "<<")) {
    return std::string(op == ">>" ? "//" : "*") + " " + std::to_string(int64_t{1} << *operand);
  }
  return op + " " + (operand ? std::to_string(*operand) : std::string("?"));
}

std::optional<int64_t> SelfTransform::Apply(int64_t x) const {
  if (!operand || repeats) return std::nullopt;
  int64_t c = *operand;
  int64_t out = 0;
  if (op == "=") {
    out = c;  // bound anew
  } else if (op == "*") {
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

// The statement that holds the last node of `path` (root first): the node
// below the nearest block or module.
TSNode StatementOf(const std::vector<TSNode>& path) {
  for (std::size_t i = path.size() - 1; i > 0; --i) {
    if (Is(path[i - 1], "block") || Is(path[i - 1], "module")) return path[i];
  }
  return path.back();
}

// Whether the value at path[i] is only tested: an operand of a comparison
// or a boolean test.
bool Tested(const std::vector<TSNode>& path, std::size_t i) {
  if (i == 0) return false;
  TSNode p = path[i - 1];
  return Is(p, "comparison_operator") || Is(p, "boolean_operator") || Is(p, "not_operator") ||
         ((Is(p, "if_statement") || Is(p, "elif_clause") || Is(p, "while_statement")) &&
          ts_node_eq(Field(p, "condition"), path[i]));
}

// The value of the string literal `n` as a dict key: its text without
// prefix and quotes; nullopt where that is not its value (an f-string
// with a field, an escape sequence). A bytes literal is never a str key:
// it gets a value no str key has.
std::optional<std::string> KeyValue(const SyntaxTree& tree, TSNode n) {
  if (!Is(n, "string")) return std::nullopt;
  std::string_view t = TextOf(tree, n);
  std::size_t q = 0;
  bool raw = false;
  bool formatted = false;
  bool bytes = false;
  while (q < t.size() && t[q] != '\'' && t[q] != '"') {
    char c = static_cast<char>(std::tolower(static_cast<unsigned char>(t[q])));
    raw = raw || c == 'r';
    formatted = formatted || c == 'f';
    bytes = bytes || c == 'b';
    ++q;
  }
  std::string_view body = t.substr(q);
  bool triple = body.size() >= 6 && body[0] == body[1] && body[1] == body[2];
  std::size_t quote = triple ? 3 : 1;
  if (body.size() < 2 * quote) return std::nullopt;
  body = body.substr(quote, body.size() - 2 * quote);
  if (formatted && body.find('{') != std::string_view::npos) return std::nullopt;
  if (!raw && body.find('\\') != std::string_view::npos) return std::nullopt;
  if (bytes) return "\x01bytes:" + std::string(body);
  return std::string(body);
}

// Whether the string literal `n` is the key `key` (a literal's text,
// normalized): true or false where its value is known, nullopt otherwise.
std::optional<bool> IsKeyText(const SyntaxTree& tree, TSNode n, const std::string& key) {
  std::optional<std::string> v = KeyValue(tree, n);
  if (!v) return std::nullopt;
  std::string want = key.size() >= 2 ? key.substr(1, key.size() - 2) : key;
  return *v == want;
}

bool IsExpressionStep(TSNode n) {
  return Is(n, "binary_operator") || Is(n, "unary_operator") || Is(n, "parenthesized_expression") ||
         Is(n, "conditional_expression") || Is(n, "call") || Is(n, "argument_list") ||
         Is(n, "subscript") || Is(n, "tuple") || Is(n, "list") || Is(n, "attribute");
}

// Whether decorator `d` is functools' lru_cache or cache (`@functools.
// lru_cache(maxsize=None)`, `@cache` imported from functools): the
// function then returns what its body returns, the same object each time.
bool MemoizesOnly(const SyntaxTree& tree, TSNode d) {
  std::string text = Normal(TextOf(tree, d));
  if (!text.empty() && text[0] == '@') text.erase(0, 1);
  std::size_t paren = text.find('(');
  std::string fn = text.substr(0, paren);
  if (fn == "functools.lru_cache" || fn == "functools.cache") return true;
  if (fn != "lru_cache" && fn != "cache") return false;
  // The bare name must be functools' in this file.
  std::string_view src = tree.bytes();
  for (std::size_t at = src.find("from functools import"); at != std::string_view::npos;
       at = src.find("from functools import", at + 1)) {
    std::size_t eol = src.find('\n', at);
    std::string_view names = src.substr(at, eol == std::string_view::npos ? eol : eol - at);
    for (std::size_t i = names.find(fn); i != std::string_view::npos; i = names.find(fn, i + 1)) {
      bool left = !IsWordChar(names[i - 1]);
      std::size_t e = i + fn.size();
      bool right = e >= names.size() || !IsWordChar(names[e]);
      if (left && right && names.substr(e).find(" as ") != 0) return true;
    }
  }
  return false;
}

// How one later use of the value goes on (Follow).
enum class Onward {
  kFollowed,  // passed on as it is, tested, read as another key: the kernel gets it as checked
  kAlias,     // `Y = <the value>`: Y is followed in its place
  kCallee,    // the dict passed whole to a call: the callee is followed, or it is unknown
  kDerived,   // `Y = <computed from the value>`: Y's uses are followed as computed ones
  kUnknown,   // a change muhpatch does not evaluate
};

using OnwardFn = std::function<bool(Onward, const std::vector<TSNode>&)>;

// Where a value computed from the knob (`BLOCK // 2`, `int(BLOCK / 4)`,
// `block_m - 1`, `[BLOCK]`) goes, through the expressions, argument lists
// and calls that hold it: into a keyword argument (`BLOCK_M=int(BLOCK /
// 4)`), a `:=`, or a store into a container or attribute, it is a change
// the kernel may get (kUnknown); bound to a name, that name's uses are
// followed the same way (`onward` kDerived); in a statement of its own, a
// test or a return, it is taken for a size or a count (muhpatch-rules(5):
// Triton launches take tile sizes by keyword).
// The names an assignment's target binds when it is a name or a flat
// tuple of names (`a, b = ...`, `(a, b) = ...`); empty for anything else.
std::vector<TSNode> TargetNames(TSNode left) {
  if (Is(left, "identifier")) return {left};
  if (!Is(left, "pattern_list") && !Is(left, "tuple_pattern")) return {};
  std::vector<TSNode> names = NamedChildren(left);
  for (TSNode n : names) {
    if (!Is(n, "identifier")) return {};
  }
  return names;
}

Onward Derived(const std::vector<TSNode>& path, std::size_t i, const OnwardFn& onward) {
  while (i > 0 && IsExpressionStep(path[i - 1])) --i;
  if (i == 0) return Onward::kUnknown;
  TSNode p = path[i - 1];
  if (Is(p, "keyword_argument") || Is(p, "named_expression")) return Onward::kUnknown;
  if ((Is(p, "assignment") || Is(p, "augmented_assignment")) &&
      ts_node_eq(Field(p, "right"), path[i])) {
    // `a, b = f(BLOCK)`: each name holds a value computed from it.
    if (TargetNames(Field(p, "left")).empty()) return Onward::kUnknown;
    std::vector<TSNode> at(path.begin(), path.begin() + static_cast<std::ptrdiff_t>(i));
    return onward(Onward::kDerived, at) ? Onward::kFollowed : Onward::kUnknown;
  }
  // Closed world: a statement of its own, a return or a test ends it;
  // anything else (a dict or set display, a splat, a comprehension, an
  // f-string, a loop's iterable, a lambda) may carry it on unseen (a
  // helper probe of 3cee5a3: `**{'BLOCK_M': BLOCK // 4}` gave the kernel 8).
  if (Is(p, "expression_statement") || Is(p, "return_statement") || Tested(path, i) ||
      Is(p, "assert_statement")) {
    return Onward::kFollowed;
  }
  return Onward::kUnknown;
}

// Calls that only read a dict passed to them whole: printing, logging,
// its length, a type test.
bool ReadsOnly(const SyntaxTree& tree, TSNode call) {
  TSNode fn = Field(call, "function");
  std::string_view name = TextOf(tree, Is(fn, "attribute") ? Field(fn, "attribute") : fn);
  static constexpr std::string_view kPlain[] = {"str", "repr", "len",  "print", "isinstance",
                                                "id",  "type", "hash", "bool",  "format"};
  static constexpr std::string_view kLogging[] = {"debug",     "info",     "warning", "error",
                                                  "exception", "critical", "log"};
  if (Is(fn, "identifier")) {
    return std::find(std::begin(kPlain), std::end(kPlain), name) != std::end(kPlain);
  }
  return Is(fn, "attribute") &&
         std::find(std::begin(kLogging), std::end(kLogging), name) != std::end(kLogging);
}

// Whether a def, lambda or class stands between the scope walked (path[0])
// and the last node of `path`: code there runs when called, not in place.
bool NestedScopeOnPath(const std::vector<TSNode>& path) {
  for (std::size_t j = 1; j + 1 < path.size(); ++j) {
    if (Is(path[j], "function_definition") || Is(path[j], "lambda") ||
        Is(path[j], "class_definition")) {
      return true;
    }
  }
  return false;
}

// Whether `call` calls a function of vllm._custom_ops, the kernels'
// bindings (`ops.invoke_fused_moe_kernel(..., config, ...)`): what it is
// passed is what the kernel gets (a stated assumption, muhpatch-rules(5):
// the gate reads one file, and that module wraps the kernels' entry
// points). Only through a name that the file binds once, by `from vllm
// import _custom_ops as NAME` or `import vllm._custom_ops as NAME`.
// The names the file binds once, by a module-level `from vllm import
// _custom_ops as NAME` or `import vllm._custom_ops as NAME`: one walk.
std::set<std::string> KernelBindingNames(const SyntaxTree& tree) {
  std::map<std::string, int> bindings;
  std::set<std::string> imported;
  ForEachNamedPath(tree.Root(), [&](const std::vector<TSNode>& path) {
    TSNode n = path.back();
    if (!Is(n, "identifier")) return;
    NameUse use = UseOf(path);
    if (use == NameUse::kRead || use == NameUse::kNotAName) return;
    std::string name(TextOf(tree, n));
    ++bindings[name];
    TSNode aliased = path.size() >= 2 ? path[path.size() - 2] : TSNode{};
    TSNode stmt = path.size() >= 3 ? path[path.size() - 3] : TSNode{};
    if (use != NameUse::kImport || !Is(aliased, "aliased_import") ||
        !FieldIs(aliased, "alias", n) || path.size() != 4) {
      return;
    }
    std::string_view from = TextOf(tree, Field(aliased, "name"));
    if ((Is(stmt, "import_from_statement") && TextOf(tree, Field(stmt, "module_name")) == "vllm" &&
         from == "_custom_ops") ||
        (Is(stmt, "import_statement") && from == "vllm._custom_ops")) {
      imported.insert(name);
    }
  });
  std::set<std::string> out;
  for (const std::string& name : imported) {
    if (bindings[name] == 1) out.insert(name);
  }
  return out;
}

// What one gate evaluation has done: each (statement, target) collected
// and each function's callers searched once, within a budget of steps (a
// reviewer of 7a8534e: callers m wide and 5 deep took m^5 tree walks); the
// kernel bindings' names, found once.
struct GateWork {
  int steps = 2000;
  std::set<std::pair<std::uint32_t, std::string>> collected;
  std::set<std::pair<std::uint32_t, std::string>> callers;
  std::optional<std::set<std::string>> kernel_names;
};

bool KernelBinding(const SyntaxTree& tree, TSNode call, GateWork* work) {
  TSNode fn = Field(call, "function");
  if (!Is(fn, "attribute") || !Is(Field(fn, "object"), "identifier")) return false;
  if (!work->kernel_names) work->kernel_names = KernelBindingNames(tree);
  return work->kernel_names->count(std::string(TextOf(tree, Field(fn, "object")))) != 0;
}

// Closed world for the value's later life in its function: each later use
// of the variable (`BLOCK`; for a key, the dict `config`) that `handled`
// (a self-transform, a merge: Collect reads those) does not hold is one of
// Onward's: see there. `onward(kind, path)` is told of aliases and
// callees; every kUnknown use's statement becomes a transform the gate
// cannot evaluate.
void Follow(const SyntaxTree& tree, TSNode scope, std::size_t after, const std::string& variable,
            const std::string& key, const std::vector<TSNode>& handled,
            const std::function<bool(TSNode)>& exclusive, const OnwardFn& onward, bool derived,
            std::vector<SelfTransform>* out, GateWork* work) {
  auto inside = [](TSNode n, TSNode outer) {
    return ts_node_start_byte(outer) <= ts_node_start_byte(n) &&
           ts_node_end_byte(n) <= ts_node_end_byte(outer);
  };
  std::vector<TSNode> flagged;
  // Once a statement, named by the line of the use (a launch's
  // `BLOCK_M=int(BLOCK / 4),`, not its first line).
  auto flag = [&](TSNode statement, TSNode use) {
    for (TSNode f : flagged) {
      if (ts_node_eq(f, statement)) return;
    }
    flagged.push_back(statement);
    SelfTransform t = Opaque(tree, statement);
    t.line = static_cast<int>(ts_node_start_point(use).row) + 1;
    t.text = std::string(LineAround(tree.bytes(), ts_node_start_byte(use)));
    out->push_back(std::move(t));
  };
  ForEachNamedPath(scope, [&](const std::vector<TSNode>& path) {
    TSNode n = path.back();
    if (ts_node_start_byte(n) < after || !Is(n, "identifier")) return;
    // Code in a string run where it stands may change anything.
    if (!derived && (TextOf(tree, n) == "exec" || TextOf(tree, n) == "eval") && path.size() >= 2 &&
        Is(path[path.size() - 2], "call")) {
      TSNode st = StatementOf(path);
      if (!exclusive(st)) flag(st, n);
      return;
    }
    if (TextOf(tree, n) != variable) return;
    std::size_t i = path.size() - 1;
    if (i == 0) return;
    for (TSNode h : handled) {
      if (inside(n, h)) return;
    }
    TSNode statement = StatementOf(path);
    if (exclusive(statement)) return;
    TSNode p = path[i - 1];
    // A def, lambda or class between it and the function: run when called.
    bool nested = NestedScopeOnPath(path);
    // The node that stands for the value: the name, or the key's read.
    std::size_t unit = i;
    Onward how = Onward::kUnknown;
    NameUse use = UseOf(path);
    if (nested) {
      how = Onward::kUnknown;
    } else if (derived) {
      // A value computed from the knob: where it goes decides.
      how = Tested(path, i) || Is(p, "return_statement") ? Onward::kFollowed
            : use == NameUse::kRead                      ? Derived(path, i, onward)
                                                         : Onward::kFollowed;  // bound anew
    } else if (!key.empty() && Is(p, "subscript") && ts_node_eq(Field(p, "value"), n)) {
      TSNode k = Field(p, "subscript");
      std::optional<bool> same = IsKeyText(tree, k, key);
      if (same == std::optional<bool>(false)) {
        how = Onward::kFollowed;  // another key, read or written
      } else if (same) {
        unit = i - 1;
        how = UseOf(std::vector<TSNode>(path.begin(), path.end() - 1)) == NameUse::kRead
                  ? Onward::kAlias  // decided below, as the name's
                  : Onward::kUnknown;
      }
    } else if (!key.empty() && Is(p, "attribute") && ts_node_eq(Field(p, "object"), n) && i >= 2 &&
               Is(path[i - 2], "call") && TextOf(tree, Field(p, "attribute")) == "get") {
      TSNode args = Field(path[i - 2], "arguments");
      TSNode first = ts_node_is_null(args) || ts_node_named_child_count(args) == 0
                         ? TSNode{}
                         : ts_node_named_child(args, 0);
      std::optional<bool> same = IsKeyText(tree, first, key);
      if (same == std::optional<bool>(false)) {
        how = Onward::kFollowed;
      } else if (same) {
        unit = i - 2;
        how = Onward::kAlias;  // decided below, as the name's
      }
    } else if (use == NameUse::kAssign && Is(p, "assignment")) {
      // `BLOCK = ...` or `config = ...` anew; one that reads it copies or
      // computes it (`config = {**config, ...}`).
      TSNode right = Field(p, "right");
      how = !Reads(Spaced(TextOf(tree, right)), variable) ? Onward::kFollowed : Onward::kUnknown;
    } else if (use == NameUse::kRead) {
      how = key.empty() ? Onward::kAlias : Onward::kCallee;  // decided below
      if (!key.empty() && Is(p, "return_statement")) how = Onward::kFollowed;
    }
    if (how == Onward::kAlias) {
      // The value itself (a name, or the key's read): passed on whole,
      // tested, bound to another name (followed there), or computed from.
      std::vector<TSNode> at(path.begin(), path.begin() + static_cast<std::ptrdiff_t>(unit) + 1);
      TSNode up = unit > 0 ? path[unit - 1] : TSNode{};
      // Passed whole by keyword (the launch's `BLOCK_M=BLOCK`), tested or
      // returned: as it is. A positional argument: the call's result is a
      // value computed from it (`int(BLOCK)`, `triton.cdiv(n, BLOCK)`).
      bool keyword = Is(up, "keyword_argument") && ts_node_eq(Field(up, "value"), path[unit]);
      // By keyword to a launch (`kernel[grid](BLOCK_M=BLOCK)`): what the
      // kernel gets. To a function of this file: its parameter there,
      // followed. To any other call (`dict(BLOCK_M=BLOCK)`, a helper of
      // another module): not followed (a helper probe of 3cee5a3).
      TSNode call = keyword && unit >= 3 ? path[unit - 3] : TSNode{};
      bool launch = Is(call, "call") &&
                    (Is(Field(call, "function"), "subscript") || KernelBinding(tree, call, work));
      if ((keyword && launch) || Tested(path, unit) || Is(up, "return_statement")) {
        how = Onward::kFollowed;
      } else if (keyword) {
        how = onward(Onward::kCallee, at) ? Onward::kFollowed : Onward::kUnknown;
      } else if (Is(up, "assignment") && ts_node_eq(Field(up, "right"), path[unit]) &&
                 Is(Field(up, "left"), "identifier")) {
        how = onward(Onward::kAlias, at) ? Onward::kFollowed : Onward::kUnknown;
      } else {
        how = Derived(path, unit, onward);
      }
    } else if (how == Onward::kCallee) {
      // The dict itself: returned (above), or passed whole to a call, which
      // may change it (followed into a function of this file); any other
      // use (an alias, a copy, `for k in config`) is not followed.
      TSNode call = Is(p, "argument_list")                ? path[i - 2]
                    : i >= 3 && Is(p, "keyword_argument") ? path[i - 3]
                                                          : TSNode{};
      if (Is(call, "call") && (ReadsOnly(tree, call) || KernelBinding(tree, call, work))) {
        how = Onward::kFollowed;
      } else if (Is(p, "argument_list") ||
                 (Is(p, "keyword_argument") && ts_node_eq(Field(p, "value"), n))) {
        how = onward(Onward::kCallee, path) ? Onward::kFollowed : Onward::kUnknown;
      } else if (Is(p, "assignment") && ts_node_eq(Field(p, "right"), n) &&
                 Is(Field(p, "left"), "identifier")) {
        how = onward(Onward::kAlias, path) ? Onward::kFollowed : Onward::kUnknown;
      } else if (Is(p, "dictionary_splat") && i >= 3 && Is(path[i - 2], "argument_list")) {
        // `kernel[grid](..., **config)`: its keys as they are. Any other
        // callee gets a copy it may change (`_fix(**config)`), or keeps
        // it (`SimpleNamespace(**config)`, then `vars(ns)`): not followed
        // (a helper probe of 3cee5a3).
        TSNode fn = Field(path[i - 3], "function");
        how = Is(fn, "subscript") || ReadsOnly(tree, path[i - 3]) ||
                      KernelBinding(tree, path[i - 3], work)
                  ? Onward::kFollowed
                  : Onward::kUnknown;
      } else {
        how = Onward::kUnknown;
      }
    }
    if (how == Onward::kFollowed) return;
    flag(statement, n);
  });
}

// The parameter of the module-level function `name` of this file that
// takes `arg` (an argument of `args`, or a keyword argument), or nullopt:
// no such function, a `*splat` before it, no such parameter.
std::optional<TSNode> Parameter(const SyntaxTree& tree, std::string_view name, TSNode args,
                                TSNode arg) {
  TSNode def{};
  for (TSNode st : NamedChildren(tree.Root())) {
    TSNode d = Is(st, "decorated_definition") ? Field(st, "definition") : st;
    if (Is(d, "function_definition") && TextOf(tree, Field(d, "name")) == name) def = d;
  }
  if (ts_node_is_null(def) || Is(ts_node_parent(def), "decorated_definition")) return std::nullopt;
  std::vector<TSNode> params;  // the names, in order
  for (TSNode q : NamedChildren(Field(def, "parameters"))) {
    TSNode id = Is(q, "identifier") ? q : Field(q, "name");
    if (Is(q, "typed_parameter")) id = ts_node_named_child(q, 0);
    if (Is(q, "list_splat_pattern") || Is(q, "dictionary_splat_pattern") ||
        Is(q, "keyword_separator") || Is(q, "positional_separator") || !Is(id, "identifier")) {
      params.push_back(TSNode{});
      continue;
    }
    params.push_back(id);
  }
  if (Is(arg, "keyword_argument")) {
    std::string_view want = TextOf(tree, Field(arg, "name"));
    for (TSNode id : params) {
      if (!ts_node_is_null(id) && TextOf(tree, id) == want) return id;
    }
    return std::nullopt;
  }
  std::size_t index = 0;
  for (TSNode a : NamedChildren(args)) {
    if (ts_node_eq(a, arg)) break;
    if (Is(a, "list_splat") || Is(a, "dictionary_splat") || Is(a, "keyword_argument")) {
      return std::nullopt;
    }
    ++index;
  }
  if (index >= params.size() || ts_node_is_null(params[index])) return std::nullopt;
  return params[index];
}

// The transforms of `target` (normalized) after `assignment`, the
// statement that binds it: in the enclosing function, and, where the
// function returns the dict or variable, in each function of the file that
// binds the call's result (`cfg = get_default_config(...)`), `depth` deep.
// How far the value is followed: through aliases, callees, and callers
// (get_default_config, try_get_optimal_moe_config's partial, fused_experts,
// invoke_fused_moe_kernel is four); deeper is a refusal.
constexpr int kMaxFollow = 6;

void Callers(const SyntaxTree& tree, TSNode within, std::string_view fn, const std::string& suffix,
             int depth, std::vector<SelfTransform>* out, GateWork* work,
             TSNode bound_by = TSNode{});

// The module-level function that holds the last node of `path`; null when
// none, or when a def, lambda or class between them makes it another's.
TSNode EnclosingFunction(const std::vector<TSNode>& path) {
  for (std::size_t j = path.size() - 1; j-- > 0;) {
    TSNode a = path[j];
    if (Is(a, "lambda") || Is(a, "class_definition")) return TSNode{};
    if (!Is(a, "function_definition")) continue;
    TSNode holder = j > 0 ? path[j - 1] : TSNode{};
    if (Is(holder, "decorated_definition")) holder = j > 1 ? path[j - 2] : TSNode{};
    return Is(holder, "module") ? a : TSNode{};
  }
  return TSNode{};
}

void Collect(const SyntaxTree& tree, TSNode assignment, const std::string& target, int depth,
             std::vector<SelfTransform>* out, GateWork* work) {
  if (!work->collected.emplace(ts_node_start_byte(assignment), target).second) return;
  if (--work->steps < 0) {
    out->push_back(Opaque(tree, assignment));
    return;
  }
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
                   Reads(Spaced(TextOf(tree, right)), target)) {
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
      std::string r = Spaced(TextOf(tree, right));
      bool through_alias = std::any_of(aliases.begin(), aliases.end(), [&](TSNode a) {
        return ts_node_start_byte(a) < ts_node_start_byte(n) &&
               Reads(r, Normal(TextOf(tree, Field(a, "left"))));
      });
      // `config['K'] = config.get('K') // 2` reads it too.
      bool by_get = !key.empty() && r.find(variable + ".get(" + key) != std::string::npos;
      if (!Reads(r, target) && !through_alias && !by_get) {
        // A name bound anew after the value (`if fp16: BLOCK = 8`): on the
        // paths through it the kernel gets that value, which is checked
        // too (a literal), or is not known. A dict's key written anew in
        // the value's own function is another site's (its own rule's, or
        // the site-multiplied check's); through an alias (`cfg = config`,
        // then `cfg['K'] = 64`) or in a caller that binds the returned dict,
        // no rule sees it, and the kernel may get that value instead (a
        // helper probe of f751cf4): refused.
        if (exclusive(n)) continue;
        if (!key.empty()) {
          // In a def, lambda or class inside the value's function (a closure
          // called later: a helper probe of d751784), no rule's query and no
          // overwrite analysis sees the write either.
          bool nested = false;
          for (TSNode p = ts_node_parent(n); !ts_node_is_null(p) && !ts_node_eq(p, scope);
               p = ts_node_parent(p)) {
            nested = nested || Is(p, "function_definition") || Is(p, "lambda") ||
                     Is(p, "class_definition");
          }
          if (depth > 0 || nested) out->push_back(Opaque(tree, n));
          continue;
        }
        std::optional<int64_t> literal =
            Is(right, "integer") ? Integer(TextOf(tree, right)) : std::nullopt;
        SelfTransform anew = Opaque(tree, n);
        if (literal) {
          anew.op = "=";
          anew.operand = literal;
        }
        out->push_back(std::move(anew));
        continue;
      }
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
  // Closed world before the value too: an alias of the dict bound before it
  // (`cfg = config`, then the tiers, then `cfg['K'] = 64`) is the same
  // object, its later uses followed as the dict's; any other use that may
  // keep the dict (`cfg = other = config`, `(cfg := config)`, `[config]`, a
  // tuple, a call, a def or lambda that closes over it) fails the rule
  // there (a helper probe and a review of f751cf4). Reads and writes of its
  // keys, its methods, its own bindings and tests keep nothing.
  if (!key.empty() && Is(scope, "function_definition") && depth < kMaxFollow) {
    ForEachNamedPath(Field(scope, "body"), [&](const std::vector<TSNode>& path) {
      TSNode n = path.back();
      if (ts_node_start_byte(n) >= ts_node_start_byte(assignment) || !Is(n, "identifier") ||
          TextOf(tree, n) != variable || path.size() < 2) {
        return;
      }
      TSNode p = path[path.size() - 2];
      bool nested = NestedScopeOnPath(path);
      if (exclusive(StatementOf(path))) return;  // another branch of the value's `if`
      if (!nested) {
        if (Is(p, "subscript") && FieldIs(p, "value", n)) return;  // a key, read or written
        // A method of it (`config.update(...)` before the value, which
        // the value then overwrites): no alias.
        if (Is(p, "attribute") && FieldIs(p, "object", n)) return;
        if (Is(p, "assignment") && FieldIs(p, "left", n)) return;  // bound anew
        if (Tested(path, path.size() - 1)) return;
        if (Is(p, "assignment") && FieldIs(p, "right", n) && Is(Field(p, "left"), "identifier") &&
            !Is(ts_node_parent(p), "assignment")) {
          Collect(tree, p, std::string(TextOf(tree, Field(p, "left"))) + "[" + key + "]", depth + 1,
                  out, work);
          return;
        }
        TSNode call = Is(p, "argument_list") ? ts_node_parent(p) : TSNode{};
        if (Is(call, "call") && ReadsOnly(tree, call)) return;
      }
      out->push_back(Opaque(tree, StatementOf(path)));
    });
  }
  // Every other later use, in a function (a module's names are read by
  // other modules too, which this does not see).
  if (Is(scope, "function_definition")) {
    std::vector<TSNode> handled = found;
    handled.insert(handled.end(), merges.begin(), merges.end());
    int derived_budget = 16;  // names computed from the value, followed in this function
    OnwardFn onward = [&](Onward how, const std::vector<TSNode>& path) {
      if (how == Onward::kDerived) {
        // `Y = <computed from it>`: Y's later uses, as computed ones.
        TSNode assign = path.back();
        for (TSNode bound : TargetNames(Field(assign, "left"))) {
          if (--derived_budget < 0) return false;
          Follow(tree, Field(scope, "body"), ts_node_end_byte(assign),
                 std::string(TextOf(tree, bound)), "", {}, exclusive, onward, true, out, work);
        }
        return true;
      }
      if (depth >= kMaxFollow) return false;
      if (how == Onward::kAlias) {
        // `Y = <the value>`, or `c = config`: Y in its place.
        TSNode assign = path[path.size() - 2];
        std::string alias(TextOf(tree, Field(assign, "left")));
        bool whole_dict = !key.empty() && TextOf(tree, path.back()) == variable;
        Collect(tree, assign, whole_dict ? alias + "[" + key + "]" : alias, depth + 1, out, work);
        return true;
      }
      // The dict passed to a function of this file: its parameter there.
      std::size_t k = path.size() - 1;
      bool keyword = Is(path[k - 1], "keyword_argument");
      TSNode args = path[k - (keyword ? 2 : 1)];
      TSNode call = ts_node_parent(args);
      TSNode fn = Field(call, "function");
      if (!Is(fn, "identifier")) return false;
      std::optional<TSNode> param =
          Parameter(tree, TextOf(tree, fn), args, keyword ? path[k - 1] : path[k]);
      if (!param) return false;
      std::string held(TextOf(tree, *param));
      Collect(tree, *param, key.empty() ? held : held + "[" + key + "]", depth + 1, out, work);
      return true;
    };
    Follow(tree, Field(scope, "body"), after, variable, key.empty() ? "" : Normal(key), handled,
           exclusive, onward, false, out, work);
  }
  // The function returns the variable: its callers in this file that bind
  // the result transform it there.
  TSNode name = Is(scope, "function_definition") ? Field(scope, "name") : TSNode{};
  bool returned = std::any_of(returns.begin(), returns.end(), [&](TSNode r) {
    return !exclusive(r) && ts_node_named_child_count(r) == 1 &&
           Normal(TextOf(tree, ts_node_named_child(r, 0))) == variable;
  });
  // A decorator may change what the function returns; functools' caches
  // return what it returned (a helper probe of 3cee5a3: lru_cache on
  // get_default_config failed every fused-MoE rule).
  TSNode around = ts_node_is_null(name) ? TSNode{} : ts_node_parent(scope);
  if (returned && !ts_node_is_null(around) && Is(around, "decorated_definition")) {
    bool caches_only = true;
    for (TSNode d : NamedChildren(around)) {
      if (!Is(d, "decorator")) continue;
      caches_only = caches_only && MemoizesOnly(tree, d);
    }
    if (!caches_only) {
      out->push_back(Opaque(tree, around));
      return;
    }
  }
  if (depth >= kMaxFollow || ts_node_is_null(name) || !returned) return;
  Callers(tree, tree.Root(), TextOf(tree, name), target.substr(variable.size()), depth, out, work);
}

// The uses of `fn`, a function of this file that returns the dict (or
// value), within `within`: each call whose result is bound to a name
// (`cfg = fn(...)`: cfg's later life, Collect), returned by a function of
// the file (`return fn(...)`: that function's callers in turn), or a
// `functools.partial(fn, ...)` bound to a name (that name's calls, in its
// function). Any other use (`fn(...)['K']`, `kernel(**fn(...))`, fn passed
// as a value) hands the result on where this does not follow: a transform
// the gate cannot evaluate (closed world; a helper probe of f751cf4: a
// store in fused_experts, through partial, went unseen). `bound_by`: the
// assignment that binds `fn` (the partial's), whose target is no use.
void Callers(const SyntaxTree& tree, TSNode within, std::string_view fn, const std::string& suffix,
             int depth, std::vector<SelfTransform>* out, GateWork* work, TSNode bound_by) {
  if (!work->callers.emplace(ts_node_start_byte(within), std::string(fn) + suffix).second) return;
  if (depth >= kMaxFollow || --work->steps < 0) {
    out->push_back(Opaque(tree, within));
    return;
  }
  ForEachNamedPath(within, [&](const std::vector<TSNode>& path) {
    TSNode n = path.back();
    if (!Is(n, "identifier") || TextOf(tree, n) != fn || path.size() < 2) return;
    TSNode p = path[path.size() - 2];
    if (Is(p, "function_definition") && FieldIs(p, "name", n)) return;  // its def
    if (!ts_node_is_null(bound_by) && ts_node_eq(p, bound_by) && FieldIs(p, "left", n)) return;
    if (Is(p, "attribute") && FieldIs(p, "attribute", n)) return;  // another object's
    if (InAnnotation(path) || UseOf(path) == NameUse::kImport) return;
    TSNode up = path.size() >= 3 ? path[path.size() - 3] : TSNode{};
    TSNode upper = path.size() >= 4 ? path[path.size() - 4] : TSNode{};
    if (Is(p, "call") && FieldIs(p, "function", n)) {
      if (Is(up, "assignment") && FieldIs(up, "right", p) && Is(Field(up, "left"), "identifier")) {
        std::string bound(TextOf(tree, Field(up, "left")));
        Collect(tree, up, bound + suffix, depth + 1, out, work);
        return;
      }
      if (Is(up, "return_statement")) {
        TSNode g = EnclosingFunction(path);
        if (!ts_node_is_null(g)) {
          Callers(tree, tree.Root(), TextOf(tree, Field(g, "name")), suffix, depth + 1, out, work);
          return;
        }
      }
    }
    // `h = functools.partial(fn, ...)`: h's calls are fn's.
    if (Is(p, "argument_list") && ts_node_eq(ts_node_named_child(p, 0), n) && Is(up, "call")) {
      std::string_view callee = TextOf(tree, Field(up, "function"));
      if (callee == "functools.partial" && Is(upper, "assignment") && FieldIs(upper, "right", up) &&
          Is(Field(upper, "left"), "identifier")) {
        TSNode g = EnclosingFunction(path);
        TSNode scope = ts_node_is_null(g) ? tree.Root() : Field(g, "body");
        Callers(tree, scope, TextOf(tree, Field(upper, "left")), suffix, depth + 1, out, work,
                upper);
        return;
      }
    }
    out->push_back(Opaque(tree, StatementOf(path)));
  });
}

}  // namespace

// A value inside a decision (`use_v1 = (max_seq_len <= 8192 and ...)`): the
// assignment of the decision to a name; a null node when the value is in no
// such test.
TSNode DecisionOf(TSNode v) {
  TSNode n = v;
  bool tested = false;
  for (int steps = 0; steps < 256; ++steps) {
    TSNode p = ts_node_parent(n);
    if (ts_node_is_null(p)) break;
    if (Is(p, "comparison_operator") || Is(p, "boolean_operator") || Is(p, "not_operator")) {
      tested = true;
    } else if (Is(p, "assignment") || Is(p, "named_expression")) {
      // `use_v1 = <test>`, `(use_v1 := <test>)`: the decision's name.
      TSNode value = Field(p, Is(p, "assignment") ? "right" : "value");
      TSNode name = Field(p, Is(p, "assignment") ? "left" : "name");
      bool assigned = tested && ts_node_eq(value, n) && Is(name, "identifier");
      return assigned ? p : TSNode{};
    } else if (Is(p, "block") || Is(p, "module") || Is(p, "expression_statement") ||
               Is(p, "function_definition") || Is(p, "class_definition")) {
      return TSNode{};  // a test no name holds (`if <test>:`), or none at all
    }
    // Any other expression around the test (a call, `x if t else y`, a
    // subscript) still carries the decision to the name it is assigned
    // to (a review of 8dc525c: `use_v1 = bool(<test>)` went unseen).
    n = p;
  }
  return TSNode{};
}

// Every later statement of the decision's function that assigns its name
// from itself (`use_v1 = use_v1 or max_seq_len < 32768`, `use_v1 |= x`): the
// decision the value makes is not the one the code acts on (a helper probe
// of d751784: the v1 bounds were rewritten, live, and nothing changed).
std::vector<SelfTransform> DecisionTransforms(const SyntaxTree& tree, TSNode assignment) {
  std::vector<SelfTransform> out;
  std::string name(TextOf(tree, Field(assignment, Is(assignment, "assignment") ? "left" : "name")));
  TSNode scope = assignment;
  for (TSNode p = ts_node_parent(assignment); !ts_node_is_null(p); p = ts_node_parent(p)) {
    scope = p;
    if (Is(p, "function_definition")) break;
  }
  std::size_t after = ts_node_end_byte(assignment);
  ForEachNamedPath(scope, [&](const std::vector<TSNode>& path) {
    TSNode n = path.back();
    if (ts_node_start_byte(n) < after) return;
    bool augmented = Is(n, "augmented_assignment");
    bool walrus = Is(n, "named_expression");
    if (!augmented && !walrus && !Is(n, "assignment")) return;
    TSNode left = Field(n, walrus ? "name" : "left");
    TSNode right = Field(n, walrus ? "value" : "right");
    if (ts_node_is_null(left) || ts_node_is_null(right) || Normal(TextOf(tree, left)) != name) {
      return;
    }
    if (augmented || Reads(Spaced(TextOf(tree, right)), name)) out.push_back(Opaque(tree, n));
  });
  return out;
}

// A value assigned to a name at a module's top level (`_PARTITION_SIZE =
// 512`): every other binding of that name in the module's namespace that may
// run after it, whatever its form (`*=`, a tuple or `for` target, a walrus,
// an import, `except ... :` rebinding it, a def's `global` write, `del`).
// Each is a statement muhpatch does not follow: the kernel may get that
// value instead (a helper probe of d751784: `_PARTITION_SIZE *= 2` and an
// `if`-guarded `_PARTITION_SIZE = 256` after the rewritten line, exit 0).
std::vector<SelfTransform> ModuleRebindings(const SyntaxTree& tree, TSNode assignment) {
  std::vector<SelfTransform> out;
  TSNode left = Field(assignment, "left");
  if (!Is(left, "identifier") || !Is(ts_node_parent(assignment), "expression_statement") ||
      !Is(ts_node_parent(ts_node_parent(assignment)), "module")) {
    return out;
  }
  std::string_view name = TextOf(tree, left);
  std::size_t after = ts_node_end_byte(assignment);
  // The defs that write the module's name: those that declare it global.
  std::vector<TSNode> global_writers;
  ForEachNamedPath(tree.Root(), [&](const std::vector<TSNode>& path) {
    TSNode n = path.back();
    if (!Is(n, "global_statement")) return;
    for (TSNode id : NamedChildren(n)) {
      if (TextOf(tree, id) != name) continue;
      for (std::size_t i = path.size(); i-- > 0;) {
        if (Is(path[i], "function_definition")) {
          global_writers.push_back(path[i]);
          break;
        }
      }
    }
  });
  ForEachNamedPath(tree.Root(), [&](const std::vector<TSNode>& path) {
    TSNode n = path.back();
    // `from m import *` after it binds every name m exports, this one too
    // (a review of 8dc525c).
    if (Is(n, "wildcard_import") && ts_node_start_byte(n) >= after) {
      out.push_back(Opaque(tree, StatementOf(path)));
      return;
    }
    if (!Is(n, "identifier") || TextOf(tree, n) != name || ts_node_eq(n, left)) return;
    NameUse use = UseOf(path);
    if (!Binds(use) || use == NameUse::kComprehend) return;  // a comprehension's own
    // Its scope: the module, or a def that declares the name global.
    TSNode scope{};
    for (std::size_t i = path.size() - 1; i-- > 0;) {
      if (Is(path[i], "function_definition") || Is(path[i], "lambda") ||
          Is(path[i], "class_definition")) {
        scope = path[i];
        break;
      }
    }
    bool module_name = ts_node_is_null(scope);
    if (!module_name) {
      module_name = std::any_of(global_writers.begin(), global_writers.end(),
                                [&](TSNode d) { return ts_node_eq(d, scope); });
      if (!module_name) return;  // a local of its own scope
      // A def's write runs when the def is called, after the module's body.
      if (Is(StatementOf(path), "global_statement")) return;
    } else if (ts_node_start_byte(n) < after) {
      return;  // a binding before the value: the value overwrites it
    }
    out.push_back(Opaque(tree, StatementOf(path)));
  });
  return out;
}

std::vector<SelfTransform> LaterTransforms(const SyntaxTree& tree, std::size_t begin,
                                           std::size_t end) {
  std::vector<SelfTransform> out;
  TSNode v = ts_node_descendant_for_byte_range(tree.Root(), static_cast<uint32_t>(begin),
                                               static_cast<uint32_t>(end));
  TSNode assignment{};
  std::string target = TargetOf(tree, v, &assignment);
  if (target.empty()) {
    TSNode decision = DecisionOf(v);
    return ts_node_is_null(decision) ? out : DecisionTransforms(tree, decision);
  }
  // A key's value in a dict display: a `**splat` or the same key after it
  // in the display may replace it.
  TSNode pair = v;
  while (!ts_node_is_null(pair) && !Is(pair, "pair") && !Is(pair, "assignment")) {
    pair = ts_node_parent(pair);
  }
  if (!ts_node_is_null(pair) && Is(pair, "pair")) {
    TSNode dict = ts_node_parent(pair);
    std::string key = Normal(TextOf(tree, Field(pair, "key")));
    for (TSNode later : NamedChildren(dict)) {
      if (ts_node_start_byte(later) <= ts_node_start_byte(pair)) continue;
      // A later key that may equal it: the same text, or a literal whose
      // value is the same or not known (`f'K'`, an escape).
      bool same_key = false;
      if (Is(later, "pair")) {
        TSNode lk = Field(later, "key");
        same_key = Normal(TextOf(tree, lk)) == key;
        if (Is(lk, "string"))
          same_key = same_key || IsKeyText(tree, lk, key) != std::optional<bool>(false);
      }
      if (Is(later, "dictionary_splat") || same_key) {
        out.push_back(Opaque(tree, later));
      }
    }
  }
  GateWork work;
  Collect(tree, assignment, target, 0, &out, &work);
  for (SelfTransform& t : ModuleRebindings(tree, assignment)) out.push_back(std::move(t));
  std::stable_sort(out.begin(), out.end(),
                   [](const SelfTransform& a, const SelfTransform& b) { return a.line < b.line; });
  // One statement met twice (through an alias and as itself) counts once.
  out.erase(std::unique(out.begin(), out.end(),
                        [](const SelfTransform& a, const SelfTransform& b) {
                          return a.line == b.line && a.text == b.text && a.op == b.op &&
                                 a.operand == b.operand && a.repeats == b.repeats;
                        }),
            out.end());
  return out;
}

}  // namespace muh
