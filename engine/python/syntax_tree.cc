#include "engine/python/syntax_tree.h"

#include <algorithm>
#include <cctype>
#include <memory>
#include <stdexcept>
#include <vector>

namespace muh {

PythonParser::PythonParser() : parser_(ts_parser_new()) {
  if (!ts_parser_set_language(parser_.get(), tree_sitter_python())) {
    throw std::runtime_error("tree-sitter-python's ABI is not supported by this libtree-sitter");
  }
}

bool MayHoldFoldedName(std::string_view bytes) {
  std::size_t i = bytes.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  auto high = [&](std::size_t k) { return static_cast<unsigned char>(bytes[k]) >= 0x80; };
  while (i < bytes.size()) {
    char c = bytes[i];
    if (c == '#') {
      while (i < bytes.size() && bytes[i] != '\n' && bytes[i] != '\r') ++i;
      continue;
    }
    if (c == '\'' || c == '"') {
      // The prefix letters before the quote: an f-string's fields are code.
      bool f = false;
      for (std::size_t p = i;
           p > 0 && std::isalpha(static_cast<unsigned char>(bytes[p - 1])) && i - p < 3; --p) {
        f = f || bytes[p - 1] == 'f' || bytes[p - 1] == 'F';
      }
      bool triple = bytes.substr(i, 3) == std::string(3, c);
      std::size_t j = i + (triple ? 3 : 1);
      bool closed = false;
      while (j < bytes.size()) {
        if (bytes[j] == '\\') {
          j += 2;
          continue;
        }
        if (high(j) && f) return true;
        if (!triple && (bytes[j] == '\n' || bytes[j] == '\r')) break;  // unterminated
        if (bytes[j] == c && (!triple || bytes.substr(j, 3) == std::string(3, c))) {
          j += triple ? 3 : 1;
          closed = true;
          break;
        }
        ++j;
      }
      if (!closed) return true;  // unsure
      i = j;
      continue;
    }
    if (high(i)) return true;
    ++i;
  }
  return false;
}

std::optional<std::string> LoneCrAsLf(std::string_view bytes) {
  std::optional<std::string> out;
  for (std::size_t at = bytes.find('\r'); at != std::string_view::npos;
       at = bytes.find('\r', at + 1)) {
    if (at + 1 < bytes.size() && bytes[at + 1] == '\n') continue;
    if (!out) out.emplace(bytes);
    (*out)[at] = '\n';
  }
  return out;
}

namespace {

// Parses `bytes`, or LoneCrAsLf's copy of them: the same offsets.
TSTree* ParseFed(TSParser* parser, const TSTree* old, std::string_view bytes) {
  const std::optional<std::string> copy = LoneCrAsLf(bytes);
  const std::string_view fed = copy ? std::string_view(*copy) : bytes;
  return ts_parser_parse_string(parser, old, fed.data(), static_cast<uint32_t>(fed.size()));
}

// Whether bytes[i] ends a line as libtree-sitter sees the bytes it is fed.
bool EndsLine(std::string_view bytes, std::size_t i) {
  return bytes[i] == '\n' || (bytes[i] == '\r' && (i + 1 == bytes.size() || bytes[i + 1] != '\n'));
}

}  // namespace

SyntaxTree PythonParser::Parse(std::string_view bytes) {
  return SyntaxTree(TsTreePtr(ParseFed(parser_.get(), nullptr, bytes)), bytes);
}

namespace {

// `p`, the point of bytes[from], moved on to the point of bytes[to], as
// libtree-sitter counts rows and byte columns.
TSPoint Walk(std::string_view bytes, std::size_t from, std::size_t to, TSPoint p) {
  for (std::size_t i = from; i < to; ++i) {
    if (EndsLine(bytes, i)) {
      ++p.row;
      p.column = 0;
    } else {
      ++p.column;
    }
  }
  return p;
}

// Row and byte column of `offset` in `bytes`.
TSPoint PointAt(std::string_view bytes, std::size_t offset) {
  return Walk(bytes, 0, offset, TSPoint{0, 0});
}

TSPoint Advance(TSPoint p, std::string_view text) { return Walk(text, 0, text.size(), p); }

}  // namespace

SyntaxTree PythonParser::Reparse(const SyntaxTree& old, std::string_view bytes,
                                 const std::vector<ByteEdit>& edits) {
  TsTreePtr edited(ts_tree_copy(old.raw()));
  // From the last edit back, so that each one's offsets are still those of
  // the old bytes.
  for (auto e = edits.rbegin(); e != edits.rend(); ++e) {
    TSInputEdit in;
    in.start_byte = static_cast<uint32_t>(e->offset);
    in.old_end_byte = static_cast<uint32_t>(e->offset + e->length);
    in.new_end_byte = static_cast<uint32_t>(e->offset + e->text.size());
    in.start_point = PointAt(old.bytes(), e->offset);
    in.old_end_point = PointAt(old.bytes(), e->offset + e->length);
    in.new_end_point = Advance(in.start_point, e->text);
    ts_tree_edit(edited.get(), &in);
  }
  return SyntaxTree(TsTreePtr(ParseFed(parser_.get(), edited.get(), bytes)), bytes);
}

namespace {

// Whether `bytes` hold the word `match` first on a line, as a match
// statement begins.
bool MayHoldMatchStatement(std::string_view bytes) {
  for (std::size_t o = bytes.find("match"); o != std::string_view::npos;
       o = bytes.find("match", o + 5)) {
    std::size_t b = o;
    while (b > 0 && (bytes[b - 1] == ' ' || bytes[b - 1] == '\t')) --b;
    if (b == 0 || bytes[b - 1] == '\n' || bytes[b - 1] == '\r') return true;
  }
  return false;
}

// A statement tree-sitter-python 0.23.6 reads otherwise than CPython: the
// soft keyword `match` with a bracketed subject before a `case [...]` reads
// as an annotated assignment, `match[s]: case[p]: ...`, whose annotation
// holds a constrained type (`A: B`), which no annotation of Python can.
std::optional<SyntaxProblem> Misread(TSNode root, std::string_view bytes) {
  if (!MayHoldMatchStatement(bytes)) return std::nullopt;
  std::vector<TSNode> stack{root};
  while (!stack.empty()) {
    TSNode node = stack.back();
    stack.pop_back();
    if (std::string_view(ts_node_type(node)) == "assignment") {
      TSNode type = ts_node_child_by_field_name(node, "type", 4);
      std::vector<TSNode> inner;
      if (!ts_node_is_null(type)) inner.push_back(type);
      while (!inner.empty()) {
        TSNode t = inner.back();
        inner.pop_back();
        if (std::string_view(ts_node_type(t)) == "constrained_type") {
          return SyntaxProblem{ts_node_start_byte(node),
                               "a statement the grammar misreads (a `match` statement read as an "
                               "annotation)"};
        }
        for (uint32_t i = ts_node_named_child_count(t); i > 0; --i) {
          inner.push_back(ts_node_named_child(t, i - 1));
        }
      }
    }
    for (uint32_t i = ts_node_named_child_count(node); i > 0; --i) {
      stack.push_back(ts_node_named_child(node, i - 1));
    }
  }
  return std::nullopt;
}

// A name written with other than ASCII letters: CPython folds it (NFKC),
// so `ℌAS_TRITON` is HAS_TRITON, and every name muhpatch compares byte for
// byte may be another's. Only bytes of 0x80 and above are looked at, and
// only those of an identifier count (a string or a comment may hold any).
std::optional<SyntaxProblem> FoldedName(TSNode root, std::string_view bytes) {
  std::size_t from = bytes.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;  // a BOM
  for (std::size_t i = from; i < bytes.size(); ++i) {
    if (static_cast<unsigned char>(bytes[i]) < 0x80) continue;
    TSNode n = ts_node_descendant_for_byte_range(root, static_cast<uint32_t>(i),
                                                 static_cast<uint32_t>(i + 1));
    if (!ts_node_is_null(n) && std::string_view(ts_node_type(n)) == "identifier") {
      return SyntaxProblem{ts_node_start_byte(n),
                           "a name written with other than ASCII letters, which Python folds "
                           "(NFKC) into another name: muhpatch compares names as written"};
    }
    // The rest of a leaf (a comment, a string's text) holds no identifier.
    if (!ts_node_is_null(n) && ts_node_child_count(n) == 0 && ts_node_end_byte(n) > i + 1) {
      i = ts_node_end_byte(n) - 1;
    }
  }
  return std::nullopt;
}

// Python's hard keywords, which never stand as a name.
bool IsHardKeyword(std::string_view word) {
  static constexpr std::string_view kKeywords[] = {
      "False", "None",     "True",  "and",    "as",   "assert", "async",  "await",    "break",
      "class", "continue", "def",   "del",    "elif", "else",   "except", "finally",  "for",
      "from",  "global",   "if",    "import", "in",   "is",     "lambda", "nonlocal", "not",
      "or",    "pass",     "raise", "return", "try",  "while",  "with",   "yield"};
  return std::find(std::begin(kKeywords), std::end(kKeywords), word) != std::end(kKeywords);
}

// Where the grammar accepts what CPython rejects, and so may cut the
// statements otherwise: tree-sitter lexes a keyword as a name wherever the
// keyword cannot stand (`else: X = 3` after a statement that closes the
// `if` reads as an annotated assignment to `else`; `x = pass`, `f(if=1)`),
// and it still knows Python 2's `print x` and `exec "x"`. One cursor walk
// over every node, so linear at any depth.
std::optional<SyntaxProblem> KeywordAsName(TSNode root, std::string_view bytes) {
  TSTreeCursor c = ts_tree_cursor_new(root);
  std::optional<SyntaxProblem> found;
  while (!found) {
    TSNode n = ts_tree_cursor_current_node(&c);
    const std::string_view type = ts_node_type(n);
    if (type == "identifier") {
      const std::uint32_t from = ts_node_start_byte(n);
      const std::string_view word = bytes.substr(from, ts_node_end_byte(n) - from);
      if (IsHardKeyword(word)) {
        found = SyntaxProblem{from, "`" + std::string(word) +
                                        "` is a keyword, yet the grammar reads it as a name "
                                        "here: CPython rejects the statement"};
      }
    } else if (type == "print_statement" || type == "exec_statement") {
      found = SyntaxProblem{ts_node_start_byte(n), "a Python 2 `" +
                                                       std::string(type.substr(0, type.find('_'))) +
                                                       "` statement, which CPython rejects"};
    }
    if (ts_tree_cursor_goto_first_child(&c)) continue;
    bool more = false;
    do {
      more = ts_tree_cursor_goto_next_sibling(&c);
    } while (!more && ts_tree_cursor_goto_parent(&c));
    if (!more) break;
  }
  ts_tree_cursor_delete(&c);
  return found;
}

// Whether a tab stands in some line's leading blanks.
bool TabInIndent(std::string_view bytes) {
  bool leading = true;
  for (char c : bytes) {
    if (c == '\n' || c == '\r') {
      leading = true;
    } else if (c == '\t' && leading) {
      return true;
    } else if (c != ' ' && c != '\f') {
      leading = false;
    }
  }
  return false;
}

// Whether `n`, a child of a node of type `up` ("" for the root), begins a
// logical line where it stands: a statement of a block or the module, a
// clause (`elif`, `else`, `except`, `finally`, `case`), a decorator, or the
// def or class it decorates.
bool BeginsLogicalLine(TSNode n, std::string_view up) {
  std::string_view type = ts_node_type(n);
  if (type == "elif_clause" || type == "else_clause" || type == "except_clause" ||
      type == "except_group_clause" || type == "finally_clause" || type == "case_clause" ||
      type == "decorator") {
    return true;
  }
  // A comment is no logical line: CPython reads no indentation from it.
  if (!ts_node_is_named(n) || type == "comment" || type == "line_continuation") return false;
  return up == "module" || up == "block" || up == "decorated_definition";
}

// CPython's TabError: the indentation of the logical lines, read with a tab
// as 8 columns and as 1, must order the lines alike (the tokenizer's
// indstack and altindstack). tree-sitter-python reads a tab as 8 columns
// only, so it takes a file CPython rejects (a helper probe of f751cf4: one
// tab in fused_moe.py, and apply rewrote the file with exit 0).
std::optional<SyntaxProblem> InconsistentTabs(TSNode root, std::string_view bytes) {
  if (!TabInIndent(bytes)) return std::nullopt;
  std::vector<int> cols{0}, alts{0};
  std::size_t last = std::string_view::npos;
  TSTreeCursor c = ts_tree_cursor_new(root);
  std::optional<SyntaxProblem> found;
  auto check = [&](std::size_t at) {
    // Back over the blanks only: code before them on the line makes this
    // no line's first (and a long line costs no more than its indent).
    std::size_t begin = at;
    while (begin > 0 &&
           (bytes[begin - 1] == ' ' || bytes[begin - 1] == '\t' || bytes[begin - 1] == '\f')) {
      --begin;
    }
    if (begin > 0 && bytes[begin - 1] != '\n' && bytes[begin - 1] != '\r') return;
    // A line after a backslash continuation goes on the logical line before
    // it: CPython reads the indentation from that line's first on (blanks
    // and lone backslashes summed), and none at all where code stands
    // before the backslash there.
    while (begin > 0) {
      std::size_t end = begin;
      if (bytes[end - 1] == '\n') --end;
      if (end > 0 && bytes[end - 1] == '\r') --end;
      if (end == 0 || bytes[end - 1] != '\\') break;
      std::size_t start = end - 1;
      while (start > 0 && bytes[start - 1] != '\n' && bytes[start - 1] != '\r') --start;
      for (std::size_t i = start; i + 1 < end; ++i) {
        if (bytes[i] != ' ' && bytes[i] != '\t' && bytes[i] != '\f') return;
      }
      begin = start;
    }
    int col = 0, alt = 0;
    for (std::size_t i = begin; i < bytes.size(); ++i) {
      if (bytes[i] == ' ') {
        ++col;
        ++alt;
      } else if (bytes[i] == '\t') {
        col = (col / 8 + 1) * 8;
        ++alt;
      } else if (bytes[i] == '\f') {
        col = alt = 0;
      } else if (bytes[i] == '\\' && i < at) {
        // A lone backslash: the indentation goes on, summed, on the next
        // line (CPython's tokenizer).
        if (i + 1 < bytes.size() && bytes[i + 1] == '\r') ++i;
        ++i;
      } else {
        break;
      }
    }
    bool bad = false;
    if (col == cols.back()) {
      bad = alt != alts.back();
    } else if (col > cols.back()) {
      bad = alt <= alts.back();
      cols.push_back(col);
      alts.push_back(alt);
    } else {
      while (cols.size() > 1 && col < cols.back()) {
        cols.pop_back();
        alts.pop_back();
      }
      bad = col == cols.back() && alt != alts.back();
    }
    if (bad) found = SyntaxProblem{begin, "inconsistent use of tabs and spaces in indentation"};
  };
  std::vector<std::string_view> parents;  // the cursor's ancestors' types
  while (!found) {
    TSNode n = ts_tree_cursor_current_node(&c);
    std::size_t at = ts_node_start_byte(n);
    if (at != last && BeginsLogicalLine(n, parents.empty() ? "" : parents.back())) {
      last = at;
      check(at);
    }
    if (ts_tree_cursor_goto_first_child(&c)) {
      parents.push_back(ts_node_type(n));
      continue;
    }
    bool more = false;
    while (!(more = ts_tree_cursor_goto_next_sibling(&c))) {
      if (!ts_tree_cursor_goto_parent(&c)) break;
      parents.pop_back();
    }
    if (!more) break;
  }
  ts_tree_cursor_delete(&c);
  return found;
}

}  // namespace

// A PEP 263 coding declaration in the first line, or in the second after a
// comment or blank first line, naming an encoding whose reading of these
// bytes may differ from UTF-8's: CPython decodes the file with it (a helper
// probe of d751784: under `coding: utf-7`, `# +AAo-HAS_TRITON = True`
// decodes to a newline and a statement). Kept: the UTF-8 family, and, for
// a file of ASCII bytes only, the encodings that read ASCII as ASCII.
std::optional<SyntaxProblem> ForeignEncoding(std::string_view bytes) {
  std::size_t start = bytes.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  for (int line = 1; line <= 2 && start < bytes.size(); ++line) {
    std::size_t end = bytes.find_first_of("\r\n", start);
    std::string_view text =
        bytes.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    std::size_t i = text.find_first_not_of(" \t\f");
    bool comment = i != std::string_view::npos && text[i] == '#';
    if (comment) {
      for (std::size_t c = text.find("coding", i); c != std::string_view::npos;
           c = text.find("coding", c + 1)) {
        std::size_t a = c + 6;
        if (a >= text.size() || (text[a] != ':' && text[a] != '=')) continue;
        ++a;
        while (a < text.size() && (text[a] == ' ' || text[a] == '\t')) ++a;
        std::size_t b = a;
        while (b < text.size() && (std::isalnum(static_cast<unsigned char>(text[b])) ||
                                   text[b] == '-' || text[b] == '_' || text[b] == '.')) {
          ++b;
        }
        std::string name;
        for (char ch : text.substr(a, b - a)) {
          name.push_back(
              ch == '_' ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
        }
        if (name.empty()) continue;
        if (name == "utf-8" || name == "utf8" || name.rfind("utf-8-", 0) == 0) return std::nullopt;
        bool ascii_bytes = std::all_of(bytes.begin(), bytes.end(), [](char ch) {
          return static_cast<unsigned char>(ch) < 0x80;
        });
        bool ascii_compatible = name == "ascii" || name == "us-ascii" || name == "latin-1" ||
                                name == "latin1" || name.rfind("iso-8859-", 0) == 0 ||
                                name.rfind("iso8859-", 0) == 0 || name.rfind("cp125", 0) == 0 ||
                                name.rfind("windows-125", 0) == 0;
        if (ascii_bytes && ascii_compatible) return std::nullopt;
        return SyntaxProblem{start + c, "the file declares the encoding '" + name +
                                            "', in which CPython may read other code than "
                                            "these bytes spell as UTF-8"};
      }
    }
    if (!comment && i != std::string_view::npos) break;  // code: no declaration after it
    if (end == std::string_view::npos) break;
    start = end + (bytes.substr(end, 2) == "\r\n" ? 2 : 1);
  }
  return std::nullopt;
}

SyntaxTree::SyntaxTree(TsTreePtr tree, std::string_view bytes)
    : tree_(std::move(tree)), bytes_(bytes) {
  if (tree_ && !ts_node_has_error(Root())) misread_ = ForeignEncoding(bytes_);
  if (tree_ && !misread_ && !ts_node_has_error(Root())) misread_ = Misread(Root(), bytes_);
  if (tree_ && !misread_ && !ts_node_has_error(Root())) misread_ = FoldedName(Root(), bytes_);
  if (tree_ && !misread_ && !ts_node_has_error(Root())) misread_ = KeywordAsName(Root(), bytes_);
  if (tree_ && !misread_ && !ts_node_has_error(Root())) misread_ = InconsistentTabs(Root(), bytes_);
}

SyntaxTree::~SyntaxTree() = default;

namespace {

// Every node of the subtree at `top` in document (pre-)order into `index`.
void IndexSubtree(TSNode top, std::size_t bytes, SyntaxTree::Index* index) {
  index->by_symbol.resize(ts_language_symbol_count(tree_sitter_python()));
  // Python source has about one node per 3 to 4 bytes: reserving that much
  // avoids growing (and copying) the list a dozen times on a large file;
  // pages reserved and never written cost nothing.
  index->nodes.reserve(bytes / 3 + 64);
  TSTreeCursor walk = ts_tree_cursor_new(top);
  for (;;) {
    TSNode node = ts_tree_cursor_current_node(&walk);
    TSSymbol sym = ts_node_symbol(node);
    if (sym < index->by_symbol.size()) {
      index->by_symbol[sym].push_back(static_cast<uint32_t>(index->nodes.size()));
    }
    index->nodes.push_back(node);
    if (ts_tree_cursor_goto_first_child(&walk)) continue;
    bool more = false;
    do {
      if (ts_tree_cursor_goto_next_sibling(&walk)) {
        more = true;
        break;
      }
    } while (ts_tree_cursor_goto_parent(&walk));  // false at `top`, the cursor's root
    if (!more) break;
  }
  ts_tree_cursor_delete(&walk);
}

}  // namespace

const SyntaxTree::Index& SyntaxTree::NodeIndex() const {
  if (index_) return *index_;
  auto index = std::make_unique<Index>();
  IndexSubtree(Root(), bytes_.size(), index.get());
  index_ = std::move(index);
  return *index_;
}

std::optional<SyntaxProblem> SyntaxTree::FirstProblem() const {
  if (!HasError()) return std::nullopt;
  if (misread_) return misread_;
  // Iterative pre-order walk; deep nesting must not overflow the stack.
  std::vector<TSNode> stack{Root()};
  while (!stack.empty()) {
    TSNode node = stack.back();
    stack.pop_back();
    if (ts_node_is_missing(node)) {
      return SyntaxProblem{ts_node_start_byte(node),
                           std::string("missing '") + ts_node_type(node) + "'"};
    }
    if (ts_node_is_null(node) || !ts_node_has_error(node)) continue;
    if (std::string_view(ts_node_type(node)) == "ERROR") {
      return SyntaxProblem{ts_node_start_byte(node), "syntax error"};
    }
    uint32_t n = ts_node_child_count(node);
    for (uint32_t i = n; i > 0; --i) stack.push_back(ts_node_child(node, i - 1));
  }
  return SyntaxProblem{0, "syntax error"};
}

}  // namespace muh
