#include "engine/python/statement_table.h"

#include <algorithm>
#include <cctype>
#include <cstring>

#include "engine/base/text.h"
#include "engine/python/syntax_tree.h"
#include "engine/python/ts_handles.h"

namespace muh {

namespace {

bool InRanges(const std::vector<StatementTable::Range>& ranges, std::size_t at) {
  auto it = std::upper_bound(
      ranges.begin(), ranges.end(), at,
      [](std::size_t off, const StatementTable::Range& r) { return off < r.first; });
  if (it == ranges.begin()) return false;
  --it;
  return at < it->second;
}

// Calls visit(child) for each child of `node` (named or not) in order: a
// cursor walks them in linear time, where ts_node_child(i) would not.
template <typename Visit>
void ForEachChild(TSNode node, const Visit& visit) {
  TSTreeCursor c = ts_tree_cursor_new(node);
  if (ts_tree_cursor_goto_first_child(&c)) {
    do {
      visit(ts_tree_cursor_current_node(&c));
    } while (ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
}

// Whether bytes[i] ends a line: LF, or a CR that no LF follows (the parser
// reads such a CR as LF).
bool EndsLine(std::string_view bytes, std::size_t i) {
  return bytes[i] == '\n' || (bytes[i] == '\r' && (i + 1 == bytes.size() || bytes[i + 1] != '\n'));
}

// The node types the builder tells apart, by grammar symbol: comparing
// symbols, not type names, keeps the walk over every node cheap.
enum class Kind : std::uint8_t {
  kOther,
  kString,
  kComment,
  kContinuation,
  kSemicolon,
  kColon,
  kBlock,
  kDecorated,
  kDecorator
};

Kind KindOf(TSNode node) {
  static const std::vector<Kind> kinds = [] {
    const TSLanguage* python = tree_sitter_python();
    std::vector<Kind> out(ts_language_symbol_count(python), Kind::kOther);
    const std::pair<const char*, Kind> named[] = {{"string", Kind::kString},
                                                  {"comment", Kind::kComment},
                                                  {"line_continuation", Kind::kContinuation},
                                                  {";", Kind::kSemicolon},
                                                  {":", Kind::kColon},
                                                  {"block", Kind::kBlock},
                                                  {"decorated_definition", Kind::kDecorated},
                                                  {"decorator", Kind::kDecorator}};
    for (TSSymbol sym = 0; sym < out.size(); ++sym) {
      std::string_view name = ts_language_symbol_name(python, sym);
      for (const auto& [n, k] : named) {
        if (name == n) out[sym] = k;
      }
    }
    return out;
  }();
  TSSymbol sym = ts_node_symbol(node);
  return sym < kinds.size() ? kinds[sym] : Kind::kOther;
}

bool Is(TSNode node, Kind kind) { return KindOf(node) == kind; }

// A comment or a backslash continuation: the grammar's extras, which stand
// between tokens and are no statement.
bool IsExtra(TSNode node) {
  Kind k = KindOf(node);
  return k == Kind::kComment || k == Kind::kContinuation;
}

}  // namespace

// Builds a table from a parse: one walk over the statements for the logical
// lines, their parents and the cuts, one over every node for the strings
// and comments.
class StatementTableBuilder {
 public:
  StatementTableBuilder(std::string_view src, StatementTable::Parts* out) : src_(src), out_(out) {}

  void Statements(TSNode module) { Container(module, -1, false, 0); }

  // The outermost string literals (an f-string's replacement fields and the
  // strings in them belong to it) and the comments, in document order.
  void StringsAndComments(TSNode root) {
    // Every quote and `#`: a node whose bytes hold none holds no string or
    // comment, and the walk skips it.
    std::vector<std::uint32_t> marks;
    for (std::size_t i = 0; i < src_.size(); ++i) {
      char c = src_[i];
      if (c == '"' || c == '\'' || c == '#') marks.push_back(static_cast<std::uint32_t>(i));
    }
    auto holds_mark = [&](TSNode n) {
      auto it = std::lower_bound(marks.begin(), marks.end(), ts_node_start_byte(n));
      return it != marks.end() && *it < ts_node_end_byte(n);
    };
    TSTreeCursor walk = ts_tree_cursor_new(root);
    for (;;) {
      TSNode node = ts_tree_cursor_current_node(&walk);
      bool descend = holds_mark(node);
      Kind kind = descend ? KindOf(node) : Kind::kOther;
      if (kind == Kind::kString) {
        std::uint32_t b = ts_node_start_byte(node);
        while (b < src_.size() && std::isalpha(static_cast<unsigned char>(src_[b]))) ++b;
        out_->strings.emplace_back(b, ts_node_end_byte(node));
        descend = false;
      } else if (kind == Kind::kComment) {
        out_->comments.emplace_back(ts_node_start_byte(node), ts_node_end_byte(node));
        descend = false;
      }
      if (descend && ts_tree_cursor_goto_first_child(&walk)) continue;
      bool more = false;
      do {
        if (ts_tree_cursor_goto_next_sibling(&walk)) {
          more = true;
          break;
        }
      } while (ts_tree_cursor_goto_parent(&walk));
      if (!more) break;
    }
    ts_tree_cursor_delete(&walk);
  }

  // Each line's end: after the line end that follows its code.
  void Ends() {
    for (LogicalLine& l : out_->lines) {
      std::size_t i = l.code_end;
      while (i < src_.size() && !EndsLine(src_, i)) ++i;
      if (i < src_.size()) ++i;  // at a CR that an LF follows, EndsLine waits for the LF
      l.end = static_cast<std::uint32_t>(std::min(i, src_.size()));
    }
  }

 private:
  // Whether nothing but blanks and backslash continuations stand in
  // [from, to): the token at `to` continues the logical line of the one
  // ending at `from`. A comment or an unescaped line end between them ends it.
  bool SameLogicalLine(std::size_t from, std::size_t to) const {
    for (std::size_t i = from; i < to; ++i) {
      if (src_[i] == '#') return false;
      if (!EndsLine(src_, i)) continue;
      std::size_t p = i;
      if (p > from && src_[p - 1] == '\r') --p;  // CRLF: the CR before the LF
      if (p == from || src_[p - 1] != '\\') return false;
    }
    return true;
  }

  int NewLine(TSNode node, int parent) {
    LogicalLine l;
    TSPoint at = ts_node_start_point(node);
    l.code = ts_node_start_byte(node);
    l.begin = l.code - std::min(l.code, at.column);
    l.code_end = l.code;
    l.line = static_cast<int>(at.row) + 1;
    l.parent = parent;
    for (std::size_t j = l.begin; j < l.code; ++j) {
      if (src_[j] == ' ') {
        ++l.indent;
      } else if (src_[j] == '\t') {
        l.indent = (l.indent / 8 + 1) * 8;
      }
    }
    out_->lines.push_back(l);
    return static_cast<int>(out_->lines.size()) - 1;
  }

  void Extend(int line, std::uint32_t end) {
    LogicalLine& l = out_->lines[static_cast<std::size_t>(line)];
    l.code_end = std::max(l.code_end, end);
  }

  // The statements of a module or of the block of header line `parent`.
  // `join_first`: the first one continues the header's line if nothing but
  // blanks stand between `joint` and it (the body of `if c: x = 1`).
  void Container(TSNode container, int parent, bool join_first, std::uint32_t joint) {
    bool may_join = join_first;
    int line = parent;
    int indent = -1;
    ForEachChild(container, [&](TSNode child) {
      if (IsExtra(child)) return;
      if (!ts_node_is_named(child)) {
        if (Is(child, Kind::kSemicolon)) {
          out_->cuts.push_back(ts_node_start_byte(child));
          Extend(line, ts_node_end_byte(child));
          may_join = true;
          joint = ts_node_end_byte(child);
        }
        return;
      }
      bool joined = may_join && SameLogicalLine(joint, ts_node_start_byte(child));
      may_join = false;
      if (!joined) {
        line = NewLine(child, parent);
        // The grammar lets a dedent to a column no enclosing block starts at
        // pass (`if x:` / `        a` / `    b`); Python refuses it.
        int at = out_->lines.back().indent;
        if (indent >= 0 && at != indent) consistent_ = false;
        indent = at;
      }
      Statement(child, line, parent);
    });
  }

  // Statement `node`, which starts on (or continues) logical line `line`;
  // `parent` is the header whose block holds it.
  void Statement(TSNode node, int line, int parent) {
    if (Is(node, Kind::kDecorated)) {
      bool first = true;
      ForEachChild(node, [&](TSNode child) {
        if (!ts_node_is_named(child) || IsExtra(child)) return;
        int at = first ? line : NewLine(child, parent);
        first = false;
        if (Is(child, Kind::kDecorator)) {
          Extend(at, CodeEnd(child));
        } else {
          Statement(child, at, parent);
        }
      });
      return;
    }
    bool compound = false;
    std::uint32_t colon = 0;
    ForEachChild(node, [&](TSNode child) {
      if (Is(child, Kind::kColon)) {
        colon = ts_node_start_byte(child);
      } else if (Is(child, Kind::kBlock)) {
        compound = true;
        out_->cuts.push_back(colon);
        Extend(line, colon + 1);
        Container(child, line, true, colon + 1);
      } else if (ts_node_is_named(child) && HasBlock(child)) {
        // A clause: `elif`, `else`, `except`, `finally` on a line of its own.
        Statement(child, NewLine(child, parent), parent);
      }
    });
    if (!compound) Extend(line, CodeEnd(node));
  }

  // The end of `node`'s last token: a comment the grammar took into the
  // node (`@overload  # legacy`) is no code. Follows the last children
  // down, without recursion.
  static std::uint32_t CodeEnd(TSNode node) {
    for (;;) {
      TSNode last{};
      bool any = false;
      ForEachChild(node, [&](TSNode child) {
        if (IsExtra(child)) return;
        last = child;
        any = true;
      });
      if (!any) return ts_node_end_byte(node);
      node = last;
    }
  }

  static bool HasBlock(TSNode node) {
    bool found = false;
    ForEachChild(node, [&](TSNode child) { found = found || Is(child, Kind::kBlock); });
    return found;
  }

  std::string_view src_;
  StatementTable::Parts* out_;

 public:
  // Whether every block's statements start at one column.
  bool consistent_ = true;
};

std::optional<StatementTable> StatementTable::FromTree(const SyntaxTree& tree) {
  std::string_view src = tree.bytes();
  if (src.size() >= UINT32_MAX || tree.HasError()) return std::nullopt;
  auto parts = std::make_shared<Parts>();
  parts->lines.reserve(src.size() / 64 + 16);
  StatementTableBuilder build(src, parts.get());
  build.Statements(tree.Root());
  if (!build.consistent_) return std::nullopt;
  build.StringsAndComments(tree.Root());
  build.Ends();
  parts->lines.shrink_to_fit();
  StatementTable out;
  out.src_ = src;
  out.parts_ = std::move(parts);
  return out;
}

std::optional<StatementTable> StatementTable::Build(std::string_view src) {
  if (src.size() >= UINT32_MAX) return std::nullopt;
  PythonParser parser;
  return FromTree(parser.Parse(src));
}

int StatementTable::IndexAt(std::size_t offset) const {
  auto it = std::upper_bound(parts_->lines.begin(), parts_->lines.end(), offset,
                             [](std::size_t off, const LogicalLine& l) { return off < l.begin; });
  if (it == parts_->lines.begin()) return -1;
  --it;
  return offset < it->end ? static_cast<int>(it - parts_->lines.begin()) : -1;
}

bool StatementTable::InCode(std::size_t offset) const {
  return !InRanges(parts_->strings, offset) && !InRanges(parts_->comments, offset);
}

std::size_t StatementTable::CodeBefore(std::size_t offset) const {
  std::size_t b = std::min(offset, src_.size());
  while (b > 0) {
    char c = src_[b - 1];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\\') {
      --b;
      continue;
    }
    auto it = std::upper_bound(parts_->comments.begin(), parts_->comments.end(), b - 1,
                               [](std::size_t off, const Range& r) { return off < r.first; });
    if (it == parts_->comments.begin()) break;
    --it;
    if (b - 1 >= it->second) break;
    b = it->first;  // a comment: before its `#`
  }
  return b;
}

std::size_t StatementTable::CodeAfter(std::size_t offset) const {
  std::size_t a = offset;
  while (a < src_.size()) {
    char c = src_[a];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\\') {
      ++a;
      continue;
    }
    if (c != '#' || !InRanges(parts_->comments, a)) break;
    while (a < src_.size() && src_[a] != '\n' && src_[a] != '\r') ++a;
  }
  return a;
}

bool StatementTable::InString(std::size_t offset) const {
  return InRanges(parts_->strings, offset);
}

std::optional<StatementTable::Range> StatementTable::StringAt(std::size_t offset) const {
  auto it = std::upper_bound(parts_->strings.begin(), parts_->strings.end(), offset,
                             [](std::size_t off, const Range& r) { return off < r.first; });
  if (it == parts_->strings.begin()) return std::nullopt;
  --it;
  if (offset >= it->second) return std::nullopt;
  return *it;
}

std::string_view StatementTable::Code(int k) const {
  const LogicalLine& l = parts_->lines[static_cast<std::size_t>(k)];
  return src_.substr(l.code, l.code_end > l.code ? l.code_end - l.code : 0);
}

std::string_view StatementTable::Keyword(int k) const {
  std::string_view code = Code(k);
  std::size_t e = 0;
  while (e < code.size() && IsWordChar(code[e])) ++e;
  return code.substr(0, e);
}

std::pair<std::size_t, std::size_t> StatementTable::CutsOf(int k) const {
  const LogicalLine& l = parts_->lines[static_cast<std::size_t>(k)];
  auto b = std::lower_bound(parts_->cuts.begin(), parts_->cuts.end(), l.code);
  auto e = std::lower_bound(b, parts_->cuts.end(), l.code_end);
  return {static_cast<std::size_t>(b - parts_->cuts.begin()),
          static_cast<std::size_t>(e - parts_->cuts.begin())};
}

std::string_view StatementTable::HeaderCondition(int k) const {
  std::string_view kw = Keyword(k);
  auto [b, e] = CutsOf(k);
  // A header's colon is its line's first cut: no `;` stands before a header.
  if (kw.empty() || b == e || src_[parts_->cuts[b]] != ':') return {};
  std::size_t from = parts_->lines[static_cast<std::size_t>(k)].code + kw.size();
  return Trim(src_.substr(from, parts_->cuts[b] - from));
}

std::string_view StatementTable::StatementAt(int k, std::size_t offset, std::size_t* begin) const {
  const LogicalLine& l = parts_->lines[static_cast<std::size_t>(k)];
  std::size_t b = l.code;
  std::size_t e = l.code_end;
  auto [first, last] = CutsOf(k);
  for (std::size_t c = first; c < last; ++c) {
    if (parts_->cuts[c] < offset) {
      b = parts_->cuts[c] + 1;
    } else {
      e = parts_->cuts[c];
      break;
    }
  }
  while (b < e && (src_[b] == ' ' || src_[b] == '\t')) ++b;
  while (e > b && (src_[e - 1] == ' ' || src_[e - 1] == '\t')) --e;
  if (begin != nullptr) *begin = b;
  return src_.substr(b, e - b);
}

bool StatementTable::HasSeveralStatements(int k) const {
  const LogicalLine& l = parts_->lines[static_cast<std::size_t>(k)];
  auto [first, last] = CutsOf(k);
  for (std::size_t c = first; c < last; ++c) {
    if (src_[parts_->cuts[c]] == ';') return true;
    std::size_t n = parts_->cuts[c] + 1;
    while (n < l.code_end && (src_[n] == ' ' || src_[n] == '\t')) ++n;
    if (n < l.code_end) return true;
  }
  return false;
}

int StatementTable::LineOf(std::size_t offset) const {
  int line = 1;
  for (std::size_t i = 0; i < std::min(offset, src_.size()); ++i) {
    if (EndsLine(src_, i)) ++line;
  }
  return line;
}

}  // namespace muh
