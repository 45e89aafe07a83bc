#include "engine/pattern/code_pattern_text.h"

#include <fmt/format.h>
#include <tree_sitter/api.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string_view>

#include "engine/pattern/knob_shape.h"
#include "engine/pattern/metavariables.h"
#include "engine/pattern/number_range.h"
#include "engine/python/syntax_tree.h"

namespace muh {

namespace {

// Anonymous tokens that say something the node type does not.
const std::set<std::string_view> kKeptTokens = {
    "<",  "<=",  ">",   ">=",     "==",     "!=",    "<>",    "+",      "-",     "*",   "/",  "//",
    "%",  "**",  "@",   "|",      "&",      "^",     "~",     "<<",     ">>",    "and", "or", "not",
    "in", "is",  "+=",  "-=",     "*=",     "/=",    "//=",   "%=",     "**=",   "@=",  "|=", "&=",
    "^=", "<<=", ">>=", "not in", "is not", "await", "async", "lambda", "yield", "from"};

// Nodes whose children match in order with others allowed between them.
const std::set<std::string_view> kUnanchored = {"block", "module", "dictionary",
                                                "set",   "string", "concatenated_string"};

// Leaves whose type says everything.
const std::set<std::string_view> kTextless = {"true", "false", "none", "ellipsis"};

std::string Quoted(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '\\' || c == '"')
      out += std::string("\\") + c;
    else if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else
      out += c;
  }
  return out + "\"";
}

// The hidden captures of one query. A literal's capture is named after its
// text and how often the alternative used that text before, so that
// alternatives with the same literals bind the same captures and can share
// one query pattern (our matcher's subset needs that of an alternation).
struct HiddenNames {
  std::map<std::string, std::string> by_key;
  std::map<std::string, int> seen;  // in the current alternative
  std::set<std::string> bound;      // by the current alternative, user captures too
  int next = 0;
  // The name for the next use of `key`; `fresh` when it is new to the query.
  std::string For(const std::string& key, bool* fresh) {
    std::string k = key + "#" + std::to_string(seen[key]++);
    auto [it, inserted] = by_key.emplace(k, "");
    if (inserted) it->second = fmt::format("_p{}", next++);
    *fresh = inserted;
    bound.insert(it->second);
    return it->second;
  }
};

// One snippet (the pattern or its `inside:`) turned into query text.
class Emitter {
 public:
  Emitter(const Substituted& sub, CodePatternError::Part part, HiddenNames* hidden,
          std::vector<std::string>* predicates, std::vector<std::string>* captures)
      : sub_(sub), part_(part), hidden_(hidden), predicates_(predicates), captures_(captures) {}

  // The pattern's root node (the one statement, or the expression of an
  // expression statement), or an error.
  std::optional<TSNode> Root(const SyntaxTree& tree, CodePatternError* error) {
    if (std::optional<SyntaxProblem> p = tree.FirstProblem()) {
      std::size_t at = p->offset;
      if (at == 0) {
        // An ERROR over the whole first statement: Python stopped making
        // sense at the end of its first line (a missing `:`) or of the text.
        at = std::min(sub_.text.find('\n'), sub_.text.size());
        while (at > 0 && sub_.text[at - 1] == ' ') --at;
      }
      return Fail(error, at, fmt::format("{} in the pattern (is it Python?)", p->what));
    }
    TSNode module = tree.Root();
    std::vector<TSNode> statements;
    for (uint32_t i = 0; i < ts_node_named_child_count(module); ++i) {
      TSNode c = ts_node_named_child(module, i);
      if (std::string_view(ts_node_type(c)) != "comment") statements.push_back(c);
    }
    if (statements.empty()) return Fail(error, 0, "the pattern is empty");
    if (statements.size() > 1) {
      return Fail(error, ts_node_start_byte(statements[1]),
                  "a pattern is one statement or expression; a second one starts here "
                  "(`inside:` gives the code around it)");
    }
    TSNode root = statements[0];
    if (std::string_view(ts_node_type(root)) == "expression_statement" &&
        ts_node_named_child_count(root) == 1 && Text(ts_node_named_child(root, 0)) == Text(root)) {
      root = ts_node_named_child(root, 0);
      expression_ = true;
    }
    if (sub_.Find(Text(root)) != nullptr) {
      return Fail(error, ts_node_start_byte(root),
                  "a pattern of only a metavariable matches every node; say what it is");
    }
    return root;
  }

  // Query text for `node`. `body` (with `desc`) is the block whose `$$$`
  // stands for where the inner pattern lies.
  bool Emit(TSNode node, std::string* out, CodePatternError* error) {
    std::string_view text = Text(node);
    std::string_view type = ts_node_type(node);
    const Metavariable* m = type == "block" ? nullptr : sub_.Find(text);
    if (m != nullptr) {
      if (m->sequence) {
        Fail(error, ts_node_start_byte(node),
             "'$$$' stands for a run of siblings (arguments, statements, entries), not for one "
             "node; write $NAME here");
        return false;
      }
      // In a string, the content; elsewhere any node.
      *out = (type == "string_content" ? "(string_content)" : "(_)") + Capture(m->name);
      return true;
    }
    if (!ts_node_is_named(node)) {
      *out = Quoted(type);
      return true;
    }
    bool is_body = body_ && ts_node_eq(node, *body_);
    if (ts_node_child_count(node) == 0 && !is_body) {
      if (Substituted::MentionsPlaceholder(text)) {
        std::size_t at = text.find("_muh_");
        Fail(error, ts_node_start_byte(node) + at,
             fmt::format("a metavariable stands for a whole node; here it is part of `{}`",
                         Original(node)));
        return false;
      }
      if (kTextless.count(type) != 0 || text.empty()) {
        *out = fmt::format("({})", type);
        return true;
      }
      bool fresh = false;
      std::string name = hidden_->For(std::string(type) + ":" + std::string(text), &fresh);
      if (fresh) predicates_->push_back(fmt::format("(#eq? @{} {})", name, Quoted(text)));
      *out = fmt::format("({}) @{}", type, name);
      return true;
    }
    struct Item {
      std::string text;
      bool named = false;
      bool run = false;  // a `$$$`
      bool field = false;
    };
    std::vector<Item> items;
    bool anchored = kUnanchored.count(type) == 0;
    bool desc_placed = false;
    // A cursor gives each child's field: ts_node_field_name_for_child
    // misnames some in libtree-sitter 0.20 (an elif_clause as `consequence`).
    std::vector<std::pair<TSNode, const char*>> children;
    TSTreeCursor cursor = ts_tree_cursor_new(node);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
      do {
        children.emplace_back(ts_tree_cursor_current_node(&cursor),
                              ts_tree_cursor_current_field_name(&cursor));
      } while (ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    for (const auto& [c, field] : children) {
      std::string_view ctype = ts_node_type(c);
      if (!ts_node_is_named(c)) {
        if (kKeptTokens.count(ctype) != 0) items.push_back({Quoted(ctype), false, false, false});
        continue;
      }
      if (ctype == "comment" || ctype == "string_start" || ctype == "string_end") {
        anchored = false;
        continue;
      }
      const Metavariable* run = ctype == "block" ? nullptr : sub_.Find(Text(c));
      if (place_ && ts_node_eq(c, *place_)) {
        items.push_back({(field != nullptr ? std::string(field) + ": " : "") + desc_, true, false,
                         field != nullptr});
        continue;
      }
      if (run != nullptr && run->sequence) {
        if (field != nullptr) {
          Fail(error, ts_node_start_byte(c),
               "'$$$' stands for a run of siblings (arguments, statements, entries), not for one "
               "node; write $NAME here");
          return false;
        }
        if (is_body) {
          desc_placed = true;
          items.push_back({desc_, true, false, false});
        } else {
          items.push_back({"", false, true, false});
        }
        continue;
      }
      std::string child;
      if (!Emit(c, &child, error)) return false;
      if (field != nullptr) child = std::string(field) + ": " + child;
      items.push_back({child, true, false, field != nullptr});
    }
    if (is_body && !desc_placed) items.push_back({desc_, true, false, false});
    for (const Item& it : items) anchored = anchored && !it.field;
    std::string s = fmt::format("({}", type);
    bool gap = false;
    bool any_named = false;
    for (const Item& it : items) {
      if (it.run) {
        gap = true;
        continue;
      }
      if (it.named) {
        if (anchored && !gap) s += " .";
        gap = false;
        any_named = true;
      }
      s += " " + it.text;
    }
    if (anchored && !gap && any_named) s += " .";
    *out = s + ")";
    return true;
  }

  std::optional<TSNode> body_;
  std::optional<TSNode> place_;  // a `$$$` outside any block: the pattern lies below it
  std::string desc_;
  bool expression_ = false;  // the root is an expression, not a statement

 private:
  std::string_view Text(TSNode node) const {
    return std::string_view(sub_.text).substr(ts_node_start_byte(node),
                                              ts_node_end_byte(node) - ts_node_start_byte(node));
  }
  std::string Original(TSNode node) const {
    std::string out(Text(node));
    for (const Metavariable& m : sub_.metavariables) {
      std::string placeholder =
          std::string(m.sequence ? "_muh_seq_" : "_muh_mv_") + (m.name == "_" ? "" : m.name) + "_";
      std::size_t at = out.find(placeholder);
      if (at != std::string::npos)
        out.replace(at, placeholder.size(), (m.sequence ? "$$$" : "$") + m.name);
    }
    return out;
  }
  std::string Capture(const std::string& name) {
    if (name == "_" || name.empty()) return "";
    if (hidden_->bound.insert(name).second) {
      if (std::find(captures_->begin(), captures_->end(), name) == captures_->end())
        captures_->push_back(name);
      return " @" + name;
    }
    // A metavariable used again stands for the same text.
    bool fresh = false;
    std::string again = hidden_->For("=" + name, &fresh);
    if (fresh) predicates_->push_back(fmt::format("(#eq? @{} @{})", name, again));
    return " @" + again;
  }
  std::nullopt_t Fail(CodePatternError* error, std::size_t offset, std::string message) {
    error->part = part_;
    error->offset = sub_.Original(offset);
    error->message = std::move(message);
    return std::nullopt;
  }

  const Substituted& sub_;
  CodePatternError::Part part_;
  HiddenNames* hidden_;
  std::vector<std::string>* predicates_;
  std::vector<std::string>* captures_;
};

// The last block of `node`'s subtree in document order.
std::optional<TSNode> LastBlock(TSNode node) {
  std::optional<TSNode> found;
  if (std::string_view(ts_node_type(node)) == "block") found = node;
  for (uint32_t i = 0; i < ts_node_named_child_count(node); ++i) {
    if (std::optional<TSNode> b = LastBlock(ts_node_named_child(node, i))) found = b;
  }
  return found;
}

// `inner` where it lies anywhere below a block: itself (a statement), or
// under up to kInsideDepth nodes of any type.
std::string AnyDepth(const std::string& inner, bool expression) {
  std::string out;
  std::string wrapped = inner;
  for (int d = 0; d <= kInsideDepth; ++d) {
    if (d > 0) wrapped = "(_ " + wrapped + ")";
    if (d > 0 || !expression) out += (out.empty() ? "" : " ") + wrapped;
  }
  return out;
}

// The last `$$$` of `node`'s subtree that is not a block's statement.
std::optional<TSNode> LastRun(const Substituted& sub, TSNode node) {
  std::optional<TSNode> found;
  std::string_view text = std::string_view(sub.text).substr(
      ts_node_start_byte(node), ts_node_end_byte(node) - ts_node_start_byte(node));
  const Metavariable* m = sub.Find(text);
  if (m != nullptr && m->sequence) return node;
  for (uint32_t i = 0; i < ts_node_named_child_count(node); ++i) {
    if (std::optional<TSNode> r = LastRun(sub, ts_node_named_child(node, i))) found = r;
  }
  return found;
}

bool Substitute(const std::string& text, CodePatternError::Part part, Substituted* sub,
                CodePatternError* error) {
  std::size_t offset = 0;
  std::string message;
  if (SubstituteMetavariables(text, sub, &offset, &message)) return true;
  error->part = part;
  error->offset = offset;
  error->message = message;
  return false;
}

std::string WherePredicate(const WhereConstraint& w) {
  switch (w.kind) {
    case WhereConstraint::Kind::kEquals:
      return fmt::format("(#eq? @{} {})", w.metavariable, Quoted(w.texts[0]));
    case WhereConstraint::Kind::kRegex:
      return fmt::format("(#match? @{} {})", w.metavariable, Quoted(w.texts[0]));
    case WhereConstraint::Kind::kRange:
      return fmt::format("(#match? @{} {})", w.metavariable, Quoted(DecimalRangeRegex(w.lo, w.hi)));
    case WhereConstraint::Kind::kAnyOf: {
      std::string s = "(#any-of? @" + w.metavariable;
      for (const std::string& t : w.texts) s += " " + Quoted(t);
      return s + ")";
    }
  }
  return "";
}

}  // namespace

namespace {

// Compiles alternatives that share `p.inside` into one query pattern (the
// inside's body holds each at any depth), or one alternative alone. False
// with `*merge_failed` when the alternatives bind different captures.
bool CompileShared(const std::vector<std::string>& alternatives, const CodePattern& p,
                   TextCompiled* out, CodePatternError* error, const std::string& target,
                   std::size_t* failing, bool* merge_failed) {
  HiddenNames hidden;
  std::vector<std::string> predicates;
  std::vector<std::string> captures;
  PythonParser parser;
  std::string desc;
  std::optional<std::set<std::string>> first_bound;
  std::string query;
  for (std::size_t i = 0; i < alternatives.size(); ++i) {
    *failing = i;
    hidden.seen.clear();
    hidden.bound.clear();
    Substituted sub;
    if (!Substitute(alternatives[i], CodePatternError::Part::kPattern, &sub, error)) return false;
    SyntaxTree tree = parser.Parse(sub.text);
    Emitter inner(sub, CodePatternError::Part::kPattern, &hidden, &predicates, &captures);
    std::optional<TSNode> root = inner.Root(tree, error);
    if (!root || !inner.Emit(*root, &query, error)) return false;
    if (i == 0) {
      out->knob = KnobOf(sub, *root, target);
      out->shape = ShapeOf(sub, *root, target);
    }
    if (first_bound && *first_bound != hidden.bound) {
      *merge_failed = true;
      return false;
    }
    first_bound = hidden.bound;
    if (p.inside.empty()) break;
    // Each alternative, marked with whether it is an expression: its depths
    // follow once the inside is known.
    desc += "\x01" + std::to_string(inner.expression_ ? 1 : 0) + query + "\x02";
  }
  *failing = 0;
  if (!p.inside.empty()) {
    Substituted outer_sub;
    if (!Substitute(p.inside, CodePatternError::Part::kInside, &outer_sub, error)) return false;
    SyntaxTree outer_tree = parser.Parse(outer_sub.text);
    hidden.seen.clear();
    Emitter outer(outer_sub, CodePatternError::Part::kInside, &hidden, &predicates, &captures);
    std::optional<TSNode> outer_root = outer.Root(outer_tree, error);
    if (!outer_root) return false;
    outer.body_ = LastBlock(*outer_root);
    if (!outer.body_) outer.place_ = LastRun(outer_sub, *outer_root);
    if (!outer.body_ && !outer.place_) {
      error->part = CodePatternError::Part::kInside;
      error->offset = 0;
      error->message =
          "an `inside:` pattern needs a body (`def f($$$):\\n    $$$`) or a `$$$` (`use_v1 = "
          "$$$`) to look in";
      return false;
    }
    std::string branches;
    for (std::size_t at = 0; (at = desc.find('\x01', at)) != std::string::npos;) {
      bool expression = desc[at + 1] == '1';
      std::size_t end = desc.find('\x02', at);
      std::string inner = desc.substr(at + 2, end - at - 2);
      branches += (branches.empty() ? "" : " ") + AnyDepth(inner, expression && !outer.place_);
      at = end;
    }
    outer.desc_ = "[" + branches + "]";
    if (out->knob.empty()) out->knob = KnobOf(outer_sub, *outer_root, target);
    if (!outer.Emit(*outer_root, &query, error)) return false;
  }
  for (std::size_t i = 0; i < p.where.size(); ++i) {
    const WhereConstraint& w = p.where[i];
    bool known = std::find(captures.begin(), captures.end(), w.metavariable) != captures.end();
    if (!known) {
      std::string list;
      for (const std::string& c : captures) list += (list.empty() ? "$" : ", $") + c;
      error->part = CodePatternError::Part::kWhere;
      error->where_index = i;
      error->offset = 0;
      error->message = fmt::format("'where' names no metavariable of the pattern: '{}' ({})",
                                   w.metavariable, list.empty() ? "it has none" : "it has " + list);
      return false;
    }
    predicates.push_back(WherePredicate(w));
  }
  // Predicates follow the root in a group: `((root ... .) (#eq? ...))`,
  // since our matcher leaves a trailing anchor before predicates to
  // libtree-sitter.
  std::string tail;
  for (const std::string& pr : predicates) tail += "\n  " + pr;
  if (!tail.empty()) query = "(" + query + tail + ")";
  out->query = std::move(query);
  out->metavariables = std::move(captures);
  return true;
}

}  // namespace

static bool CompileOneToText(const CodePattern& p, TextCompiled* out, CodePatternError* error,
                             const std::string& target) {
  std::size_t failing = 0;
  bool merge_failed = false;
  return CompileShared({p.pattern}, p, out, error, target, &failing, &merge_failed);
}

bool CompileCodePatternsToText(const std::vector<std::string>& alternatives, const CodePattern& p,
                               TextCompiled* out, CodePatternError* error, std::size_t* failing,
                               const std::string& target) {
  *failing = 0;
  bool merge_failed = false;
  if (alternatives.size() > 1 && !p.inside.empty()) {
    if (CompileShared(alternatives, p, out, error, target, failing, &merge_failed)) return true;
    if (!merge_failed) return false;
  }
  // One query pattern each: libtree-sitter runs the query.
  TextCompiled all;
  for (std::size_t i = 0; i < alternatives.size(); ++i) {
    *failing = i;
    CodePattern one = p;
    one.pattern = alternatives[i];
    TextCompiled compiled;
    if (!CompileOneToText(one, &compiled, error, target)) return false;
    all.query += (all.query.empty() ? "" : "\n") + compiled.query;
    if (all.knob.empty()) {
      all.knob = compiled.knob;
      all.shape = compiled.shape;
    }
    for (const std::string& m : compiled.metavariables) {
      if (std::find(all.metavariables.begin(), all.metavariables.end(), m) ==
          all.metavariables.end())
        all.metavariables.push_back(m);
    }
  }
  *out = std::move(all);
  return true;
}

namespace {

// The end of the balanced group that opens at `at` (a '('), strings skipped.
std::size_t GroupEnd(const std::string& q, std::size_t at) {
  int depth = 0;
  for (std::size_t i = at; i < q.size(); ++i) {
    char c = q[i];
    if (c == '"') {
      for (++i; i < q.size() && q[i] != '"'; ++i) {
        if (q[i] == '\\') ++i;
      }
    } else if (c == '(') {
      ++depth;
    } else if (c == ')' && --depth == 0) {
      return i + 1;
    }
  }
  return q.size();
}

}  // namespace

std::string TierQueryText(const std::string& variable, const std::string& statement_query) {
  std::string out;
  for (std::size_t at = statement_query.find('('); at != std::string::npos;
       at = statement_query.find('(', at)) {
    std::size_t end = GroupEnd(statement_query, at);
    // A bare `(NODE) @capture ...` takes its captures along.
    while (true) {
      std::size_t next = statement_query.find_first_not_of(" \t\n", end);
      if (next == std::string::npos || statement_query[next] != '@') break;
      end = statement_query.find_first_of(" \t\n()", next);
      if (end == std::string::npos) end = statement_query.size();
    }
    // `((NODE) (#PREDICATE ...) ...)`: the node, then its predicates.
    std::string group = statement_query.substr(at, end - at);
    std::string node = group, predicates;
    if (group.size() > 2 && group[1] == '(' && group.back() == ')') {
      std::size_t node_end = GroupEnd(group, 1);
      std::string rest = group.substr(node_end, group.size() - 1 - node_end);
      std::size_t first = rest.find_first_not_of(" \t\n");
      if (first == std::string::npos || rest.compare(first, 2, "(#") == 0) {
        node = group.substr(1, node_end - 1);
        predicates = rest;
      }
    }
    // An expression (`config['BLOCK_SIZE_M'] = 16`) is a statement of its own.
    std::string type = node.substr(1, node.find_first_of(" \t\n)", 1) - 1);
    auto ends = [&](const std::string& s) {
      return type.size() >= s.size() && type.compare(type.size() - s.size(), s.size(), s) == 0;
    };
    if (!ends("_statement") && !ends("_definition")) {
      node = "(expression_statement . " + node + " .)";
    }
    out += fmt::format(
        "((if_statement\n"
        "   condition: (_) @_pcond\n"
        "   [(block {0})\n"
        "    (elif_clause consequence: (block {0}))\n"
        "    (else_clause body: (block {0}))])\n"
        "  (#match? @_pcond \"\\\\b{1}\\\\b\"){2})\n",
        node, variable, predicates);
    at = end;
  }
  return out;
}

}  // namespace muh
