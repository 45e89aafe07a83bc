#include "engine/pattern/code_pattern.h"

#include <fmt/format.h>
#include <tree_sitter/api.h>

#include <algorithm>
#include <optional>
#include <set>
#include <string_view>

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

// One snippet (the pattern or its `inside:`) turned into query text.
class Emitter {
 public:
  Emitter(const Substituted& sub, CodePatternError::Part part, int* hidden,
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
      std::string name = fmt::format("_p{}", (*hidden_)++);
      predicates_->push_back(fmt::format("(#eq? @{} {})", name, Quoted(text)));
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
    if (std::find(captures_->begin(), captures_->end(), name) == captures_->end()) {
      captures_->push_back(name);
      return " @" + name;
    }
    // A metavariable used again stands for the same text.
    std::string again = fmt::format("_p{}", (*hidden_)++);
    predicates_->push_back(fmt::format("(#eq? @{} @{})", name, again));
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
  int* hidden_;
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
  std::string out = "[";
  std::string wrapped = inner;
  for (int d = 0; d <= kInsideDepth; ++d) {
    if (d > 0) wrapped = "(_ " + wrapped + ")";
    if (d > 0 || !expression) out += (out.size() > 1 ? " " : "") + wrapped;
  }
  return out + "]";
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

bool CompileCodePattern(const CodePattern& p, CompiledPattern* out, CodePatternError* error) {
  int hidden = 0;
  std::vector<std::string> predicates;
  std::vector<std::string> captures;
  PythonParser parser;
  Substituted sub;
  if (!Substitute(p.pattern, CodePatternError::Part::kPattern, &sub, error)) return false;
  SyntaxTree tree = parser.Parse(sub.text);
  Emitter inner(sub, CodePatternError::Part::kPattern, &hidden, &predicates, &captures);
  std::optional<TSNode> root = inner.Root(tree, error);
  std::string query;
  if (!root || !inner.Emit(*root, &query, error)) return false;
  if (!p.inside.empty()) {
    Substituted outer_sub;
    if (!Substitute(p.inside, CodePatternError::Part::kInside, &outer_sub, error)) return false;
    SyntaxTree outer_tree = parser.Parse(outer_sub.text);
    Emitter outer(outer_sub, CodePatternError::Part::kInside, &hidden, &predicates, &captures);
    std::optional<TSNode> outer_root = outer.Root(outer_tree, error);
    if (!outer_root) return false;
    outer.body_ = LastBlock(*outer_root);
    if (!outer.body_) {
      error->part = CodePatternError::Part::kInside;
      error->offset = 0;
      error->message = "an `inside:` pattern needs a body (`def f($$$):\\n    $$$`) to look in";
      return false;
    }
    outer.desc_ = AnyDepth(query, inner.expression_);
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
  // Predicates go inside the root pattern, before its closing parenthesis.
  std::string tail;
  for (const std::string& pr : predicates) tail += "\n  " + pr;
  if (!query.empty() && query.back() == ')')
    query.insert(query.size() - 1, tail);
  else
    query = "(" + query + tail + ")";
  out->query = std::move(query);
  out->metavariables = std::move(captures);
  return true;
}

}  // namespace muh
