#include "engine/liveness/condition.h"

#include <cctype>
#include <cmath>
#include <set>
#include <string>

#include "engine/liveness/assumptions.h"
#include "engine/python/py_literal.h"
#include "engine/python/syntax_tree.h"

namespace muh {

Tri Not(Tri t) {
  if (t == Tri::kUnknown) return t;
  return t == Tri::kTrue ? Tri::kFalse : Tri::kTrue;
}

namespace {

std::string_view Text(std::string_view src, TSNode n) {
  return src.substr(ts_node_start_byte(n), ts_node_end_byte(n) - ts_node_start_byte(n));
}

std::string_view Type(TSNode n) { return ts_node_type(n); }

ConditionResult Known(Tri v, std::string why) {
  ConditionResult r;
  r.value = v;
  r.why = std::move(why);
  return r;
}

// The platforms on which a predicate named `name` holds; nullopt for a name
// that is no platform predicate.
std::optional<std::vector<std::string>> PredicatePlatforms(std::string_view name) {
  if (name == "is_cuda") return std::vector<std::string>{"cuda"};
  if (name == "is_cuda_alike") return std::vector<std::string>{"cuda", "rocm"};
  if (name == "is_hip" || name == "is_rocm") return std::vector<std::string>{"rocm"};
  if (name == "is_xpu") return std::vector<std::string>{"xpu"};
  if (name == "is_cpu") return std::vector<std::string>{"cpu"};
  if (name == "is_tpu") return std::vector<std::string>{"tpu"};
  if (name == "is_hpu") return std::vector<std::string>{"hpu"};
  if (name == "is_neuron") return std::vector<std::string>{"neuron"};
  if (name == "is_openvino") return std::vector<std::string>{"openvino"};
  return std::nullopt;
}

std::string_view LastComponent(std::string_view dotted) {
  std::size_t dot = dotted.rfind('.');
  return dot == std::string_view::npos ? dotted : dotted.substr(dot + 1);
}

Tri Truthy(const std::string& canonical) {
  if (canonical == "False" || canonical == "None" || canonical == "0" || canonical == "''" ||
      canonical == "\"\"") {
    return Tri::kFalse;
  }
  return Tri::kTrue;
}

// `has_device_capability(80)` or `(8, 0)`: the capability it asks for, x10.
std::optional<int> CapabilityArgument(std::string_view src, TSNode args) {
  if (ts_node_named_child_count(args) != 1) return std::nullopt;
  TSNode a = ts_node_named_child(args, 0);
  if (Type(a) == "integer") {
    auto v = CanonicalLiteral(Text(src, a));
    if (!v) return std::nullopt;
    return std::stoi(*v);
  }
  if (Type(a) == "tuple" && ts_node_named_child_count(a) == 2) {
    auto major = CanonicalLiteral(Text(src, ts_node_named_child(a, 0)));
    auto minor = CanonicalLiteral(Text(src, ts_node_named_child(a, 1)));
    if (!major || !minor) return std::nullopt;
    return std::stoi(*major) * 10 + std::stoi(*minor);
  }
  return std::nullopt;
}

// A name's value: the constant flag it is, if any.
ConditionResult NameValue(std::string_view text, const ConditionContext& ctx) {
  if (!ctx.flag) return ConditionResult{};
  std::string name(text);
  auto flag = ctx.flag(name);
  if (!flag) return ConditionResult{};
  ConditionResult r = Known(Truthy(flag->canonical), name + " is " + flag->canonical);
  r.evidence.push_back(flag->evidence);
  return r;
}

// Whether `text` is one ASCII name that the grammar reads as an identifier
// in `(text)`: not a keyword, a soft keyword or a word of Python 2's
// statements.
bool IsPlainName(std::string_view text) {
  if (text.empty() || std::isdigit(static_cast<unsigned char>(text[0]))) return false;
  for (char c : text) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  }
  static const std::set<std::string_view> kWords = {
      "False", "None",     "True",  "and",    "as",   "assert",    "async",  "await",    "break",
      "class", "continue", "def",   "del",    "elif", "else",      "except", "finally",  "for",
      "from",  "global",   "if",    "import", "in",   "is",        "lambda", "nonlocal", "not",
      "or",    "pass",     "raise", "return", "try",  "while",     "with",   "yield",    "_",
      "case",  "match",    "type",  "print",  "exec", "__future__"};
  return kWords.count(text) == 0;
}

// Whether `text` is plain names joined by dots (`self.log_stats`): an
// attribute, which nothing here decides.
bool IsAttributeChain(std::string_view text) {
  std::size_t dot = text.find('.');
  if (dot == std::string_view::npos) return false;
  for (std::size_t at = 0;; at = dot + 1, dot = text.find('.', at)) {
    if (!IsPlainName(text.substr(at, dot == std::string_view::npos ? dot : dot - at))) return false;
    if (dot == std::string_view::npos) return true;
  }
}

class Evaluator {
 public:
  Evaluator(std::string_view src, const ConditionContext& ctx) : src_(src), ctx_(ctx) {}

  ConditionResult Eval(TSNode n) const {
    // A condition nested deeper than any a person writes is not decided:
    // unknown, and no stack exhausted on a generated one.
    if (depth_ >= kMaxDepth) return ConditionResult{};
    ++depth_;
    ConditionResult r = EvalNode(n);
    --depth_;
    return r;
  }

 private:
  static constexpr int kMaxDepth = 256;
  mutable int depth_ = 0;

  ConditionResult EvalNode(TSNode n) const {
    std::string_view type = Type(n);
    if (type == "parenthesized_expression" && ts_node_named_child_count(n) == 1) {
      return Eval(ts_node_named_child(n, 0));
    }
    if (type == "true") return Known(Tri::kTrue, "True");
    if (type == "false") return Known(Tri::kFalse, "False");
    if (type == "none") return Known(Tri::kFalse, "None");
    if (type == "integer") {
      auto v = CanonicalLiteral(Text(src_, n));
      if (v) return Known(Truthy(*v), std::string(Text(src_, n)));
    }
    if (type == "identifier") return NameValue(Text(src_, n), ctx_);
    if (type == "not_operator") {
      ConditionResult r = Eval(ts_node_child_by_field_name(n, "argument", 8));
      r.value = Not(r.value);
      if (r.value != Tri::kUnknown) r.why = "not (" + r.why + ")";
      return r;
    }
    if (type == "boolean_operator") return Boolean(n);
    if (type == "call") return Call(n);
    if (type == "comparison_operator") return Comparison(n);
    return ConditionResult{};
  }

  ConditionResult Boolean(TSNode n) const {
    TSNode op = ts_node_child_by_field_name(n, "operator", 8);
    bool is_and = Type(op) == "and";
    ConditionResult l = Eval(ts_node_child_by_field_name(n, "left", 4));
    ConditionResult r = Eval(ts_node_child_by_field_name(n, "right", 5));
    Tri short_value = is_and ? Tri::kFalse : Tri::kTrue;
    // Either side at the short-circuit value decides the whole.
    if (l.value == short_value) return l;
    if (r.value == short_value) return r;
    if (l.value == Tri::kUnknown || r.value == Tri::kUnknown) return ConditionResult{};
    ConditionResult both = l;
    both.why = l.why + (is_and ? " and " : " or ") + r.why;
    both.evidence.insert(both.evidence.end(), r.evidence.begin(), r.evidence.end());
    return both;
  }

  ConditionResult Call(TSNode n) const {
    std::string_view fn = Text(src_, ts_node_child_by_field_name(n, "function", 8));
    TSNode args = ts_node_child_by_field_name(n, "arguments", 9);
    std::string_view name = LastComponent(fn);
    const LivenessFacts& facts = *ctx_.facts;
    bool predicate = PredicatePlatforms(name) || name == "has_device_capability";
    if (predicate && ctx_.platform_name && !ctx_.platform_name(fn.substr(0, fn.find('.')))) {
      return ConditionResult{};  // a function of the program's own by that name
    }
    if (predicate && ctx_.predicate_redefined) {
      if (std::optional<Evidence> own = ctx_.predicate_redefined(name)) {
        ConditionResult open;
        open.why = own->what + " (" + own->path + ":" + std::to_string(own->line) + ")";
        open.evidence.push_back(*own);
        return open;
      }
    }
    if (auto platforms = PredicatePlatforms(name)) {
      if (ts_node_named_child_count(args) != 0) return ConditionResult{};
      if (ctx_.consulted) ctx_.consulted(kPlatformAssumption);
      if (facts.platform.empty()) return ConditionResult{};  // any platform
      bool holds = false;
      for (const std::string& p : *platforms) holds = holds || p == facts.platform;
      return Known(
          holds ? Tri::kTrue : Tri::kFalse,
          std::string(fn) + "() is " + (holds ? "True" : "False") + " on " + facts.platform);
    }
    if (name == "has_device_capability") {
      auto wanted = CapabilityArgument(src_, args);
      if (!wanted) return ConditionResult{};
      if (ctx_.consulted) ctx_.consulted(kPlatformAssumption);
      if (facts.compute_capability <= 0) return ConditionResult{};  // any capability
      int have = static_cast<int>(std::lround(facts.compute_capability * 10));
      bool holds = have >= *wanted;
      return Known(holds ? Tri::kTrue : Tri::kFalse,
                   std::string(Text(src_, n)) + " is " + (holds ? "True" : "False") +
                       " at compute capability " + std::to_string(have / 10) + "." +
                       std::to_string(have % 10));
    }
    return ConditionResult{};
  }

  ConditionResult Comparison(TSNode n) const {
    if (ts_node_named_child_count(n) != 2 || ts_node_child_count(n) != 3) return ConditionResult{};
    std::string_view op = Type(ts_node_child(n, 1));
    if (op != "==" && op != "!=") return ConditionResult{};
    const LivenessFacts& facts = *ctx_.facts;
    for (uint32_t side = 0; side < 2; ++side) {
      std::string_view operand = Text(src_, ts_node_named_child(n, side));
      std::string_view other = Text(src_, ts_node_named_child(n, 1 - side));
      for (const PlatformMarker& m : facts.markers) {
        if (m.text != operand || m.platform == facts.platform) continue;
        if (!m.other_suffix.empty() &&
            (other.size() < m.other_suffix.size() ||
             other.substr(other.size() - m.other_suffix.size()) != m.other_suffix)) {
          continue;
        }
        if (ctx_.consulted) ctx_.consulted(kPlatformAssumption);
        if (!m.env.empty() && ctx_.consulted) ctx_.consulted(m.env);
        if (facts.platform.empty() || !MarkerDecides(m, facts)) return ConditionResult{};
        if (ctx_.marker_made) {
          if (std::optional<Evidence> made = ctx_.marker_made(m)) {
            ConditionResult open;
            open.why = m.text + " is made by the tree's own code where " + facts.platform +
                       " may run it (" + made->path + ":" + std::to_string(made->line) + ")";
            open.evidence.push_back(*made);
            return open;
          }
        }
        Tri v = op == "==" ? Tri::kFalse : Tri::kTrue;
        std::string why = m.text + " is " + m.platform + "'s, not taken on " + facts.platform;
        if (!m.env.empty()) why += " with " + EnvText(facts, m.env);
        return Known(v, why);
      }
    }
    return ConditionResult{};
  }

  std::string_view src_;
  const ConditionContext& ctx_;
};

// `(text)` parsed alone: the tree and the offset of text's first byte in it.
struct Wrapped {
  std::string bytes;
  std::optional<SyntaxTree> tree;
  TSNode expr;
};

bool Wrap(std::string_view text, Wrapped* w) {
  w->bytes = "(" + std::string(text) + "\n)\n";
  // Conditions are parsed by the hundred: one parser per thread.
  thread_local PythonParser parser;
  w->tree.emplace(parser.Parse(w->bytes));
  if (w->tree->HasError()) return false;
  TSNode root = w->tree->Root();
  if (ts_node_named_child_count(root) != 1) return false;
  TSNode stmt = ts_node_named_child(root, 0);
  if (Type(stmt) != "expression_statement" || ts_node_named_child_count(stmt) != 1) return false;
  w->expr = ts_node_named_child(stmt, 0);
  return true;
}

}  // namespace

ConditionResult EvaluateCondition(std::string_view text, const ConditionContext& ctx) {
  // One name, the commonest condition (`if TYPE_CHECKING:`, `if HAS_TRITON:`),
  // needs no parse; tree-sitter takes longer over `(NAME)` than over most
  // longer conditions.
  if (IsPlainName(text)) return NameValue(text, ctx);
  if (IsAttributeChain(text)) return ConditionResult{};  // `self.use_ray`: no fact decides it
  Wrapped w;
  if (!Wrap(text, &w)) return ConditionResult{};
  return Evaluator(w.bytes, ctx).Eval(w.expr);
}

ConditionResult BranchTaken(std::string_view text, std::size_t offset,
                            const ConditionContext& ctx) {
  ConditionResult taken = Known(Tri::kTrue, "");
  Wrapped w;
  if (!Wrap(text, &w)) return taken;
  Evaluator eval(w.bytes, ctx);
  uint32_t at = static_cast<uint32_t>(offset + 1);  // past the '('
  TSNode n = ts_node_descendant_for_byte_range(w.expr, at, at);
  for (; !ts_node_is_null(n); n = ts_node_parent(n)) {
    TSNode parent = ts_node_parent(n);
    if (ts_node_is_null(parent) || Type(parent) != "conditional_expression") continue;
    if (ts_node_named_child_count(parent) != 3) continue;
    TSNode body = ts_node_named_child(parent, 0);
    TSNode orelse = ts_node_named_child(parent, 2);
    bool in_body = ts_node_eq(n, body);
    if (!in_body && !ts_node_eq(n, orelse)) continue;  // the condition itself
    ConditionResult cond = eval.Eval(ts_node_named_child(parent, 1));
    if (cond.value == Tri::kUnknown) continue;
    if ((cond.value == Tri::kTrue) != in_body) {
      cond.value = Tri::kFalse;
      cond.why = std::string(in_body ? "the value taken only when " : "the value taken unless ") +
                 std::string(Text(w.bytes, ts_node_named_child(parent, 1))) + ", and " + cond.why;
      return cond;
    }
  }
  return taken;
}

}  // namespace muh
