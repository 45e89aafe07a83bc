#include "engine/query.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>

#include <fmt/format.h>

namespace muh {

struct Query::Predicate {
  enum class Op { kEq, kNotEq, kMatch, kNotMatch, kAnyOf };
  Op op = Op::kEq;
  uint32_t capture = 0;
  bool rhs_is_capture = false;
  uint32_t rhs_capture = 0;
  std::vector<std::string> strings;  // literal operands
  std::shared_ptr<std::regex> regex;
};

namespace {

const char* ErrorKindName(TSQueryError e) {
  switch (e) {
    case TSQueryErrorSyntax: return "syntax error";
    case TSQueryErrorNodeType: return "unknown node type";
    case TSQueryErrorField: return "unknown field";
    case TSQueryErrorCapture: return "unknown capture";
    case TSQueryErrorStructure: return "impossible pattern structure";
    case TSQueryErrorLanguage: return "language mismatch";
    default: return "error";
  }
}

// Offset of the `nth` (0-based) occurrence of predicate `name` at or after
// `from` in the source, for error messages.
std::size_t FindPredicate(std::string_view source, std::size_t from, const std::string& name,
                          int nth) {
  std::size_t at = from;
  for (;;) {
    at = source.find("#" + name, at);
    if (at == std::string_view::npos) return from;
    std::size_t end = at + 1 + name.size();
    bool whole = end >= source.size() || std::isspace(static_cast<unsigned char>(source[end])) ||
                 source[end] == ')';
    if (whole && nth-- == 0) return at;
    at = end;
  }
}

std::string_view NodeText(std::string_view bytes, TSNode node) {
  uint32_t b = ts_node_start_byte(node);
  uint32_t e = ts_node_end_byte(node);
  return bytes.substr(b, e - b);
}

// Offset of a quantifier that directly follows another one, with only
// blanks, comments, captures and `)` between (`(x)??`, `(x)? @c *`,
// `((x)?)?`), or npos. libtree-sitter 0.20.7 crashes or loops on these
// instead of reporting an error; we refuse them first. Conservative: it
// also refuses the harmless `(a (b)?)?`.
std::size_t StackedQuantifier(std::string_view s) {
  bool after_quantifier = false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '"') {  // a string: skip to its closing quote
      for (++i; i < s.size() && s[i] != '"'; ++i) {
        if (s[i] == '\\') ++i;
      }
      after_quantifier = false;
    } else if (c == ';') {  // a comment: skip to the end of the line
      while (i < s.size() && s[i] != '\n') ++i;
    } else if (c == '@') {  // a capture keeps the state; names may hold `?` and `!`
      while (i + 1 < s.size() && (std::isalnum(static_cast<unsigned char>(s[i + 1])) ||
                                  s[i + 1] == '_' || s[i + 1] == '.' || s[i + 1] == '-' ||
                                  s[i + 1] == '?' || s[i + 1] == '!')) {
        ++i;
      }
    } else if (c == '?' || c == '*' || c == '+') {
      if (after_quantifier) return i;
      after_quantifier = true;
    } else if (c != ')' && !std::isspace(static_cast<unsigned char>(c))) {
      after_quantifier = false;
    }
  }
  return std::string_view::npos;
}

// Offset of a field name put in front of a predicate (`key: (#eq? @k "x")`,
// `key: ((#eq? ...))`), or npos. libtree-sitter 0.20.7 then writes past the
// end of its step array (a heap overflow); we refuse such queries first.
std::size_t FieldOnPredicate(std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '"') {
      for (++i; i < s.size() && s[i] != '"'; ++i) {
        if (s[i] == '\\') ++i;
      }
      continue;
    }
    if (c == ';') {
      while (i < s.size() && s[i] != '\n') ++i;
      continue;
    }
    if (c != ':') continue;
    std::size_t j = i + 1;
    while (j < s.size()) {
      if (std::isspace(static_cast<unsigned char>(s[j])) || s[j] == '(') {
        ++j;
      } else if (s[j] == ';') {
        while (j < s.size() && s[j] != '\n') ++j;
      } else {
        break;
      }
    }
    if (j < s.size() && (s[j] == '#' || s[j] == '.')) return i;
    // libtree-sitter also reads a bare `eq?` or `set!` as a predicate.
    std::size_t k = j;
    while (k < s.size() && (std::isalnum(static_cast<unsigned char>(s[k])) || s[k] == '_' ||
                            s[k] == '-' || s[k] == '?' || s[k] == '!')) {
      ++k;
    }
    if (k > j && (s[k - 1] == '?' || s[k - 1] == '!')) return i;
  }
  return std::string_view::npos;
}

}  // namespace

Query::Query() = default;
Query::~Query() = default;

std::unique_ptr<Query> Query::Compile(std::string_view source, QueryError* error) {
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
  uint32_t error_offset = 0;
  TSQueryError error_type = TSQueryErrorNone;
  TSQuery* raw = ts_query_new(tree_sitter_python(), source.data(),
                              static_cast<uint32_t>(source.size()), &error_offset, &error_type);
  if (raw == nullptr) {
    error->offset = error_offset;
    error->message = fmt::format("query {}", ErrorKindName(error_type));
    if (error_type == TSQueryErrorNodeType || error_type == TSQueryErrorField ||
        error_type == TSQueryErrorCapture) {
      std::size_t end = error_offset;
      while (end < source.size() && (std::isalnum(static_cast<unsigned char>(source[end])) ||
                                     source[end] == '_' || source[end] == '.')) {
        ++end;
      }
      error->message += fmt::format(" '{}'", source.substr(error_offset, end - error_offset));
    }
    return nullptr;
  }
  std::unique_ptr<Query> q(new Query());
  q->query_.reset(raw);
  uint32_t ncap = ts_query_capture_count(raw);
  for (uint32_t i = 0; i < ncap; ++i) {
    uint32_t len = 0;
    const char* name = ts_query_capture_name_for_id(raw, i, &len);
    q->capture_names_.emplace_back(name, len);
  }
  uint32_t npat = ts_query_pattern_count(raw);
  q->predicates_.resize(npat);
  for (uint32_t p = 0; p < npat; ++p) {
    std::size_t pattern_start = ts_query_start_byte_for_pattern(raw, p);
    std::map<std::string, int> seen;  // occurrences of each predicate so far
    uint32_t nsteps = 0;
    const TSQueryPredicateStep* steps = ts_query_predicates_for_pattern(raw, p, &nsteps);
    uint32_t i = 0;
    while (i < nsteps) {
      uint32_t j = i;
      while (j < nsteps && steps[j].type != TSQueryPredicateStepTypeDone) ++j;
      // steps[i] is the predicate name, steps[i+1..j) its operands.
      uint32_t len = 0;
      std::string name = ts_query_string_value_for_id(raw, steps[i].value_id, &len);
      std::size_t where = FindPredicate(source, pattern_start, name, seen[name]++);
      auto fail = [&](const std::string& msg) {
        error->offset = where;
        error->message = msg;
        return nullptr;
      };
      Predicate pred;
      if (name == "eq?") pred.op = Predicate::Op::kEq;
      else if (name == "not-eq?") pred.op = Predicate::Op::kNotEq;
      else if (name == "match?") pred.op = Predicate::Op::kMatch;
      else if (name == "not-match?") pred.op = Predicate::Op::kNotMatch;
      else if (name == "any-of?") pred.op = Predicate::Op::kAnyOf;
      else {
        return fail(fmt::format("unknown predicate '#{}' (supported: #eq?, #not-eq?, #match?, "
                                "#not-match?, #any-of?)", name));
      }
      uint32_t nargs = j - i - 1;
      if (nargs < 2 || steps[i + 1].type != TSQueryPredicateStepTypeCapture) {
        return fail(fmt::format("'#{}' takes a capture and at least one more operand", name));
      }
      pred.capture = steps[i + 1].value_id;
      bool two_only = pred.op != Predicate::Op::kAnyOf;
      if (two_only && nargs != 2) {
        return fail(fmt::format("'#{}' takes exactly two operands, got {}", name, nargs));
      }
      for (uint32_t k = i + 2; k < j; ++k) {
        if (steps[k].type == TSQueryPredicateStepTypeCapture) {
          if (pred.op != Predicate::Op::kEq && pred.op != Predicate::Op::kNotEq) {
            return fail(fmt::format("'#{}' needs a string operand, not a capture", name));
          }
          pred.rhs_is_capture = true;
          pred.rhs_capture = steps[k].value_id;
        } else {
          pred.strings.emplace_back(ts_query_string_value_for_id(raw, steps[k].value_id, &len), len);
        }
      }
      if (pred.op == Predicate::Op::kMatch || pred.op == Predicate::Op::kNotMatch) {
        try {
          pred.regex = std::make_shared<std::regex>(pred.strings[0], std::regex::ECMAScript);
        } catch (const std::regex_error& e) {
          return fail(fmt::format("'#{}' has an invalid regular expression '{}': {}", name,
                                  pred.strings[0], e.what()));
        }
      }
      q->predicates_[p].push_back(std::move(pred));
      i = j + 1;
    }
  }
  return q;
}

bool Query::HasCapture(std::string_view name) const {
  return std::find(capture_names_.begin(), capture_names_.end(), name) != capture_names_.end();
}

std::vector<std::vector<std::string>> Query::RequiredLiterals() const {
  // A literal is required only when every pattern requires it; with one
  // pattern (the common case) that is simply its own groups.
  if (predicates_.size() != 1) return {};
  std::vector<std::vector<std::string>> groups;
  for (const Predicate& p : predicates_[0]) {
    if (p.rhs_is_capture) continue;
    // A predicate on a capture that may be absent holds vacuously then, so
    // its literal is not required.
    TSQuantifier q = ts_query_capture_quantifier_for_id(query_.get(), 0, p.capture);
    if (q != TSQuantifierOne && q != TSQuantifierOneOrMore) continue;
    if (p.op == Predicate::Op::kEq || p.op == Predicate::Op::kAnyOf) groups.push_back(p.strings);
  }
  return groups;
}

std::vector<QueryMatch> Query::Run(const SyntaxTree& tree) const {
  std::vector<QueryMatch> out;
  std::string_view bytes = tree.bytes();
  TsQueryCursorPtr cursor(ts_query_cursor_new());
  ts_query_cursor_exec(cursor.get(), query_.get(), tree.Root());
  TSQueryMatch m;
  while (ts_query_cursor_next_match(cursor.get(), &m)) {
    auto texts_of = [&](uint32_t id) {
      std::vector<std::string_view> texts;
      for (uint16_t c = 0; c < m.capture_count; ++c) {
        if (m.captures[c].index == id) texts.push_back(NodeText(bytes, m.captures[c].node));
      }
      return texts;
    };
    bool ok = true;
    for (const Predicate& p : predicates_[m.pattern_index]) {
      for (std::string_view text : texts_of(p.capture)) {
        bool holds = false;
        switch (p.op) {
          case Predicate::Op::kEq:
          case Predicate::Op::kNotEq: {
            bool eq = true;
            if (p.rhs_is_capture) {
              for (std::string_view other : texts_of(p.rhs_capture)) eq = eq && other == text;
            } else {
              eq = text == p.strings[0];
            }
            holds = (p.op == Predicate::Op::kEq) == eq;
            break;
          }
          case Predicate::Op::kMatch:
          case Predicate::Op::kNotMatch: {
            bool found = std::regex_search(text.begin(), text.end(), *p.regex);
            holds = (p.op == Predicate::Op::kMatch) == found;
            break;
          }
          case Predicate::Op::kAnyOf:
            holds = std::find(p.strings.begin(), p.strings.end(), text) != p.strings.end();
            break;
        }
        ok = ok && holds;
      }
      if (!ok) break;
    }
    if (!ok) continue;
    QueryMatch qm;
    for (uint16_t c = 0; c < m.capture_count; ++c) {
      TSNode node = m.captures[c].node;
      Capture cap;
      cap.name = capture_names_[m.captures[c].index];
      cap.begin = ts_node_start_byte(node);
      cap.end = ts_node_end_byte(node);
      cap.text = std::string(NodeText(bytes, node));
      cap.node_type = ts_node_type(node);
      qm.captures.push_back(std::move(cap));
    }
    out.push_back(std::move(qm));
  }
  std::stable_sort(out.begin(), out.end(), [](const QueryMatch& a, const QueryMatch& b) {
    return a.Begin() < b.Begin();
  });
  return out;
}

const Capture* QueryMatch::Find(std::string_view name) const {
  for (const Capture& c : captures) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

std::size_t QueryMatch::Begin() const {
  std::size_t best = static_cast<std::size_t>(-1);
  for (const Capture& c : captures) best = std::min(best, c.begin);
  return captures.empty() ? 0 : best;
}

}  // namespace muh
