#include "engine/pattern/code_pattern.h"

#include <fmt/format.h>
#include <re2/re2.h>
#include <tree_sitter/api.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string_view>

#include "engine/pattern/knob_shape.h"
#include "engine/pattern/metavariables.h"
#include "engine/pattern/number_range.h"
#include "engine/python/child_mapping.h"
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

// The hidden captures of one tree. A literal's capture is named after its
// text and how often the alternative used that text before, so that
// alternatives with the same literals bind the same captures and can share
// one tree.
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

// One snippet (the pattern or its `inside:`) turned into nodes.
class Builder {
 public:
  Builder(const Substituted& sub, CodePatternError::Part part, HiddenNames* hidden,
          std::vector<PatternConstraint>* constraints, std::vector<std::string>* captures)
      : sub_(sub), part_(part), hidden_(hidden), constraints_(constraints), captures_(captures) {}

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

  // The pattern node for `node`. `body_` (with `desc_`) is the block whose
  // `$$$` stands for where the inner pattern lies.
  bool Build(TSNode node, PatternNode* out, CodePatternError* error) {
    using Kind = PatternNode::Kind;
    std::string_view text = Text(node);
    std::string type = ts_node_type(node);
    out->source = Original(node);
    const Metavariable* m = type == "block" ? nullptr : sub_.Find(text);
    if (m != nullptr) {
      if (m->sequence) {
        Fail(error, ts_node_start_byte(node),
             "'$$$' stands for a run of siblings (arguments, statements, entries), not for one "
             "node; write $NAME here");
        return false;
      }
      // In a string, the content; elsewhere any node.
      out->kind = Kind::kMetavariable;
      if (type == "string_content") {
        out->type = type;
        out->symbols = SymbolsNamed(type, true);
      }
      out->capture = Capture(m->name);
      return true;
    }
    out->type = type;
    if (!ts_node_is_named(node)) {
      out->kind = Kind::kToken;
      out->symbols = SymbolsNamed(type, false);
      return true;
    }
    out->symbols = SymbolsNamed(type, true);
    bool is_body = body_ && ts_node_eq(node, *body_);
    if (ts_node_child_count(node) == 0 && !is_body) {
      if (Substituted::MentionsPlaceholder(text)) {
        std::size_t at = text.find("_muh_");
        Fail(error, ts_node_start_byte(node) + at,
             fmt::format("a metavariable stands for a whole node; here it is part of `{}`",
                         Original(node)));
        return false;
      }
      if (kTextless.count(type) != 0 || text.empty()) return true;
      bool fresh = false;
      out->capture = hidden_->For(type + ":" + std::string(text), &fresh);
      if (fresh) {
        PatternConstraint c;
        c.capture = out->capture;
        c.texts = {std::string(text)};
        constraints_->push_back(std::move(c));
      }
      return true;
    }
    bool ordered = kUnanchored.count(type) == 0;
    bool desc_placed = false;
    TSTreeCursor cursor = ts_tree_cursor_new(node);
    std::vector<ChildNode> children = ChildrenOf(&cursor, node);
    ts_tree_cursor_delete(&cursor);
    for (const auto& [c, field, named] : children) {
      std::string_view ctype = ts_node_type(c);
      if (!named) {
        if (kKeptTokens.count(ctype) != 0) {
          PatternNode& token = out->children.emplace_back();
          token.kind = Kind::kToken;
          token.type = std::string(ctype);
          token.symbols = SymbolsNamed(token.type, false);
        }
        continue;
      }
      if (ctype == "comment" || ctype == "string_start" || ctype == "string_end") {
        ordered = false;
        continue;
      }
      const Metavariable* run = ctype == "block" ? nullptr : sub_.Find(Text(c));
      if (place_ && ts_node_eq(c, *place_)) {
        out->children.push_back(*desc_);
        out->children.back().field = field;
        continue;
      }
      if (run != nullptr && run->sequence) {
        if (field != 0) {
          Fail(error, ts_node_start_byte(c),
               "'$$$' stands for a run of siblings (arguments, statements, entries), not for one "
               "node; write $NAME here");
          return false;
        }
        if (is_body) {
          desc_placed = true;
          out->children.push_back(*desc_);
        } else {
          out->children.emplace_back().kind = Kind::kRun;
        }
        continue;
      }
      PatternNode& child = out->children.emplace_back();
      if (!Build(c, &child, error)) return false;
      child.field = field;
    }
    if (is_body && !desc_placed) out->children.push_back(*desc_);
    for (const PatternNode& c : out->children) ordered = ordered && c.field == 0;
    out->ordered = ordered;
    return true;
  }

  std::optional<TSNode> body_;
  std::optional<TSNode> place_;  // a `$$$` outside any block: the pattern lies below it
  std::optional<PatternNode> desc_;
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
      return name;
    }
    // A metavariable used again stands for the same text.
    bool fresh = false;
    std::string again = hidden_->For("=" + name, &fresh);
    if (fresh) {
      PatternConstraint c;
      c.kind = PatternConstraint::Kind::kSameAs;
      c.capture = name;
      c.other = again;
      constraints_->push_back(std::move(c));
    }
    return again;
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
  std::vector<PatternConstraint>* constraints_;
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

PatternConstraint WhereTest(const WhereConstraint& w) {
  PatternConstraint c;
  c.capture = w.metavariable;
  switch (w.kind) {
    case WhereConstraint::Kind::kEquals:
      c.texts = w.texts;
      break;
    case WhereConstraint::Kind::kRegex:
      c.kind = PatternConstraint::Kind::kRegex;
      c.texts = w.texts;
      break;
    case WhereConstraint::Kind::kRange:
      c.kind = PatternConstraint::Kind::kRegex;
      c.texts = {DecimalRangeRegex(w.lo, w.hi)};
      break;
    case WhereConstraint::Kind::kAnyOf:
      c.kind = PatternConstraint::Kind::kAnyOf;
      c.texts = w.texts;
      break;
  }
  if (c.kind == PatternConstraint::Kind::kRegex) {
    re2::RE2::Options options;
    options.set_log_errors(false);
    c.regex = std::make_shared<const re2::RE2>(c.texts[0], options);
  }
  return c;
}

// Compiles alternatives that share `p.inside` into one tree (the inside's
// body holds each at any depth), or one alternative alone. False with
// `*merge_failed` when the alternatives bind different captures.
bool CompileShared(const std::vector<std::string>& alternatives, const CodePattern& p,
                   PatternTree* out, CompiledPattern* compiled, CodePatternError* error,
                   const std::string& target, std::size_t* failing, bool* merge_failed,
                   const PatternWrap& wrap) {
  HiddenNames hidden;
  std::vector<PatternConstraint> constraints;
  std::vector<std::string> captures;
  PythonParser parser;
  PatternNode desc;  // the inner alternatives, anywhere in the inside's body
  desc.kind = PatternNode::Kind::kAnyDepth;
  std::optional<std::set<std::string>> first_bound;
  PatternNode root;
  for (std::size_t i = 0; i < alternatives.size(); ++i) {
    *failing = i;
    hidden.seen.clear();
    hidden.bound.clear();
    Substituted sub;
    if (!Substitute(alternatives[i], CodePatternError::Part::kPattern, &sub, error)) return false;
    SyntaxTree tree = parser.Parse(sub.text);
    Builder inner(sub, CodePatternError::Part::kPattern, &hidden, &constraints, &captures);
    std::optional<TSNode> r = inner.Root(tree, error);
    root = PatternNode();
    if (!r || !inner.Build(*r, &root, error)) return false;
    if (wrap) root = wrap(std::move(root));
    if (i == 0) {
      compiled->knob = KnobOf(sub, *r, target);
      compiled->shape = ShapeOf(sub, *r, target);
    }
    if (first_bound && *first_bound != hidden.bound) {
      *merge_failed = true;
      return false;
    }
    first_bound = hidden.bound;
    if (p.inside.empty()) break;
    // An expression lies below a statement of the body, never is one
    // (unless the inside places it below a `$$$` of its own: set below).
    root.min_depth = inner.expression_ && !wrap ? 1 : 0;
    desc.children.push_back(std::move(root));
  }
  *failing = 0;
  if (!p.inside.empty()) {
    Substituted outer_sub;
    if (!Substitute(p.inside, CodePatternError::Part::kInside, &outer_sub, error)) return false;
    SyntaxTree outer_tree = parser.Parse(outer_sub.text);
    hidden.seen.clear();
    Builder outer(outer_sub, CodePatternError::Part::kInside, &hidden, &constraints, &captures);
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
    if (outer.place_) {
      for (PatternNode& a : desc.children) a.min_depth = 0;
    }
    outer.desc_ = std::move(desc);
    if (compiled->knob.empty()) compiled->knob = KnobOf(outer_sub, *outer_root, target);
    root = PatternNode();
    if (!outer.Build(*outer_root, &root, error)) return false;
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
    constraints.push_back(WhereTest(w));
  }
  out->root = std::move(root);
  out->constraints = std::move(constraints);
  out->source = alternatives.size() == 1 ? alternatives[0] : "";
  FinishPatternTree(out);
  compiled->metavariables = std::move(captures);
  return true;
}

}  // namespace

bool CompileCodePattern(const CodePattern& p, CompiledPattern* out, CodePatternError* error,
                        const std::string& target) {
  std::size_t failing = 0;
  return CompileCodePatterns({p.pattern}, p, out, error, &failing, target);
}

bool CompileCodePatterns(const std::vector<std::string>& alternatives, const CodePattern& p,
                         CompiledPattern* out, CodePatternError* error, std::size_t* failing,
                         const std::string& target, const PatternWrap& wrap) {
  *failing = 0;
  bool merge_failed = false;
  if (alternatives.size() > 1 && !p.inside.empty()) {
    CompiledPattern shared;
    PatternTree tree;
    if (CompileShared(alternatives, p, &tree, &shared, error, target, failing, &merge_failed,
                      wrap)) {
      shared.trees.push_back(std::move(tree));
      *out = std::move(shared);
      return true;
    }
    if (!merge_failed) return false;
  }
  // One tree each.
  CompiledPattern all;
  for (std::size_t i = 0; i < alternatives.size(); ++i) {
    *failing = i;
    CompiledPattern compiled;
    PatternTree tree;
    std::size_t ignored = 0;
    if (!CompileShared({alternatives[i]}, p, &tree, &compiled, error, target, &ignored,
                       &merge_failed, wrap))
      return false;
    all.trees.push_back(std::move(tree));
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

}  // namespace muh
