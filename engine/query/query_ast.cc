#include "engine/query/query_ast.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace muh {

namespace {

bool IsNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.';
}

// libtree-sitter reads an identifier on through '?' and '!' as well, so
// `_!alternative` is one (unknown) node name, not a wildcard and a negation.
bool ContinuesIdentifier(char c) { return IsNameChar(c) || c == '?' || c == '!'; }

// Thrown when the text leaves the subset. ParseQuery catches it and
// returns nullopt, so it never leaves this file.
struct NotInSubset {};

// A language's symbols by name and type: a query names a few dozen node
// types, and finding each by comparing every symbol's name was a sizeable
// part of loading a rule file. Built once per language (queries compile on
// several threads, hence the lock; a table once built never changes).
class SymbolNames {
 public:
  static const SymbolNames& Of(const TSLanguage* lang) {
    static std::mutex mutex;
    static std::map<const TSLanguage*, std::unique_ptr<const SymbolNames>> tables;
    std::lock_guard<std::mutex> lock(mutex);
    std::unique_ptr<const SymbolNames>& table = tables[lang];
    if (!table) table = std::make_unique<const SymbolNames>(lang);
    return *table;
  }

  explicit SymbolNames(const TSLanguage* lang) : lang_(lang) {
    const uint32_t count = ts_language_symbol_count(lang);
    for (TSSymbol sym = 0; sym < count; ++sym) {
      const char* n = ts_language_symbol_name(lang, sym);
      if (n != nullptr) by_name_[n].push_back(sym);
    }
  }

  // The symbols called `name` of `type`, ascending.
  std::vector<TSSymbol> Named(const std::string& name, TSSymbolType type) const {
    std::vector<TSSymbol> out;
    auto it = by_name_.find(name);
    if (it == by_name_.end()) return out;
    for (TSSymbol sym : it->second) {
      if (ts_language_symbol_type(lang_, sym) == type) out.push_back(sym);
    }
    return out;
  }

 private:
  const TSLanguage* lang_;
  std::unordered_map<std::string, std::vector<TSSymbol>> by_name_;
};

class Parser {
 public:
  Parser(std::string_view s, const TSLanguage* lang) : s_(s), lang_(lang) { q_.language = lang; }

  ParsedQuery Run() {
    for (Skip(); i_ < s_.size(); Skip()) {
      QueryPattern p;
      p.start = i_;
      current_ = &p;
      if (Peek() != '(') throw NotInSubset{};
      std::size_t save = i_;
      ++i_;
      Skip();
      char c = Peek();
      i_ = save;
      if (c == '(' || c == '[' || c == '"') {
        ++i_;
        Skip();
        p.root = ChildPattern();
        for (Skip(); Peek() == '('; Skip()) {
          ++i_;
          Skip();
          if (Peek() != '#') throw NotInSubset{};  // a sibling sequence
          Predicate();
        }
        Expect(')');
      } else {
        p.root = NodePattern();
        Captures(&p.root);
      }
      // libtree-sitter starts a root `(_ child...)` at its first child and
      // takes whatever parent that has, anonymous ones too; left to it, as
      // are roots that are alternations, `_` or anonymous nodes (in a group).
      if (p.root.kind == QueryNode::Kind::kAnyNamed && !p.root.children.empty()) {
        throw NotInSubset{};
      }
      if (p.root.kind != QueryNode::Kind::kNamed && p.root.kind != QueryNode::Kind::kAnyNamed) {
        throw NotInSubset{};
      }
      Skip();
      if (Peek() == '@' || Peek() == '?' || Peek() == '*' || Peek() == '+') throw NotInSubset{};
      p.required_captures.assign(q_.capture_names.size(), false);
      MarkRequired(p.root, &p.required_captures);
      q_.patterns.push_back(std::move(p));
    }
    // One pattern only: libtree-sitter refuses a whole query when one of
    // its patterns is impossible, which our parser cannot tell.
    if (q_.patterns.size() != 1) throw NotInSubset{};
    for (QueryPattern& p : q_.patterns) p.required_captures.resize(q_.capture_names.size(), false);
    return std::move(q_);
  }

 private:
  char Peek() const { return i_ < s_.size() ? s_[i_] : '\0'; }

  void Skip() {
    while (i_ < s_.size()) {
      if (std::isspace(static_cast<unsigned char>(s_[i_]))) {
        ++i_;
      } else if (s_[i_] == ';') {
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
      } else {
        break;
      }
    }
  }

  void Expect(char c) {
    Skip();
    if (Peek() != c) throw NotInSubset{};
    ++i_;
  }

  // Whether the `_` at i is the wildcard rather than the start of a name.
  bool BareUnderscoreAt(std::size_t i) const {
    return i + 1 >= s_.size() || !ContinuesIdentifier(s_[i + 1]);
  }

  std::string Name() {
    std::size_t b = i_;
    if (Peek() == '.') throw NotInSubset{};  // libtree-sitter: not a first character
    while (i_ < s_.size() && IsNameChar(s_[i_])) ++i_;
    if (i_ == b || Peek() == '?' || Peek() == '!') throw NotInSubset{};
    return std::string(s_.substr(b, i_ - b));
  }

  std::string StringLiteral() {
    if (Peek() != '"') throw NotInSubset{};
    std::string out;
    for (++i_; i_ < s_.size() && s_[i_] != '"'; ++i_) {
      char c = s_[i_];
      if (c == '\\') {
        if (++i_ >= s_.size()) throw NotInSubset{};
        switch (s_[i_]) {
          case 'n':
            out += '\n';
            break;
          case 't':
            out += '\t';
            break;
          case 'r':
            out += '\r';
            break;
          case '"':
            out += '"';
            break;
          case '\\':
            out += '\\';
            break;
          default:
            throw NotInSubset{};
        }
      } else if (c == '\n') {
        throw NotInSubset{};
      } else {
        out += c;
      }
    }
    if (Peek() != '"') throw NotInSubset{};
    ++i_;
    return out;
  }

  std::vector<bool> Symbols(const std::string& name, TSSymbolType type) {
    std::vector<bool> set(ts_language_symbol_count(lang_), false);
    bool any = false;
    for (TSSymbol sym : SymbolNames::Of(lang_).Named(name, type)) set[sym] = any = true;
    if (!any) throw NotInSubset{};  // unknown, hidden or a supertype
    return set;
  }

  uint32_t CaptureId(const std::string& name, bool may_create) {
    auto& names = q_.capture_names;
    auto it = std::find(names.begin(), names.end(), name);
    if (it != names.end()) return static_cast<uint32_t>(it - names.begin());
    if (!may_create) throw NotInSubset{};
    names.push_back(name);
    return static_cast<uint32_t>(names.size() - 1);
  }

  // `starred`: where a `*` may follow the node (QueryChild::skippable),
  // set when one does; captures may not follow it then.
  void Captures(QueryNode* node, bool* starred = nullptr) {
    Skip();
    if (starred != nullptr && Peek() == '*') {
      ++i_;
      *starred = true;
      Skip();
      if (Peek() == '@' || Peek() == '?' || Peek() == '*' || Peek() == '+') throw NotInSubset{};
      return;
    }
    for (Skip(); Peek() == '@'; Skip()) {
      ++i_;
      node->captures.push_back(CaptureId(Name(), true));
    }
    if (Peek() == '?' || Peek() == '*' || Peek() == '+') throw NotInSubset{};
    // libtree-sitter keeps at most 3 captures on one node and drops the rest.
    if (CapturesOnNode(*node) > 3) throw NotInSubset{};
  }

  static std::size_t CapturesOnNode(const QueryNode& n) {
    std::size_t most = 0;
    for (const QueryNode& b : n.branches) most = std::max(most, CapturesOnNode(b));
    return n.captures.size() + most;
  }

  // `(type children...)` or `(_ children...)`, at '('.
  QueryNode NodePattern() {
    QueryNode node;
    Expect('(');
    Skip();
    if (Peek() == '_' && BareUnderscoreAt(i_)) {
      ++i_;
      node.kind = QueryNode::Kind::kAnyNamed;
    } else {
      std::string type = Name();
      if (type == "ERROR" || type == "MISSING") throw NotInSubset{};
      node.kind = QueryNode::Kind::kNamed;
      node.symbols = Symbols(type, TSSymbolTypeRegular);
    }
    bool pending_anchor = false;
    bool after_predicate = false;  // or a negated field: an anchor there is left to libtree-sitter
    std::vector<bool> pending_skip;  // the symbols of a `. (comment)* .` just read
    for (Skip(); Peek() != ')'; Skip()) {
      char c = Peek();
      if (c == '\0') throw NotInSubset{};
      if (c == '.') {
        if (pending_anchor || after_predicate) throw NotInSubset{};
        ++i_;
        pending_anchor = true;
        continue;
      }
      if (c == '!') {
        if (pending_anchor) throw NotInSubset{};
        ++i_;
        TSFieldId f = Field(Name());
        node.negated.push_back(f);
        // libtree-sitter ignores negated fields after the eighth.
        if (node.negated.size() > 8) throw NotInSubset{};
        after_predicate = true;  // no anchor next to it either
        continue;
      }
      if (c == '(') {
        std::size_t save = i_;
        ++i_;
        Skip();
        bool predicate = Peek() == '#';
        i_ = save;
        if (predicate) {
          if (pending_anchor) throw NotInSubset{};
          ++i_;
          Skip();
          Predicate();
          after_predicate = true;
          continue;
        }
      }
      after_predicate = false;
      QueryChild child;
      child.immediate = pending_anchor;
      pending_anchor = false;
      if (IsNameChar(c) && !(c == '_' && BareUnderscoreAt(i_))) {
        std::string field = Name();
        if (Peek() != ':') throw NotInSubset{};
        ++i_;
        Skip();
        child.field = Field(field);
      }
      bool starred = false;
      child.node.push_back(ChildPattern(&starred));
      if (starred) {
        // `. (comment)* .` and then a child: that child may pass over the
        // comments among its siblings. Anything else with a quantifier (no anchor
        // on either side, a field, captures, children, two in a row, or
        // none after it: libtree-sitter then drops the closing anchor when
        // the `*` matches nothing) is left to libtree-sitter.
        // Only `(comment)*`: a comment is an extra, possible under any node,
        // while a `*` of another type may make the pattern impossible, which
        // libtree-sitter refuses and our parser cannot tell (with the `*`
        // matching nothing, ours would still match).
        const QueryNode& x = child.node[0];
        if (!child.immediate || child.field != 0 || x.kind != QueryNode::Kind::kNamed ||
            !x.children.empty() || !x.captures.empty() || !x.negated.empty() ||
            !pending_skip.empty() || x.symbols != Symbols("comment", TSSymbolTypeRegular)) {
          throw NotInSubset{};
        }
        Skip();
        if (Peek() != '.') throw NotInSubset{};
        ++i_;
        pending_anchor = true;
        pending_skip = x.symbols;
        continue;
      }
      child.skippable = std::move(pending_skip);
      pending_skip.clear();
      // An anchor next to a node that may be anonymous: tree-sitter's rule
      // for those is subtle; leave them to it.
      if (child.immediate && MayBeAnonymous(child.node[0])) throw NotInSubset{};
      node.children.push_back(std::move(child));
    }
    ++i_;
    if (!pending_skip.empty()) throw NotInSubset{};
    if (pending_anchor) {
      // libtree-sitter checks a closing anchor after an alternation on its
      // first branch only (a helper probe): left to it.
      if (node.children.empty() || MayBeAnonymous(node.children.back().node[0]) ||
          node.children.back().node[0].kind == QueryNode::Kind::kAlternation) {
        throw NotInSubset{};
      }
      node.anchored_last = true;
    }
    for (std::size_t k = 0; k < node.children.size(); ++k) {
      QueryChild& ch = node.children[k];
      bool next_immediate = k + 1 < node.children.size() && node.children[k + 1].immediate;
      ch.may_take_first_candidate_only =
          !ch.immediate && !HasCaptures(ch.node[0]) && (HasChildren(ch.node[0]) || next_immediate);
    }
    return node;
  }

  static bool HasCaptures(const QueryNode& n) {
    if (!n.captures.empty()) return true;
    for (const QueryChild& c : n.children) {
      if (HasCaptures(c.node[0])) return true;
    }
    return std::any_of(n.branches.begin(), n.branches.end(), HasCaptures);
  }
  static bool HasChildren(const QueryNode& n) {
    return !n.children.empty() || std::any_of(n.branches.begin(), n.branches.end(), HasChildren);
  }

  static bool MayBeAnonymous(const QueryNode& n) {
    if (n.kind == QueryNode::Kind::kAny || n.kind == QueryNode::Kind::kAnonymous) return true;
    return std::any_of(n.branches.begin(), n.branches.end(), MayBeAnonymous);
  }

  TSFieldId Field(const std::string& name) {
    TSFieldId f =
        ts_language_field_id_for_name(lang_, name.data(), static_cast<uint32_t>(name.size()));
    if (f == 0) throw NotInSubset{};
    return f;
  }

  // A child: node pattern, `_`, `"anon"` or `[alternation]`, with captures.
  QueryNode ChildPattern(bool* starred = nullptr) {
    QueryNode node;
    char c = Peek();
    if (c == '(') {
      node = NodePattern();
    } else if (c == '"') {
      node.kind = QueryNode::Kind::kAnonymous;
      node.symbols = Symbols(StringLiteral(), TSSymbolTypeAnonymous);
    } else if (c == '_' && BareUnderscoreAt(i_)) {
      ++i_;
      node.kind = QueryNode::Kind::kAny;
    } else if (c == '[') {
      ++i_;
      node.kind = QueryNode::Kind::kAlternation;
      for (Skip(); Peek() != ']'; Skip()) {
        char b = Peek();
        if (b != '(' && b != '"' && b != '_' && b != '[') throw NotInSubset{};
        if (b == '(') {  // a predicate or a group inside an alternation
          std::size_t save = i_;
          ++i_;
          Skip();
          char n = Peek();
          i_ = save;
          if (n == '#' || n == '(' || n == '[' || n == '"') throw NotInSubset{};
        }
        node.branches.push_back(ChildPattern());
      }
      ++i_;
      if (node.branches.empty()) throw NotInSubset{};
      // Branches binding different captures would let one match's captures
      // be a subset of another's; tree-sitter then keeps only the larger.
      std::vector<bool> first = AllCaptures(node.branches[0]);
      for (const QueryNode& b : node.branches) {
        if (AllCaptures(b) != first) throw NotInSubset{};
      }
    } else {
      throw NotInSubset{};
    }
    Captures(&node, node.kind == QueryNode::Kind::kNamed ? starred : nullptr);
    return node;
  }

  std::vector<bool> AllCaptures(const QueryNode& n) {
    std::vector<bool> out(q_.capture_names.size(), false);
    Collect(n, &out);
    return out;
  }
  static void Collect(const QueryNode& n, std::vector<bool>* out) {
    for (uint32_t c : n.captures) (*out)[c] = true;
    for (const QueryChild& ch : n.children) Collect(ch.node[0], out);
    for (const QueryNode& b : n.branches) Collect(b, out);
  }
  static void MarkRequired(const QueryNode& n, std::vector<bool>* out) {
    for (uint32_t c : n.captures) (*out)[c] = true;
    for (const QueryChild& ch : n.children) MarkRequired(ch.node[0], out);
    // Every branch binds the same captures (checked above).
    if (!n.branches.empty()) MarkRequired(n.branches[0], out);
  }

  // After `(` and blanks, at '#'.
  void Predicate() {
    ++i_;
    QueryPredicate p;
    std::size_t b = i_;
    while (i_ < s_.size() && ContinuesIdentifier(s_[i_])) ++i_;
    if (i_ == b) throw NotInSubset{};
    p.name = std::string(s_.substr(b, i_ - b));
    for (Skip(); Peek() != ')'; Skip()) {
      QueryOperand op;
      if (Peek() == '@') {
        ++i_;
        op.is_capture = true;
        op.capture = CaptureId(Name(), false);
      } else if (Peek() == '"') {
        op.text = StringLiteral();
      } else {
        throw NotInSubset{};
      }
      p.operands.push_back(std::move(op));
    }
    ++i_;
    current_->predicates.push_back(std::move(p));
  }

  std::string_view s_;
  const TSLanguage* lang_;
  std::size_t i_ = 0;
  ParsedQuery q_;
  QueryPattern* current_ = nullptr;
};

}  // namespace

std::optional<ParsedQuery> ParseQuery(std::string_view source, const TSLanguage* language) {
  try {
    return Parser(source, language).Run();
  } catch (const NotInSubset&) {
    return std::nullopt;
  }
}

namespace {

bool OnlyIdentifiers(const QueryNode& n, const TSLanguage* language, uint32_t c, bool* seen) {
  if (std::find(n.captures.begin(), n.captures.end(), c) != n.captures.end()) {
    *seen = true;
    if (n.kind != QueryNode::Kind::kNamed) return false;
    for (std::size_t s = 0; s < n.symbols.size(); ++s) {
      if (n.symbols[s] && std::string_view(ts_language_symbol_name(
                              language, static_cast<TSSymbol>(s))) != "identifier") {
        return false;
      }
    }
  }
  for (const QueryChild& ch : n.children) {
    if (!OnlyIdentifiers(ch.node[0], language, c, seen)) return false;
  }
  return std::all_of(n.branches.begin(), n.branches.end(),
                     [&](const QueryNode& b) { return OnlyIdentifiers(b, language, c, seen); });
}

}  // namespace

bool CapturesOnlyIdentifiers(const QueryPattern& p, const TSLanguage* language, uint32_t c) {
  bool seen = false;
  return OnlyIdentifiers(p.root, language, c, &seen) && seen;
}

}  // namespace muh
