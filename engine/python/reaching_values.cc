#include "engine/python/reaching_values.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <string_view>

#include "engine/base/text.h"
#include "engine/python/assigned_values.h"
#include "engine/python/name_use.h"
#include "engine/python/ts_nodes.h"
#include "engine/python/wrap_safety.h"

namespace muh {

namespace {

enum class Truth { kFalse, kTrue, kUnknown };

bool SameNode(TSNode a, TSNode b) { return !ts_node_is_null(b) && ts_node_eq(a, b); }

// The values that reach a point: the expressions assigned, by node.
struct State {
  bool live = true;
  std::vector<TSNode> defs;
};

State Union(const State& a, const State& b) {
  if (!a.live) return b;
  if (!b.live) return a;
  State u = a;
  for (TSNode d : b.defs) {
    bool known =
        std::any_of(u.defs.begin(), u.defs.end(), [&](TSNode e) { return ts_node_eq(d, e); });
    if (!known) u.defs.push_back(d);
  }
  return u;
}

// One walk of a function's body with the condition assumed one way.
class Walker {
 public:
  Walker(const SyntaxTree& tree, const ValueQuestion& q, bool core_true)
      : tree_(tree), q_(q), core_true_(core_true) {}

  // The values assigned to the variable that reach its first read (or the
  // function's end), by node.
  std::vector<TSNode> Run(TSNode fn) {
    TSNode body = Field(fn, "body");
    ScopeBindings(fn);
    NonlocalRebinding(body);
    LateClosures(body);
    State s;
    // A parameter of the variable's name holds what the caller passed.
    for (std::size_t i = 0; i < binds_.size(); ++i) {
      if (binds_[i].use != NameUse::kParameter) continue;
      met_[i] = true;
      Opaque(binds_[i].holder, &s, true);
    }
    Block(body, &s);
    if (at_use_) return *at_use_;
    State end = s;
    for (const State& r : returned_) end = Union(end, r);
    return end.live ? end.defs : std::vector<TSNode>{};
  }

  Truth Eval(TSNode cond) const {
    cond = Unwrapped(cond);
    if (Is(cond, "not_operator")) {
      Truth t = Eval(Field(cond, "argument"));
      return t == Truth::kUnknown ? t : t == Truth::kTrue ? Truth::kFalse : Truth::kTrue;
    }
    if (std::optional<bool> t =
            Implied(q_.condition.canonical, core_true_, ConditionOf(tree_, cond).canonical))
      return *t ? Truth::kTrue : Truth::kFalse;
    if (Is(cond, "boolean_operator")) {
      Truth l = Eval(Field(cond, "left"));
      Truth r = Eval(Field(cond, "right"));
      TSNode op = Field(cond, "operator");
      bool is_and = !ts_node_is_null(op) && std::string_view(ts_node_type(op)) == "and";
      Truth absorbing = is_and ? Truth::kFalse : Truth::kTrue;
      if (l == absorbing || r == absorbing) return absorbing;
      if (l == Truth::kUnknown || r == Truth::kUnknown) return Truth::kUnknown;
      return l;
    }
    return Truth::kUnknown;
  }

  // The values of `value` on this walk's path: the branch of a conditional
  // expression on the condition, else the expression itself.
  void Leaves(TSNode value, std::vector<TSNode>* out) const {
    TSNode v = Unwrapped(value);
    if (Is(v, "conditional_expression") && ts_node_named_child_count(v) == 3) {
      Truth t = Eval(ts_node_named_child(v, 1));
      if (t != Truth::kUnknown) {
        Leaves(ts_node_named_child(v, t == Truth::kTrue ? 0 : 2), out);
        return;
      }
    }
    out->push_back(v);
  }

  // The first binding of the variable in the function's scope that the
  // walk met neither where it follows it nor in code it proves does not
  // run: a construct it does not model. Closed world: the value is then
  // no proof.
  std::optional<std::pair<std::string, std::size_t>> Unaccounted() const {
    const std::string_view src = tree_.bytes();
    for (std::size_t i = 0; i < binds_.size(); ++i) {
      if (met_[i]) continue;
      std::string_view text = LineAround(src, binds_[i].begin);  // as written
      return std::make_pair(
          fmt::format("`{}` (line {}) binds {} in a way the analysis does not follow: no value "
                      "of its own to rewrite",
                      text, std::count(src.begin(), src.begin() + binds_[i].begin, '\n') + 1,
                      q_.variable),
          static_cast<std::size_t>(binds_[i].begin));
    }
    return std::nullopt;
  }

  std::string problem_;
  std::size_t problem_at_ = 0;
  std::optional<std::size_t> read_at_;  // the use Run's values reach, if read
  std::vector<TSNode> read_defs_;       // the values any read of the walk sees
  // Where the variable is bound otherwise than `V = value` (a `for` or
  // `with` target, `:=`, an import, an `except` or `case` capture, a def or
  // class of its name): a value of no literal of its own, which the rule
  // cannot rewrite where it reaches the read.
  std::vector<TSNode> opaque_;

  bool IsOpaque(TSNode n) const {
    return std::any_of(opaque_.begin(), opaque_.end(), [&](TSNode o) { return ts_node_eq(o, n); });
  }

 private:
  std::string_view Text(TSNode n) const {
    return tree_.bytes().substr(ts_node_start_byte(n), ts_node_end_byte(n) - ts_node_start_byte(n));
  }

  bool IsVariable(TSNode n) const { return Is(n, "identifier") && Text(n) == q_.variable; }

  // Where `n` first reads the variable: a name that is not assigned to
  // (by `=`, `:=` or `as`), not a keyword's name and not an attribute's.
  // Pre-order, iteratively: nesting costs no stack.
  std::optional<TSNode> Read(TSNode root) const {
    std::vector<TSNode> stack{root};
    while (!stack.empty()) {
      TSNode n = stack.back();
      stack.pop_back();
      if (IsVariable(n)) {
        TSNode parent = ts_node_parent(n);
        if (ts_node_is_null(parent)) return n;
        if (Is(parent, "keyword_argument") && SameNode(n, Field(parent, "name"))) continue;
        if (Is(parent, "attribute") && SameNode(n, Field(parent, "attribute"))) continue;
        if (Is(parent, "assignment") && SameNode(n, Field(parent, "left"))) continue;
        // What `:=` and `as` bind is no read (Walrus, AsBinds).
        if (Is(parent, "named_expression") && SameNode(n, Field(parent, "name"))) continue;
        if (Is(parent, "as_pattern_target")) continue;
        return n;
      }
      if (Is(n, "function_definition") || Is(n, "class_definition")) continue;
      PushNamedChildren(n, &stack);
    }
    return {};
  }

  void NoteReads(TSNode n, const State& s) {
    if (!s.live) return;
    std::optional<TSNode> r = Read(n);
    if (!r) return;
    // Every value any read sees: a value the other path reads later is
    // still shared with it.
    for (TSNode d : s.defs) {
      if (std::none_of(read_defs_.begin(), read_defs_.end(),
                       [&](TSNode e) { return ts_node_eq(d, e); }))
        read_defs_.push_back(d);
    }
    if (at_use_) return;
    at_use_ = s.defs;
    read_at_ = ts_node_start_byte(*r);
  }

  // `n` binds the variable as an opaque value: replacing what reached it,
  // or (a `:=` that may not run) beside it.
  void Opaque(TSNode n, State* s, bool replace) {
    if (!IsOpaque(n)) opaque_.push_back(n);
    if (replace) {
      s->defs = {n};
    } else if (std::none_of(s->defs.begin(), s->defs.end(),
                            [&](TSNode d) { return ts_node_eq(d, n); })) {
      s->defs.push_back(n);
    }
  }

  // One identifier that binds the variable in the function's scope, as
  // name_use reads it: which identifiers bind is decided there alone.
  struct Binding {
    std::uint32_t begin = 0;
    NameUse use = NameUse::kUnknown;
    bool walrus = false;  // `NAME := ...`, which Walrus follows
    TSNode holder{};      // its parent: a parameter's node
  };

  void ScopeBindings(TSNode fn) {
    ForEachScopeBinding(fn, [&](const std::vector<TSNode>& path, NameUse use) {
      if (Text(path.back()) != q_.variable) return;
      Binding b;
      b.begin = ts_node_start_byte(path.back());
      b.use = use;
      b.holder = path[path.size() - 2];
      b.walrus = Is(b.holder, "named_expression");
      binds_.push_back(b);
    });
    met_.assign(binds_.size(), false);
  }

  // The bindings (other than `:=`) in the bytes [begin, end).
  std::pair<std::size_t, std::size_t> BindingsIn(std::uint32_t begin, std::uint32_t end) const {
    auto lo = std::lower_bound(binds_.begin(), binds_.end(), begin,
                               [](const Binding& b, std::uint32_t o) { return b.begin < o; });
    auto hi = std::lower_bound(lo, binds_.end(), end,
                               [](const Binding& b, std::uint32_t o) { return b.begin < o; });
    return {static_cast<std::size_t>(lo - binds_.begin()),
            static_cast<std::size_t>(hi - binds_.begin())};
  }
  bool BindsIn(std::uint32_t begin, std::uint32_t end) const {
    auto [lo, hi] = BindingsIn(begin, end);
    for (std::size_t i = lo; i < hi; ++i) {
      if (!binds_[i].walrus) return true;
    }
    return false;
  }
  // The walk has met every binding in [begin, end) (a `:=` only where
  // said: Walrus follows those): it follows them, or the code does not
  // run on this path.
  void Meet(std::uint32_t begin, std::uint32_t end, bool walrus_too = false) {
    auto [lo, hi] = BindingsIn(begin, end);
    for (std::size_t i = lo; i < hi; ++i) met_[i] = met_[i] || walrus_too || !binds_[i].walrus;
  }
  void Meet(TSNode n, bool walrus_too = false) {
    if (!ts_node_is_null(n)) Meet(ts_node_start_byte(n), ts_node_end_byte(n), walrus_too);
  }
  // Code that does not run on this path: every binding in it is met.
  void Skip(TSNode n) { Meet(n, true); }

  // A target that binds the variable itself: the name, or the name inside
  // a tuple or list of targets (`for BLOCK, W in ...`), not an attribute or
  // a subscript (name_use decides).
  bool TargetBinds(TSNode t) const {
    return !ts_node_is_null(t) && BindsIn(ts_node_start_byte(t), ts_node_end_byte(t));
  }

  // Every `:=` in `n` (its own scope: comprehensions count, lambdas and
  // nested definitions do not) that binds the variable: it may run, beside
  // what reached it.
  void Walrus(TSNode n, State* s) {
    if (ts_node_is_null(n)) return;
    if (!s->live) {
      Skip(n);  // it does not run
      return;
    }
    std::vector<TSNode> stack{n};
    while (!stack.empty()) {
      TSNode c = stack.back();
      stack.pop_back();
      if (Is(c, "function_definition") || Is(c, "class_definition") || Is(c, "lambda")) continue;
      if (Is(c, "named_expression") && IsVariable(Field(c, "name"))) {
        Meet(Field(c, "name"), true);
        Opaque(c, s, false);
      }
      PushNamedChildren(c, &stack);
    }
  }

  // The bytes of a with item, an except clause or a case clause before
  // its guard or block: where `as BLOCK` or a pattern binds.
  std::pair<std::uint32_t, std::uint32_t> Head(TSNode n) const {
    std::uint32_t end = ts_node_end_byte(n);
    for (TSNode k : NamedChildren(n)) {
      if (Is(k, "block") || Is(k, "if_clause")) {
        end = ts_node_start_byte(k);
        break;
      }
    }
    return {ts_node_start_byte(n), end};
  }
  // `x as BLOCK` in a with item, an except clause or a case pattern
  // (outside blocks): the name bound by `as`, or a capture.
  bool AsBinds(TSNode n) const {
    auto [begin, end] = Head(n);
    return BindsIn(begin, end);
  }
  void MeetHead(TSNode n) {
    auto [begin, end] = Head(n);
    Meet(begin, end);
  }

  // An import statement that binds the variable (`import BLOCK`, `from m
  // import X as BLOCK`, `from m import *`).
  bool ImportBinds(TSNode st) const {
    for (TSNode c : NamedChildren(st)) {
      if (Is(c, "wildcard_import")) return true;
    }
    return TargetBinds(st);
  }

  // A function nested in the walked one that rebinds the variable through
  // `nonlocal`: any call may change it, which the walk does not see.
  void NonlocalRebinding(TSNode body) {
    std::vector<TSNode> stack{body};
    while (!stack.empty()) {
      TSNode c = stack.back();
      stack.pop_back();
      if (Is(c, "nonlocal_statement")) {
        for (uint32_t i = 0; i < ts_node_named_child_count(c); ++i) {
          if (!IsVariable(ts_node_named_child(c, i))) continue;
          Problem(c,
                  fmt::format("{} is rebound through `{}` (line {}) in a function nested in {}, "
                              "which any call may run: no value of its own to rewrite",
                              q_.variable, Text(c), ts_node_start_point(c).row + 1, q_.function));
        }
      }
      PushNamedChildren(c, &stack);
    }
  }

  // Whether the def, lambda or class `c` reads the function's variable:
  // names it, without binding it itself (a parameter or an assignment).
  bool ClosureReads(TSNode c) const {
    bool named = false;
    std::vector<TSNode> stack{c};
    while (!stack.empty()) {
      TSNode n = stack.back();
      stack.pop_back();
      if (IsVariable(n)) {
        TSNode parent = ts_node_parent(n);
        if (Is(parent, "attribute") && SameNode(n, Field(parent, "attribute"))) continue;
        if (Is(parent, "keyword_argument") && SameNode(n, Field(parent, "name"))) continue;
        if ((Is(parent, "assignment") || Is(parent, "augmented_assignment")) &&
            SameNode(n, Field(parent, "left")))
          return false;  // its own local
        if (Is(parent, "parameters") || Is(parent, "lambda_parameters") ||
            Is(parent, "default_parameter") || Is(parent, "typed_parameter") ||
            Is(parent, "typed_default_parameter")) {
          if (!Is(parent, "default_parameter") && !Is(parent, "typed_default_parameter"))
            return false;
          if (SameNode(n, Field(parent, "name"))) return false;
        }
        named = true;
      }
      PushNamedChildren(n, &stack);
    }
    return named;
  }

  // A def, lambda or class of the function that reads the variable reads
  // it when it runs, not where it stands: a binding of the variable after
  // it may be what it reads. Refused; one that nothing rebinds later reads
  // what reached it, and counts as a read there.
  void LateClosures(TSNode body) {
    std::vector<TSNode> closures;
    std::vector<TSNode> bindings;  // of the variable, in the function's own scope
    std::vector<TSNode> stack{body};
    while (!stack.empty()) {
      TSNode c = stack.back();
      stack.pop_back();
      if (Is(c, "function_definition") || Is(c, "lambda") || Is(c, "class_definition")) {
        closures.push_back(c);
        continue;
      }
      TSNode left = Field(c, "left");
      bool binds =
          ((Is(c, "assignment") || Is(c, "augmented_assignment") || Is(c, "for_statement")) &&
           (TargetBinds(left) ||
            (!q_.key.empty() && Is(left, "subscript") && IsVariable(Field(left, "value"))))) ||
          (Is(c, "named_expression") && IsVariable(Field(c, "name"))) ||
          (Is(c, "as_pattern_target") && TargetBinds(c)) ||
          ((Is(c, "import_statement") || Is(c, "import_from_statement")) && ImportBinds(c));
      if (binds) bindings.push_back(c);
      PushNamedChildren(c, &stack);
    }
    for (TSNode c : closures) {
      if (!ClosureReads(c)) continue;
      for (TSNode b : bindings) {
        if (ts_node_start_byte(b) <= ts_node_end_byte(c)) continue;
        std::string_view text = Text(c);
        text = text.substr(0, text.find('\n'));
        Problem(c,
                fmt::format("{} is read by `{}` (line {}), which the walk does not follow (a def "
                            "or lambda reads it when called, a class body where it stands), "
                            "and line {} binds {} again after it: no value of its own to rewrite",
                            q_.variable, text, Line(c), Line(b), q_.variable));
        return;
      }
    }
  }

  // The value nodes `n` may assign the variable, as the walk takes them
  // (Assignment, Opaque): in its own scope, its branches pruned as If
  // prunes them on this path; each loop's once (memo).
  void CollectDefs(TSNode n, std::vector<TSNode>* out) {
    if (ts_node_is_null(n)) return;
    if (Is(n, "function_definition") || Is(n, "class_definition") ||
        Is(n, "decorated_definition")) {
      TSNode def = Is(n, "decorated_definition") ? Field(n, "definition") : n;
      TSNode name = ts_node_is_null(def) ? def : Field(def, "name");
      if (!ts_node_is_null(name) && IsVariable(name)) AddOpaque(n, out);
      return;
    }
    if (Is(n, "lambda")) return;
    if (Is(n, "for_statement") || Is(n, "while_statement")) {
      for (TSNode d : LoopDefs(n)) out->push_back(d);
      // The loop's head, target and else are its own too.
      if (Is(n, "for_statement") && TargetBinds(Field(n, "left"))) AddOpaque(n, out);
      CollectDefs(Field(n, "alternative"), out);
      CollectDefs(Field(n, Is(n, "for_statement") ? "right" : "condition"), out);
      return;
    }
    if (Is(n, "if_statement")) {
      auto clause = [&](TSNode condition, TSNode body) {
        Truth t = Truth::kTrue;
        if (!ts_node_is_null(condition)) {
          CollectDefs(condition, out);
          t = Eval(condition);
        }
        if (t != Truth::kFalse) CollectDefs(body, out);
        return t == Truth::kTrue;
      };
      if (clause(Field(n, "condition"), Field(n, "consequence"))) return;
      for (TSNode c : NamedChildren(n)) {
        if (Is(c, "elif_clause") && clause(Field(c, "condition"), Field(c, "consequence"))) return;
        if (Is(c, "else_clause") && clause(TSNode{}, Field(c, "body"))) return;
      }
      return;
    }
    if (Is(n, "assignment")) {
      TSNode left = Field(n, "left");
      TSNode value = Field(n, "right");
      while (Is(value, "assignment")) value = Field(value, "right");
      if (!ts_node_is_null(value)) {
        if (IsVariable(left) && q_.key.empty()) {
          out->push_back(value);
        } else if (IsVariable(left)) {
          TSNode dict = Unwrapped(value);
          for (TSNode pair : Is(dict, "dictionary") ? NamedChildren(dict) : std::vector<TSNode>{}) {
            if (Is(pair, "pair") && IsKey(Field(pair, "key"))) out->push_back(Field(pair, "value"));
          }
        } else if (!q_.key.empty() && Is(left, "subscript") && IsVariable(Field(left, "value")) &&
                   IsKey(Field(left, "subscript"))) {
          out->push_back(value);
        }
      }
    } else if (Is(n, "augmented_assignment") && IsVariable(Field(n, "left"))) {
      out->push_back(n);
    } else if (Is(n, "named_expression") && IsVariable(Field(n, "name"))) {
      AddOpaque(n, out);
    } else if ((Is(n, "import_statement") || Is(n, "import_from_statement") ||
                Is(n, "future_import_statement")) &&
               ImportBinds(n)) {
      AddOpaque(n, out);
    } else if ((Is(n, "except_clause") || Is(n, "except_group_clause")) && AsBinds(n)) {
      AddOpaque(n, out);
    } else if (Is(n, "with_clause") && AsBinds(n)) {
      AddOpaque(n, out);
    } else if (Is(n, "case_clause") && CaseCaptures(n)) {
      AddOpaque(n, out);
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i)
      CollectDefs(ts_node_named_child(n, i), out);
  }

  // Whether a case clause's patterns capture the variable (a bare name;
  // `Color.RED` is a value pattern: name_use decides).
  bool CaseCaptures(TSNode c) const { return AsBinds(c); }

  void AddOpaque(TSNode n, std::vector<TSNode>* out) {
    if (!IsOpaque(n)) opaque_.push_back(n);
    out->push_back(n);
  }

  // Every value loop `loop`'s body (and else) may assign, once per loop.
  const std::vector<TSNode>& LoopDefs(TSNode loop) {
    std::size_t key = ts_node_start_byte(loop);
    auto it = loop_defs_.find(key);
    if (it != loop_defs_.end()) return it->second;
    std::vector<TSNode> defs;
    CollectDefs(Field(loop, "body"), &defs);
    return loop_defs_[key] = std::move(defs);
  }

  int Line(TSNode n) const { return static_cast<int>(ts_node_start_point(n).row) + 1; }

  void Problem(TSNode at, std::string message) {
    if (!problem_.empty()) return;
    problem_ = std::move(message);
    problem_at_ = ts_node_start_byte(at);
  }

  void Block(TSNode block, State* s) {
    for (TSNode st : NamedChildren(block)) {
      if (!s->live) {
        Skip(st);  // after a return, raise, break or continue: never runs
        continue;
      }
      Statement(st, s);
    }
  }

  void Assignment(TSNode a, State* s) {
    TSNode left = Field(a, "left");
    TSNode right = Field(a, "right");
    // `NAME: T` binds nothing (it only makes NAME local); any other target
    // is followed below.
    Meet(left);
    if (!ts_node_is_null(right)) {
      if (Is(right, "assignment")) {
        Assignment(right, s);  // `a = b = 1`: b first
      } else {
        NoteReads(right, *s);
        Walrus(right, s);
      }
    }
    if (ts_node_is_null(right)) return;
    TSNode value = right;
    while (Is(value, "assignment")) value = Field(value, "right");
    if (IsVariable(left) && q_.key.empty()) {
      s->defs = {value};
    } else if (IsVariable(left)) {
      DictAssigned(a, value, s);
    } else if (!q_.key.empty() && Is(left, "subscript") && IsVariable(Field(left, "value")) &&
               IsKey(Field(left, "subscript"))) {
      s->defs = {value};
    } else if (!IsVariable(left) && TargetBinds(left)) {
      // A pattern binds it, at any depth (`(W, N), V = ...`, `*_, N = ...`).
      Problem(a, fmt::format("{} is unpacked from `{}`: no value of its own to rewrite",
                             q_.variable, Text(right)));
      s->defs = {};
    }
  }

  // Whether `n` is the string literal of the question's key.
  bool IsKey(TSNode n) const {
    if (ts_node_is_null(n) || !Is(n, "string")) return false;
    std::string_view t = Text(n);
    if (t.size() < 2 || (t.front() != '\'' && t.front() != '"') || t.back() != t.front())
      return false;
    return t.substr(1, t.size() - 2) == q_.key;
  }

  // `D = {...}`: the key's entry is the value; a dict without it has none,
  // and anything else builds the dict at run time.
  void DictAssigned(TSNode a, TSNode value, State* s) {
    s->defs = {};
    TSNode dict = Unwrapped(value);
    if (!Is(dict, "dictionary")) {
      Problem(a, fmt::format("{} is built by `{}`: no '{}' entry to rewrite", q_.variable,
                             Text(value), q_.key));
      return;
    }
    for (TSNode pair : NamedChildren(dict)) {
      if (Is(pair, "pair") && IsKey(Field(pair, "key"))) s->defs = {Field(pair, "value")};
      // `{'KEY': 64, **over}`: the splat may replace the entry.
      if (Is(pair, "dictionary_splat") && !s->defs.empty()) {
        Problem(pair, fmt::format("{}['{}'] may be replaced by `{}` (line {}), after its entry: no "
                                  "value of its own to rewrite",
                                  q_.variable, q_.key, Text(pair), Line(pair)));
        s->defs = {};
      }
    }
  }

  void Statement(TSNode st, State* s) {
    if (Is(st, "expression_statement")) {
      for (TSNode e : NamedChildren(st)) {
        if (Is(e, "assignment")) {
          Assignment(e, s);
        } else if (Is(e, "augmented_assignment") && IsVariable(Field(e, "left"))) {
          // `BLOCK += 1` reads BLOCK first: the value there is the knob's.
          Meet(Field(e, "left"));
          NoteReads(e, *s);
          Walrus(e, s);
          s->defs = {e};
        } else {
          NoteReads(e, *s);
          Walrus(e, s);
        }
      }
    } else if (Is(st, "if_statement")) {
      If(st, s);
    } else if (Is(st, "for_statement") || Is(st, "while_statement")) {
      bool is_for = Is(st, "for_statement");
      TSNode head = is_for ? Field(st, "right") : Field(st, "condition");
      NoteReads(head, *s);
      Walrus(head, s);
      State body = *s;
      // A later iteration starts with what the body bound in an earlier
      // one: every value it may assign reaches its head.
      for (TSNode d : LoopDefs(st)) {
        if (std::none_of(body.defs.begin(), body.defs.end(),
                         [&](TSNode e) { return ts_node_eq(d, e); }))
          body.defs.push_back(d);
      }
      if (is_for && TargetBinds(Field(st, "left"))) Opaque(st, &body, true);
      if (is_for) Meet(Field(st, "left"));
      State none;
      none.live = false;
      breaks_.push_back(none);
      continues_.push_back(none);
      Block(Field(st, "body"), &body);
      State broke = breaks_.back();
      State continued = continues_.back();
      breaks_.pop_back();
      continues_.pop_back();
      // The loop ends without a break from before it (no iteration), from
      // the body's end or a `continue`; then its `else` runs. A `break`
      // skips the `else`.
      State normal = Union(*s, Union(body, continued));
      TSNode alt = Field(st, "alternative");
      if (!ts_node_is_null(alt)) Block(Field(alt, "body"), &normal);
      *s = Union(normal, broke);
    } else if (Is(st, "break_statement") || Is(st, "continue_statement")) {
      if (!breaks_.empty()) {
        State& to = Is(st, "break_statement") ? breaks_.back() : continues_.back();
        to = Union(to, *s);
      }
      s->live = false;
    } else if (Is(st, "with_statement")) {
      for (TSNode c : NamedChildren(st)) {
        if (Is(c, "block")) {
          Block(c, s);
        } else {
          NoteReads(c, *s);
          Walrus(c, s);
          if (s->live && AsBinds(c)) Opaque(c, s, true);
          MeetHead(c);
        }
      }
    } else if (Is(st, "try_statement")) {
      // Any statement of the body may raise: a handler starts from any of
      // the body's states, which this approximates by their union.
      State before = *s;
      Block(Field(st, "body"), s);
      State any = Union(before, *s);
      for (TSNode c : NamedChildren(st)) {
        // A handler: `except` or `except*` (each handler of a group may run).
        const bool handler = Is(c, "except_clause") || Is(c, "except_group_clause");
        if (!handler && !Is(c, "finally_clause") && !Is(c, "else_clause")) continue;
        for (uint32_t j = 0; j < ts_node_named_child_count(c); ++j) {
          TSNode b = ts_node_named_child(c, j);
          if (!Is(b, "block")) continue;
          State h = Is(c, "else_clause") ? *s : any;
          if (handler && h.live && AsBinds(c)) Opaque(c, &h, true);
          if (handler) MeetHead(c);
          Block(b, &h);
          *s = handler ? Union(*s, h) : h;
        }
      }
    } else if (Is(st, "match_statement")) {
      Match(st, s);
    } else if (Is(st, "return_statement") || Is(st, "raise_statement")) {
      NoteReads(st, *s);
      Walrus(st, s);
      if (Is(st, "return_statement")) returned_.push_back(*s);
      s->live = false;
    } else if (Is(st, "function_definition") || Is(st, "class_definition") ||
               Is(st, "decorated_definition")) {
      // A nested definition runs later, if at all; one of the variable's
      // name binds it.
      TSNode def = Is(st, "decorated_definition") ? Field(st, "definition") : st;
      TSNode name = ts_node_is_null(def) ? def : Field(def, "name");
      if (s->live && !ts_node_is_null(name) && IsVariable(name)) Opaque(st, s, true);
      Meet(name);
    } else if (Is(st, "import_statement") || Is(st, "import_from_statement") ||
               Is(st, "future_import_statement")) {
      if (s->live && ImportBinds(st)) Opaque(st, s, true);
      Meet(st);
    } else if (Is(st, "delete_statement")) {
      // `del BLOCK` (or `del d['KEY']`) unbinds it: no value reaches past
      // it; deleting anything else reads.
      bool unbinds = false;
      for (TSNode c : NamedChildren(st)) {
        std::vector<TSNode> targets{c};
        if (Is(c, "expression_list")) {
          targets.clear();
          for (uint32_t j = 0; j < ts_node_named_child_count(c); ++j)
            targets.push_back(ts_node_named_child(c, j));
        }
        for (TSNode t : targets) {
          if (IsVariable(t) || (!q_.key.empty() && Is(t, "subscript") &&
                                IsVariable(Field(t, "value")) && IsKey(Field(t, "subscript")))) {
            unbinds = true;
          }
          if (IsVariable(t)) Meet(t);
        }
      }
      if (unbinds) {
        s->defs = {};
      } else {
        NoteReads(st, *s);
      }
    } else if (Is(st, "global_statement") || Is(st, "nonlocal_statement")) {
      Meet(st);
      for (uint32_t i = 0; i < ts_node_named_child_count(st); ++i) {
        if (!IsVariable(ts_node_named_child(st, i))) continue;
        Problem(st, fmt::format("{} is declared `{}` (line {}): any call may rebind it, which the "
                                "analysis does not see: no value of its own to rewrite",
                                q_.variable, Text(st), Line(st)));
      }
    } else {
      NoteReads(st, *s);
      Walrus(st, s);
    }
  }

  // `match`: each case may run (its pattern may capture the variable), or
  // none.
  void Match(TSNode st, State* s) {
    TSNode subject = Field(st, "subject");
    NoteReads(subject, *s);
    Walrus(subject, s);
    State in = *s;
    State out = in;
    std::vector<TSNode> stack{st};
    while (!stack.empty()) {
      TSNode c = stack.back();
      stack.pop_back();
      if (Is(c, "case_clause")) {
        State b = in;
        // The pattern binds first, then the guard reads.
        if (b.live && CaseCaptures(c)) Opaque(c, &b, true);
        MeetHead(c);
        TSNode body{};
        for (TSNode k : NamedChildren(c)) {
          if (Is(k, "block")) {
            body = k;
            continue;
          }
          if (Is(k, "if_clause")) {  // the guard reads; a pattern captures
            NoteReads(k, b);
            Walrus(k, &b);
          }
        }
        if (!ts_node_is_null(body)) Block(body, &b);
        out = Union(out, b);
        continue;
      }
      if (ts_node_eq(c, subject)) continue;
      PushNamedChildren(c, &stack);
    }
    *s = out;
  }

  // `if`/`elif`/`else`: each clause whose condition may hold is a path; the
  // first that surely holds ends the chain.
  void If(TSNode st, State* s) {
    State in = *s;
    State out;
    out.live = false;
    bool certain = false;
    auto clause = [&](TSNode condition, TSNode body) {
      Truth t = Truth::kTrue;
      if (!ts_node_is_null(condition)) {
        NoteReads(condition, in);
        Walrus(condition, &in);
        t = Eval(condition);
      }
      if (t != Truth::kFalse) {
        State b = in;
        Block(body, &b);
        out = Union(out, b);
      } else {
        Skip(body);  // the condition is false on this path
      }
      certain = t == Truth::kTrue;
    };
    clause(Field(st, "condition"), Field(st, "consequence"));
    for (TSNode c : NamedChildren(st)) {
      if (certain) {
        Skip(c);  // an earlier clause surely runs
        continue;
      }
      if (Is(c, "elif_clause"))
        clause(Field(c, "condition"), Field(c, "consequence"));
      else if (Is(c, "else_clause"))
        clause(TSNode{}, Field(c, "body"));
    }
    if (!certain) out = Union(out, in);
    *s = out;
  }

  const SyntaxTree& tree_;
  const ValueQuestion& q_;
  bool core_true_;
  // The states at the `break`s and `continue`s of each enclosing loop.
  std::vector<State> breaks_, continues_;
  std::map<std::size_t, std::vector<TSNode>> loop_defs_;  // LoopDefs, by the loop's byte
  std::optional<std::vector<TSNode>> at_use_;
  std::vector<State> returned_;
  std::vector<Binding> binds_;  // ScopeBindings, in document order
  std::vector<bool> met_;       // by binds_' index: Meet
};

void Functions(const SyntaxTree& tree, TSNode root, const std::string& name,
               std::vector<TSNode>* out) {
  std::vector<TSNode> stack{root};  // pre-order, iteratively: nesting costs no stack
  while (!stack.empty()) {
    TSNode n = stack.back();
    stack.pop_back();
    if (Is(n, "function_definition")) {
      TSNode id = Field(n, "name");
      if (!ts_node_is_null(id) &&
          tree.bytes().substr(ts_node_start_byte(id),
                              ts_node_end_byte(id) - ts_node_start_byte(id)) == name)
        out->push_back(n);
    }
    PushNamedChildren(n, &stack);
  }
}

// Every node of `n`'s subtree that is the condition (outer `not`s and
// parentheses aside), in document order; inside the functions, classes and
// lambdas nested in it only with `nested` (their tests read names of their
// own scope).
void Conditions(const SyntaxTree& tree, TSNode root, const std::string& canonical, bool nested,
                std::vector<TSNode>* out) {
  std::vector<TSNode> stack{root};  // pre-order, iteratively: nesting costs no stack
  while (!stack.empty()) {
    TSNode n = stack.back();
    stack.pop_back();
    if (!nested && (Is(n, "function_definition") || Is(n, "class_definition") || Is(n, "lambda"))) {
      continue;
    }
    if (ts_node_is_named(n) && !Is(n, "not_operator") && !Is(n, "parenthesized_expression") &&
        IsCondition(tree, n, canonical)) {
      out->push_back(n);
      continue;
    }
    PushNamedChildren(n, &stack);
  }
}

}  // namespace

namespace {

// Whether `n` is part of a larger expression, where an unbracketed
// conditional expression in its place would take its neighbours in: only
// where it stands alone (an assignment's value, a statement, an element or
// argument, inside brackets) it is not.
bool IsOperand(TSNode n) {
  TSNode p = ts_node_parent(n);
  if (ts_node_is_null(p)) return false;
  if (Is(p, "assignment") || Is(p, "augmented_assignment")) {
    TSNode right = Field(p, "right");
    return ts_node_is_null(right) || !ts_node_eq(right, n);
  }
  for (const char* alone : {"expression_statement", "parenthesized_expression", "return_statement",
                            "argument_list", "list", "tuple", "set", "expression_list"}) {
    if (Is(p, alone)) return false;
  }
  if (Is(p, "pair") || Is(p, "keyword_argument")) {
    TSNode value = Field(p, "value");
    return ts_node_is_null(value) || !ts_node_eq(value, n);
  }
  return true;
}

}  // namespace

ReachingValues FindReachingValues(const SyntaxTree& tree, const ValueQuestion& q) {
  ReachingValues out;
  // The path, said of the condition without its `not`.
  bool core_true = q.holds != q.condition.negated;
  out.condition_true = core_true;
  std::string path =
      fmt::format("where `{}` is {}", q.condition_as_written, q.holds ? "true" : "false");
  std::string knob = q.key.empty() ? q.variable : fmt::format("{}['{}']", q.variable, q.key);
  std::vector<TSNode> functions;
  Functions(tree, tree.Root(), q.function, &functions);
  if (functions.empty()) {
    out.problem = fmt::format("no function `{}` in the file", q.function);
    return out;
  }
  for (TSNode fn : functions) {
    TSNode body = Field(fn, "body");
    // The wrap must read what every test of the function reads; a test in
    // a nested function is checked only where the function has none.
    std::vector<TSNode> tests;
    Conditions(tree, body, q.condition.canonical, false, &tests);
    if (tests.empty()) {
      Conditions(tree, body, q.condition.canonical, true, &tests);
      if (!tests.empty()) tests.resize(1);  // the first one
    }
    if (tests.empty()) {
      if (out.problem.empty()) {
        out.problem = fmt::format("`{}` is tested nowhere in {}: no path {}",
                                  q.condition_as_written, q.function, path);
        out.problem_at = ts_node_start_byte(fn);
      }
      continue;
    }
    if (out.condition_text.empty()) {
      out.condition_text = std::string(
          tree.bytes().substr(ts_node_start_byte(tests.front()),
                              ts_node_end_byte(tests.front()) - ts_node_start_byte(tests.front())));
      out.condition_names = NamesRead(tree, tests.front());
      for (std::vector<TSNode> stack{tests.front()}; !stack.empty();) {
        TSNode n = stack.back();
        stack.pop_back();
        if (Is(n, "attribute")) {
          TSNode attr = Field(n, "attribute");
          if (!ts_node_is_null(attr)) out.condition_names.emplace_back(TextOf(tree, attr));
        }
        PushNamedChildren(n, &stack);
      }
    }
    std::optional<FixedNames> fixed;  // made once, where a value is shared
    Walker here(tree, q, core_true);
    Walker there(tree, q, !core_true);
    std::vector<TSNode> defs = here.Run(fn);
    std::vector<TSNode> other_defs = there.Run(fn);
    if (!here.problem_.empty()) {
      out.problem = here.problem_;
      out.problem_at = here.problem_at_;
      out.values.clear();
      return out;
    }
    // Closed world, on either path: a binding neither walk followed.
    for (const Walker* w : {&here, &there}) {
      if (auto unaccounted = w->Unaccounted()) {
        out.problem = unaccounted->first;
        out.problem_at = unaccounted->second;
        out.values.clear();
        return out;
      }
    }
    std::vector<TSNode> leaves, other;
    for (TSNode d : defs) here.Leaves(d, &leaves);
    for (TSNode d : other_defs) there.Leaves(d, &other);
    for (TSNode d : there.read_defs_) there.Leaves(d, &other);
    if (leaves.empty() && out.problem.empty()) {
      out.problem = here.read_at_ ? fmt::format(
                                        "{} is read here, but assigned nowhere before "
                                        "on the path {} in {}",
                                        knob, path, q.function)
                                  : fmt::format("{} is assigned nowhere on the path {} in {}", knob,
                                                path, q.function);
      out.problem_at = here.read_at_ ? *here.read_at_ : ts_node_start_byte(fn);
    }
    for (TSNode l : leaves) {
      if (here.IsOpaque(l)) {
        std::string_view text = TextOf(tree, l);
        text = text.substr(0, text.find('\n'));
        out.problem = fmt::format(
            "{} is bound by `{}` (line {}), which reaches its read {}: no "
            "value of its own to rewrite",
            knob, text, ts_node_start_point(l).row + 1, path);
        out.problem_at = ts_node_start_byte(l);
        out.values.clear();
        return out;
      }
      ReachingValue v;
      v.begin = ts_node_start_byte(l);
      v.end = ts_node_end_byte(l);
      // A call that reads no names (`get_max_shared_memory_bytes()`) is
      // still computed at run time; RunTimeInputs names the others' inputs.
      if (Is(l, "call") && !RunTimeInputs(tree, v.begin, v.end)) {
        out.problem = fmt::format("{} is computed by `{}`: no literal to rewrite", knob,
                                  tree.bytes().substr(v.begin, v.end - v.begin));
        out.problem_at = v.begin;
        out.values.clear();
        return out;
      }
      v.text = std::string(tree.bytes().substr(v.begin, v.end - v.begin));
      v.operand = IsOperand(l);
      // Shared also where the other path keeps a whole conditional
      // expression this path decides (`A if C and X else B`: where C
      // holds, X still picks B).
      v.shared = std::any_of(other.begin(), other.end(), [&](TSNode o) {
        return ts_node_start_byte(o) <= v.begin && v.end <= ts_node_end_byte(o);
      });
      // The wrap tests the condition where the value is assigned: only
      // where the condition's names are bound there as at the test.
      std::optional<WrapHazard> hazard;
      // Every test reads the same condition: a binding or code between the
      // value and any test after it lies before the last one, and one
      // between any test before it and the value, after the first. So the
      // last test after the value and the first before it decide (one walk
      // each, however many tests the function has).
      if (v.shared) {
        if (!fixed) fixed.emplace(tree, fn);
        std::size_t stated = ts_node_start_byte(StatementAround(fn, v.begin));
        TSNode last_after{}, first_before{};
        for (TSNode test : tests) {
          if (ts_node_start_byte(test) > stated) {
            last_after = test;
          } else if (ts_node_is_null(first_before)) {
            first_before = test;
          }
        }
        if (!ts_node_is_null(last_after)) {
          hazard = WrapHazardOf(tree, fn, v.begin, last_after, *fixed);
        }
        if (!hazard && !ts_node_is_null(first_before)) {
          hazard = WrapHazardOf(tree, fn, v.begin, first_before, *fixed);
        }
      }
      if (hazard && !hazard->nested_in.empty()) {
        out.problem = fmt::format(
            "{} = {} (line {}) is shared by both paths, and wrapping it would test `{}` where "
            "{} does not bind it: the test at line {} is inside {}, which binds it at line {}: "
            "no safe rewrite",
            knob, v.text, ts_node_start_point(l).row + 1, hazard->rebinding.name, q.function,
            hazard->test_line, hazard->nested_in, hazard->rebinding.line);
        out.problem_at = v.begin;
        out.values.clear();
        return out;
      }
      if (hazard && !hazard->guard.empty()) {
        out.problem = fmt::format(
            "{} = {} (line {}) is shared by both paths, and wrapping it would test the condition "
            "{}: {}: no safe rewrite",
            knob, v.text, ts_node_start_point(l).row + 1,
            hazard->guard_holds_test
                ? fmt::format("outside the `{}` at line {} that holds the test (line {})",
                              hazard->guard, hazard->guard_line, hazard->test_line)
                : fmt::format("inside the `{}` at line {}, which does not hold the test (line {})",
                              hazard->guard, hazard->guard_line, hazard->test_line),
            hazard->guard_holds_test
                ? "where the test raises and the exception is caught or suppressed there, the "
                  "code runs on, and the wrap would raise"
                : "where the test would raise, the wrap raises where other handlers apply");
        out.problem_at = v.begin;
        out.values.clear();
        return out;
      }
      if (hazard && hazard->effect) {
        out.problem = fmt::format(
            "{} = {} (line {}) is shared by both paths, and wrapping it would evaluate the "
            "condition once more, where `{}` (line {}) runs code that may act, or answer "
            "otherwise, the second time: no safe rewrite",
            knob, v.text, ts_node_start_point(l).row + 1, hazard->effect->by,
            hazard->effect->by_line);
        out.problem_at = v.begin;
        out.values.clear();
        return out;
      }
      if (hazard && hazard->state) {
        const StateHazard& st = *hazard->state;
        out.problem = fmt::format(
            "{} = {} (line {}) is shared by both paths, and wrapping it would read `{}` there, "
            "not at the test (line {}): `{}` (line {}) runs in between and may change what it "
            "denotes (only names imported from vllm, and locals computed from them, are fixed "
            "for a run): no safe rewrite",
            knob, v.text, ts_node_start_point(l).row + 1, st.read, hazard->test_line, st.by,
            st.by_line);
        out.problem_at = v.begin;
        out.values.clear();
        return out;
      }
      if (hazard) {
        out.problem = fmt::format(
            "{} = {} (line {}) is shared by both paths, and wrapping it would test `{}` {} line {} "
            "assigns it{}: no safe rewrite",
            knob, v.text, ts_node_start_point(l).row + 1, hazard->rebinding.name,
            hazard->before_test ? "before" : "after", hazard->rebinding.line,
            hazard->before_test ? ""
                                : fmt::format(", unlike the test at line {}", hazard->test_line));
        out.problem_at = v.begin;
        out.values.clear();
        return out;
      }
      out.values.push_back(v);
    }
  }
  if (!out.values.empty()) out.problem.clear();
  std::sort(out.values.begin(), out.values.end(),
            [](const ReachingValue& a, const ReachingValue& b) { return a.begin < b.begin; });
  return out;
}

namespace {

// `text` as an operand of a conditional expression: as it is where it
// binds tighter (a number, a name, an attribute, or one bracketed whole),
// else in parentheses. `101, 102`, `lambda: 8` and `a if X else b` would
// otherwise take the wrap into themselves.
std::string Operand(const std::string& text) {
  auto word = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
  };
  if (!text.empty() && std::all_of(text.begin(), text.end(), word)) return text;
  if (text.size() >= 2 && std::string_view("([{").find(text.front()) != std::string_view::npos) {
    // Bracketed whole: the bracket opened first closes last.
    const char open = text.front();
    const char close = open == '(' ? ')' : open == '[' ? ']' : '}';
    int depth = 0;
    char quote = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
      char c = text[i];
      if (quote != 0) {
        if (c == '\\')
          ++i;
        else if (c == quote)
          quote = 0;
        continue;
      }
      if (c == '\'' || c == '"')
        quote = c;
      else if (c == open)
        ++depth;
      else if (c == close && --depth == 0) {
        if (i + 1 == text.size()) return text;
        break;
      }
    }
  }
  return "(" + text + ")";
}

}  // namespace

std::string OnThisPath(const std::string& condition_text, bool condition_true,
                       const std::string& kept, const std::string& value) {
  return condition_true
             ? fmt::format("{} if {} else {}", Operand(value), condition_text, Operand(kept))
             : fmt::format("{} if {} else {}", Operand(kept), condition_text, Operand(value));
}

}  // namespace muh
