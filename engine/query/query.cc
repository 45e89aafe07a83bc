#include "engine/query/query.h"

#include <fmt/format.h>
#include <re2/re2.h>
#include <string.h>

#include <algorithm>
#include <cctype>
#include <map>

#include "engine/base/logging.h"
#include "engine/query/no_match.h"
#include "engine/query/query_text_checks.h"

namespace muh {

struct Query::Predicate {
  enum class Op { kEq, kNotEq, kMatch, kNotMatch, kAnyOf };
  Op op = Op::kEq;
  uint32_t capture = 0;
  bool rhs_is_capture = false;
  uint32_t rhs_capture = 0;
  std::vector<std::string> strings;  // literal operands
  std::shared_ptr<const re2::RE2> regex;
};

namespace {

// Nesting beyond any query a rule needs; our parser and libtree-sitter's
// recurse by level (a helper probe: 50,000 levels overflowed the stack).
constexpr int kMaxQueryDepth = 256;

std::string_view NodeText(std::string_view bytes, TSNode node) {
  uint32_t b = ts_node_start_byte(node);
  uint32_t e = ts_node_end_byte(node);
  return bytes.substr(b, e - b);
}

}  // namespace

Query::Query(std::string_view source, QueryEngine engine)
    : engine_(engine), tree_sitter_(tree_sitter_python(), source) {}
Query::~Query() = default;

namespace {

struct Operand {
  bool is_capture = false;
  uint32_t capture = 0;
  std::string text;
};

// Checks one predicate and turns it into a Predicate, or returns an error
// message. Shared by both compilers so that their messages are identical.
std::string BuildPredicate(const std::string& name, const std::vector<Operand>& ops,
                           Query::Predicate* pred) {
  using Op = Query::Predicate::Op;
  if (name == "eq?")
    pred->op = Op::kEq;
  else if (name == "not-eq?")
    pred->op = Op::kNotEq;
  else if (name == "match?")
    pred->op = Op::kMatch;
  else if (name == "not-match?")
    pred->op = Op::kNotMatch;
  else if (name == "any-of?")
    pred->op = Op::kAnyOf;
  else {
    return fmt::format(
        "unknown predicate '#{}' (supported: #eq?, #not-eq?, #match?, "
        "#not-match?, #any-of?)",
        name);
  }
  std::size_t nargs = ops.size();
  if (nargs < 2 || !ops[0].is_capture) {
    return fmt::format("'#{}' takes a capture and at least one more operand", name);
  }
  pred->capture = ops[0].capture;
  if (pred->op != Op::kAnyOf && nargs != 2) {
    return fmt::format("'#{}' takes exactly two operands, got {}", name, nargs);
  }
  for (std::size_t k = 1; k < nargs; ++k) {
    if (ops[k].is_capture) {
      if (pred->op != Op::kEq && pred->op != Op::kNotEq) {
        return fmt::format("'#{}' needs a string operand, not a capture", name);
      }
      pred->rhs_is_capture = true;
      pred->rhs_capture = ops[k].capture;
    } else {
      pred->strings.push_back(ops[k].text);
    }
  }
  if (pred->op == Op::kMatch || pred->op == Op::kNotMatch) {
    re2::RE2::Options options;
    options.set_log_errors(false);
    auto re = std::make_shared<const re2::RE2>(pred->strings[0], options);
    if (!re->ok()) {
      return fmt::format("'#{}' has an invalid regular expression '{}': {}", name, pred->strings[0],
                         re->error());
    }
    pred->regex = std::move(re);
  }
  return "";
}

// Does `text` satisfy a predicate whose operand is a literal?
bool HoldsFor(const Query::Predicate& p, std::string_view text) {
  using Op = Query::Predicate::Op;
  switch (p.op) {
    case Op::kEq:
      return text == p.strings[0];
    case Op::kNotEq:
      return text != p.strings[0];
    case Op::kMatch:
      return re2::RE2::PartialMatch(text, *p.regex);
    case Op::kNotMatch:
      return !re2::RE2::PartialMatch(text, *p.regex);
    case Op::kAnyOf:
      return std::find(p.strings.begin(), p.strings.end(), text) != p.strings.end();
  }
  return false;
}

}  // namespace

std::unique_ptr<Query> Query::Compile(std::string_view source, QueryError* error,
                                      QueryEngine engine) {
  if (std::size_t at = TooDeep(source, kMaxQueryDepth); at != std::string_view::npos) {
    error->offset = at;
    error->message = fmt::format("query nests deeper than {} levels", kMaxQueryDepth);
    return nullptr;
  }
  if (std::size_t at = StackedQuantifier(source); at != std::string_view::npos) {
    error->offset = at;
    error->message = "query syntax error: a quantifier cannot follow another quantifier";
    return nullptr;
  }
  if (std::size_t at = FieldOnPredicate(source); at != std::string_view::npos) {
    error->offset = at;
    error->message = "query syntax error: a field name cannot label a predicate";
    return nullptr;
  }
  std::unique_ptr<Query> q(new Query(source, engine));
  // Per pattern: its start and its predicates as (name, operands).
  std::vector<std::size_t> starts;
  std::vector<std::vector<std::pair<std::string, std::vector<Operand>>>> raw_predicates;
  if (engine == QueryEngine::kAuto) q->patterns_ = ParseQuery(source, tree_sitter_python());
  if (q->patterns_) {
    q->capture_names_ = q->patterns_->capture_names;
    for (const QueryPattern& p : q->patterns_->patterns) {
      starts.push_back(p.start);
      auto& list = raw_predicates.emplace_back();
      for (const QueryPredicate& pp : p.predicates) {
        std::vector<Operand> ops;
        for (const QueryOperand& o : pp.operands) ops.push_back({o.is_capture, o.capture, o.text});
        list.emplace_back(pp.name, std::move(ops));
      }
    }
  } else {
    // Every tree goes to libtree-sitter, and its errors are the query's.
    const TSQuery* raw = q->tree_sitter_.Get();
    if (raw == nullptr) {
      *error = q->tree_sitter_.error();
      SuggestCapture(source, error);
      return nullptr;
    }
    q->capture_names_ = CaptureNames(raw);
    uint32_t npat = ts_query_pattern_count(raw);
    for (uint32_t p = 0; p < npat; ++p) {
      starts.push_back(ts_query_start_byte_for_pattern(raw, p));
      auto& list = raw_predicates.emplace_back();
      uint32_t nsteps = 0;
      const TSQueryPredicateStep* steps = ts_query_predicates_for_pattern(raw, p, &nsteps);
      uint32_t i = 0;
      while (i < nsteps) {
        uint32_t j = i;
        while (j < nsteps && steps[j].type != TSQueryPredicateStepTypeDone) ++j;
        // steps[i] is the predicate name, steps[i+1..j) its operands.
        uint32_t len = 0;
        std::string name = ts_query_string_value_for_id(raw, steps[i].value_id, &len);
        std::vector<Operand> ops;
        for (uint32_t k = i + 1; k < j; ++k) {
          Operand o;
          if (steps[k].type == TSQueryPredicateStepTypeCapture) {
            o.is_capture = true;
            o.capture = steps[k].value_id;
          } else {
            const char* v = ts_query_string_value_for_id(raw, steps[k].value_id, &len);
            o.text.assign(v, len);
          }
          ops.push_back(std::move(o));
        }
        list.emplace_back(std::move(name), std::move(ops));
        i = j + 1;
      }
    }
  }
  q->predicates_.resize(raw_predicates.size());
  for (std::size_t p = 0; p < raw_predicates.size(); ++p) {
    std::map<std::string, int> seen;  // occurrences of each predicate so far
    for (const auto& [name, ops] : raw_predicates[p]) {
      Predicate pred;
      std::string msg = BuildPredicate(name, ops, &pred);
      if (!msg.empty()) {
        error->offset = FindPredicate(source, starts[p], name, seen[name]);
        error->message = msg;
        return nullptr;
      }
      ++seen[name];
      q->predicates_[p].push_back(std::move(pred));
    }
  }
  return q;
}

std::vector<std::vector<std::string>> Query::RequiredLiterals() const {
  std::vector<std::vector<std::string>> out;
  for (LiteralGroup& g : LiteralGroups(false)) out.push_back(std::move(g.texts));
  return out;
}

std::vector<Query::LiteralGroup> Query::RequiredLiteralGroups() const {
  return LiteralGroups(true);
}

std::vector<Query::LiteralGroup> Query::LiteralGroups(bool flag_identifiers) const {
  // A literal is required only when every pattern requires it; with one
  // pattern (the common case) that is simply its own groups.
  if (predicates_.size() != 1) return {};
  return PatternLiteralGroups(0, flag_identifiers);
}

std::vector<Query::LiteralGroup> Query::PatternLiteralGroups(std::size_t i,
                                                             bool flag_identifiers) const {
  std::vector<LiteralGroup> groups;
  for (const Predicate& p : predicates_[i]) {
    if (p.rhs_is_capture) continue;
    // A predicate on a capture that may be absent holds vacuously then, so
    // its literal is not required.
    bool required = false;
    if (patterns_) {
      required = patterns_->patterns[i].required_captures[p.capture];
    } else {
      TSQuantifier q = ts_query_capture_quantifier_for_id(tree_sitter_.Get(),
                                                          static_cast<uint32_t>(i), p.capture);
      required = q == TSQuantifierOne || q == TSQuantifierOneOrMore;
    }
    if (!required) continue;
    if (p.op == Predicate::Op::kEq || p.op == Predicate::Op::kAnyOf) {
      bool identifier =
          flag_identifiers && patterns_ &&
          CapturesOnlyIdentifiers(patterns_->patterns[i], patterns_->language, p.capture);
      groups.push_back(LiteralGroup{p.strings, identifier});
    }
  }
  return groups;
}

bool Query::MayMatchBytes(std::string_view bytes) const {
  // Some pattern must find every group's literal (one of its
  // alternatives) in the bytes; a pattern that requires none may match
  // anything.
  for (std::size_t i = 0; i < predicates_.size(); ++i) {
    bool all = true;
    for (const LiteralGroup& g : PatternLiteralGroups(i, false)) {
      bool any = std::any_of(g.texts.begin(), g.texts.end(), [&](const std::string& t) {
        return bytes.find(t) != std::string_view::npos;
      });
      all = all && any;
    }
    if (all) return true;
  }
  return predicates_.empty();
}

bool Query::UsesTreeSitterMatcher() const { return !patterns_; }

namespace {

// Whether a pattern node can only match a node other than `module`.
bool NeverModule(const QueryNode& n, TSSymbol module) {
  switch (n.kind) {
    case QueryNode::Kind::kNamed:
      return module >= n.symbols.size() || !n.symbols[module];
    case QueryNode::Kind::kAnonymous:
      return true;
    case QueryNode::Kind::kAlternation:
      return std::all_of(n.branches.begin(), n.branches.end(),
                         [&](const QueryNode& b) { return NeverModule(b, module); });
    case QueryNode::Kind::kAnyNamed:
    case QueryNode::Kind::kAny:
      return false;
  }
  return false;
}

}  // namespace

bool Query::InsideOneStatement() const {
  if (!patterns_ || patterns_->patterns.empty()) return false;
  const TSSymbol module = ts_language_symbol_for_name(patterns_->language, "module", 6, true);
  if (module == 0) return false;
  return std::all_of(patterns_->patterns.begin(), patterns_->patterns.end(),
                     [&](const QueryPattern& p) { return NeverModule(p.root, module); });
}

std::optional<QueryError> Query::StructureProblem() const {
  if (!patterns_ || tree_sitter_.Get() != nullptr) return std::nullopt;
  return tree_sitter_.error();
}

namespace {

struct Bound {
  uint32_t capture;
  TSNode node;
};

Capture ToCapture(const std::string& name, std::string_view bytes, TSNode node) {
  Capture cap;
  cap.name = name;
  cap.begin = ts_node_start_byte(node);
  cap.end = ts_node_end_byte(node);
  cap.text = std::string(NodeText(bytes, node));
  cap.node_type = ts_node_type(node);
  return cap;
}

}  // namespace

// Whether every predicate of the match holds; a predicate on a capture
// bound to several nodes must hold for each.
static bool PredicatesHold(const std::vector<Query::Predicate>& preds,
                           const std::vector<Bound>& captures, std::string_view bytes) {
  auto texts_of = [&](uint32_t id) {
    std::vector<std::string_view> texts;
    for (const Bound& b : captures) {
      if (b.capture == id) texts.push_back(NodeText(bytes, b.node));
    }
    return texts;
  };
  for (const Query::Predicate& p : preds) {
    for (std::string_view text : texts_of(p.capture)) {
      bool holds = false;
      if (p.rhs_is_capture) {
        bool eq = true;
        for (std::string_view other : texts_of(p.rhs_capture)) eq = eq && other == text;
        holds = (p.op == Query::Predicate::Op::kEq) == eq;
      } else {
        holds = HoldsFor(p, text);
      }
      if (!holds) return false;
    }
  }
  return true;
}

// Appends the match binding `captures` to `out` when its predicates hold.
static void EmitIfHolds(const std::vector<Query::Predicate>& preds,
                        const std::vector<Bound>& captures,
                        const std::vector<std::string>& capture_names, std::string_view bytes,
                        std::vector<QueryMatch>* out) {
  if (!PredicatesHold(preds, captures, bytes)) return;
  QueryMatch qm;
  for (const Bound& b : captures)
    qm.captures.push_back(ToCapture(capture_names[b.capture], bytes, b.node));
  out->push_back(std::move(qm));
}

bool Query::NeedsTreeSitterToCompile(std::string_view source) {
  // Too deep for either parser: Compile says so, without parsing.
  if (TooDeep(source, kMaxQueryDepth) != std::string_view::npos) return false;
  return !ParseQuery(source, tree_sitter_python());
}

void Query::IndexFor(const SyntaxTree& tree) const {
  // What MatchOrHandOff and MatchPatterns hand off before indexing anything.
  if (engine_ == QueryEngine::kTreeSitter || !patterns_ || tree.HasError()) return;
  tree.NodeIndex();
}

HandOff Query::MatchOrHandOff(const SyntaxTree& tree, std::vector<PatternMatch>* ours,
                              MatchWork* work) const {
  if (engine_ == QueryEngine::kTreeSitter) return HandOff::kTreeSitterRequested;
  if (!patterns_) return HandOff::kOutsideSubset;
  // Single-capture predicates with a literal operand prune while matching.
  std::string_view bytes = tree.bytes();
  AdmitFn admit = [&](std::size_t pattern, uint32_t capture, TSNode node) {
    for (const Predicate& p : predicates_[pattern]) {
      if (p.capture == capture && !p.rhs_is_capture && !HoldsFor(p, NodeText(bytes, node))) {
        return false;
      }
    }
    return true;
  };
  return MatchPatterns(*patterns_, tree, admit, ours, work);
}

std::vector<QueryMatch> Query::RunTreeSitter(const SyntaxTree& tree) const {
  std::vector<QueryMatch> out;
  const TSQuery* query = tree_sitter_.Get();
  if (query == nullptr) return out;  // an impossible pattern: no match
  // Its capture ids -> ours (the same names; the same ids, as far as the
  // differential tests have seen).
  std::vector<uint32_t> ids;
  for (uint32_t i = 0; i < ts_query_capture_count(query); ++i) {
    uint32_t len = 0;
    const char* chars = ts_query_capture_name_for_id(query, i, &len);
    std::string_view name(chars, len);
    auto it = std::find(capture_names_.begin(), capture_names_.end(), name);
    ids.push_back(static_cast<uint32_t>(it - capture_names_.begin()));
  }
  std::string_view bytes = tree.bytes();
  std::vector<Bound> captures;
  TsQueryCursorPtr cursor(ts_query_cursor_new());
  // Past the limit the cursor drops matches in progress and goes on: an
  // incomplete result, which we refuse.
  ts_query_cursor_set_match_limit(cursor.get(), kTreeSitterMatchLimit);
  ts_query_cursor_exec(cursor.get(), query, tree.Root());
  TSQueryMatch m;
  while (ts_query_cursor_next_match(cursor.get(), &m)) {
    if (ts_query_cursor_did_exceed_match_limit(cursor.get())) {
      throw QueryBudgetExceeded(OverBudget(fmt::format(
          "libtree-sitter's limit of {} matches in progress at once", kTreeSitterMatchLimit)));
    }
    if (out.size() >= kTreeSitterMaxMatches) {
      throw QueryBudgetExceeded(
          OverBudget(fmt::format("the limit of {} matches in one file", kTreeSitterMaxMatches)));
    }
    captures.clear();
    for (uint16_t c = 0; c < m.capture_count; ++c) {
      captures.push_back({ids[m.captures[c].index], m.captures[c].node});
    }
    EmitIfHolds(predicates_[m.pattern_index], captures, capture_names_, bytes, &out);
  }
  if (ts_query_cursor_did_exceed_match_limit(cursor.get())) {
    throw QueryBudgetExceeded(OverBudget(fmt::format(
        "libtree-sitter's limit of {} matches in progress at once", kTreeSitterMatchLimit)));
  }
  return out;
}

std::string Query::OverBudget(const std::string& limit) const {
  std::string_view text = tree_sitter_.source();
  std::size_t start = text.find_first_not_of(" \t\r\n");
  text = start == std::string_view::npos ? "" : text.substr(start);
  text = text.substr(0, text.find_last_not_of(" \t\r\n") + 1);
  std::size_t eol = text.find('\n');
  std::string head(text.substr(0, eol));
  if (head.size() > 80) head = head.substr(0, 77) + "...";
  if (eol != std::string_view::npos) head += " ...";
  return fmt::format("query `{}` needs more work on one file than {}", head, limit);
}

std::vector<QueryMatch> Query::Run(const SyntaxTree& tree) const {
  std::vector<QueryMatch> out;
  std::vector<PatternMatch> ours;
  MatchWork work;
  HandOff why = MatchOrHandOff(tree, &ours, &work);
  if (work.exceeded) {
    throw QueryBudgetExceeded(OverBudget(fmt::format(
        "the matcher's budget of {} steps (kMatchStepBudget in pattern_match.h)", work.budget)));
  }
  if (why != HandOff::kNone) {
    logging::Debug("query {:?} handed to libtree-sitter: {}", tree_sitter_.source(),
                   HandOffReason(why));
    out = RunTreeSitter(tree);
  } else {
    std::vector<Bound> captures;
    for (const PatternMatch& m : ours) {
      captures.clear();
      for (const PatternCapture& c : m.captures) captures.push_back({c.capture, c.node});
      EmitIfHolds(predicates_[m.pattern], captures, capture_names_, tree.bytes(), &out);
    }
  }
  // File order, so that both matchers give the same order.
  SortMatches(&out);
  return out;
}

std::optional<NoMatchReason> Query::ExplainNoMatch(const SyntaxTree& tree) const {
  return ExplainQueryNoMatch(*this, tree);
}

}  // namespace muh
