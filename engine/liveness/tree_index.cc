#include "engine/liveness/tree_index.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <deque>
#include <functional>
#include <unordered_map>

#include "engine/base/text.h"
#include "engine/liveness/module_escape.h"
#include "engine/liveness/platform_state.h"
#include "engine/liveness/predicate_definitions.h"
#include "engine/liveness/prose.h"
#include "engine/liveness/top_statements.h"
#include "engine/python/name_use.h"
#include "engine/python/prefix_cut.h"
#include "engine/python/py_literal.h"
#include "engine/python/syntax_tree.h"
#include "engine/python/ts_nodes.h"
#include "engine/python/wrap_safety.h"

namespace muh {

namespace {

bool IsHeader(std::string_view kw, std::string_view code, std::string_view want) {
  if (kw == want) return true;
  return kw == "async" && Trim(code.substr(5)).substr(0, want.size()) == want;
}

}  // namespace

bool HasWord(std::string_view text, std::string_view word) {
  for (std::size_t at = text.find(word); at != std::string_view::npos;
       at = text.find(word, at + 1)) {
    bool before = at == 0 || !IsWordChar(text[at - 1]);
    bool after = at + word.size() >= text.size() || !IsWordChar(text[at + word.size()]);
    if (before && after) return true;
  }
  return false;
}

std::optional<std::size_t> AssignmentEquals(const StatementTable& lines, int k) {
  std::string_view code = lines.Code(k);
  std::size_t base = lines.lines()[static_cast<std::size_t>(k)].code;
  int depth = 0;
  for (std::size_t j = 0; j < code.size(); ++j) {
    char c = code[j];
    if (!lines.InCode(base + j)) continue;
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (c != '=' || depth != 0) continue;
    if (j + 1 < code.size() && code[j + 1] == '=') {
      ++j;  // `==`
      continue;
    }
    char prev = j > 0 ? code[j - 1] : ' ';
    if (prev == '!' || prev == ':') return std::nullopt;  // `!=` ; walrus
    if (prev == '<' || prev == '>') {
      if (j > 1 && code[j - 2] == prev) return base + j;  // `<<=`, `>>=`
      continue;                                           // `<=`, `>=`
    }
    return base + j;
  }
  return std::nullopt;
}

TreeIndex::TreeIndex(const std::vector<std::string>& py_paths, const ReadFn& read,
                     const LivenessFacts& facts, WordFilterFn words, ForgetFn forget,
                     std::shared_ptr<StatementCache> tables)
    : paths_(py_paths),
      read_(read),
      facts_(facts),
      words_(std::move(words)),
      forget_(std::move(forget)),
      modules_(py_paths),
      by_index_(py_paths.size(), nullptr),
      tables_(tables ? std::move(tables) : std::make_shared<StatementCache>()) {
  for (std::size_t i = 0; i < paths_.size(); ++i) index_of_.emplace(paths_[i], static_cast<int>(i));
}

int TreeIndex::PathIndex(const std::string& path) const {
  std::less_equal<const std::string*> le;
  if (!paths_.empty() && le(&paths_.front(), &path) && le(&path, &paths_.back())) {
    return static_cast<int>(&path - paths_.data());
  }
  // Other calls come in runs for one file (a scan asks for its lines,
  // guards and evidence in turn): comparing with the last is cheaper than
  // hashing.
  if (last_index_ >= 0 && paths_[static_cast<std::size_t>(last_index_)] == path) {
    return last_index_;
  }
  auto it = index_of_.find(path);
  if (it == index_of_.end()) return -1;
  last_index_ = it->second;
  return it->second;
}

TreeIndex::FileState& TreeIndex::File(const std::string& path) {
  int i = PathIndex(path);
  if (i < 0) return files_[path];  // not a tree file: no analysis asks, but At may
  FileState*& known = by_index_[static_cast<std::size_t>(i)];
  if (known == nullptr) known = &files_[path];  // files_ is node-based: it stays put
  return *known;
}

const std::string_view* TreeIndex::Bytes(const std::string& path) {
  FileState& f = File(path);
  if (!f.read) {
    f.read = true;
    if (std::optional<std::string_view> got = read_(path)) {
      f.readable = true;
      f.bytes = *got;
    }
    // Only a file with a CR needs its own copy for the parse.
    if (f.readable && std::memchr(f.bytes.data(), '\r', f.bytes.size()) != nullptr) {
      f.own = std::make_unique<std::string>(f.bytes);
      LineEndingsAsLf(f.own.get());
      f.bytes = *f.own;
    }
  }
  return f.readable ? &f.bytes : nullptr;
}

namespace {

// Whether the name at `o` (of `n` bytes) is a keyword argument, `f(NAME=v)`:
// a call such as globals().update(NAME=v) or vars(m).update(NAME=v) binds it.
// Whether the word at `o` follows a `.` (blanks and backslash-newlines
// between): another object's attribute, `m.FLAG`, `_Backend.ROCM_FLASH`.
bool AfterDot(std::string_view src, std::size_t o) {
  while (o > 0 && src[o - 1] != '\0' && std::strchr(" \t\r\n\\", src[o - 1]) != nullptr) --o;
  return o > 0 && src[o - 1] == '.';
}

bool KeywordArgument(std::string_view src, std::size_t o, std::size_t n) {
  std::size_t a = o + n;
  while (a < src.size() && (src[a] == ' ' || src[a] == '\t')) ++a;
  if (a + 1 >= src.size() || src[a] != '=' || src[a + 1] == '=') return false;
  std::size_t b = o;
  while (b > 0 && (src[b - 1] == ' ' || src[b - 1] == '\t' || src[b - 1] == '\n')) --b;
  return b > 0 && (src[b - 1] == '(' || src[b - 1] == ',');
}

}  // namespace

void LineEndingsAsLf(std::string* bytes) {
  std::string& b = *bytes;
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (b[i] != '\r') continue;
    if (i + 1 < b.size() && b[i + 1] == '\n') {
      // CRLF: the CR becomes a space before the LF; a backslash continuation
      // keeps its backslash last on the line.
      if (i > 0 && b[i - 1] == '\\') {
        b[i - 1] = ' ';
        b[i] = '\\';
      } else {
        b[i] = ' ';
      }
    } else {
      b[i] = '\n';  // a CR-only line ending
    }
  }
}

void TreeIndex::Drop(const std::string& path) {
  FileState& f = File(path);
  if (!f.guards.empty() || !f.headers.empty() || !f.several.empty() || !f.equals.empty()) return;
  f.lexed = false;  // the table stays, unbound until the bytes are read again
  f.occurrences.clear();
  ForgetBytes(path, &f);
}

void TreeIndex::ForgetBytes(const std::string& path, FileState* f) {
  // Bound lines, guards and occurrences hold views of the bytes: only a
  // file with none of them lets its bytes go.
  if (!forget_ || !f->read || f->lexed || !f->occurrences.empty()) return;
  f->read = false;
  f->readable = false;
  f->bytes = {};
  f->own.reset();
  forget_(path);
}

const StatementTable* TreeIndex::Lines(const std::string& path) {
  FileState& f = File(path);
  if (!f.lexed) {
    f.lexed = true;
    const std::string_view* b = Bytes(path);
    if (b == nullptr) {
      f.lines.reset();  // unreadable now: no table of other bytes
      return nullptr;
    }
    if (!f.parsed) {
      f.parsed = true;
      f.lines = tables_->Table(path, *b);
    } else if (f.lines) {
      f.lines->Rebind(*b);  // the same bytes, read again after a Drop
    }
  }
  return f.lines ? &*f.lines : nullptr;
}

const StatementTable* TreeIndex::LinesBefore(const std::string& path, std::size_t offset) {
  FileState& f = File(path);
  if (f.lexed && f.lines) return &*f.lines;
  const std::string_view* b = Bytes(path);
  if (b == nullptr) return Lines(path);
  if (!f.head_tried) {
    f.head_tried = true;
    // A name Python folds (NFKC) into another may stand anywhere in the
    // file, and only the whole parse reports it: no prefix where a byte past
    // ASCII may be in one.
    std::size_t cut = MayHoldFoldedName(*b) ? b->size() : PrefixCutAfter(*b, offset);
    // A prefix of most of the file saves little: parse it whole.
    if (cut <= b->size() / 4 * 3) {
      f.head = tables_->Table(path, b->substr(0, cut));
      f.head_end = cut;
    }
  }
  if (f.head && offset < f.head_end) {
    f.head->Rebind(b->substr(0, f.head_end));
    return &*f.head;
  }
  return Lines(path);
}

const StatementTable* TreeIndex::Held(const std::string& path) {
  FileState& f = File(path);
  if (f.parsed && (f.lines || !f.head)) return Lines(path);
  if (f.head) {
    if (const std::string_view* b = Bytes(path)) {
      f.head->Rebind(b->substr(0, f.head_end));
      return &*f.head;
    }
  }
  return Lines(path);
}

const std::vector<std::size_t>& TreeIndex::Occurrences(const std::string& path,
                                                       const std::string& word) {
  // Most searches are of a word the file lacks: the filter answers them,
  // and only the others are kept.
  static const std::vector<std::size_t> kNone;
  FileState& f = File(path);
  if (!f.words) {
    const std::string_view* b = Bytes(path);
    if (b == nullptr) return kNone;
    // A copy with its line endings made LF has the same words.
    if (words_) f.words = words_(path, *b);
    if (!f.words) {
      f.own_words = std::make_unique<WordFilter>(*b);
      f.words = f.own_words.get();
    }
  }
  // The filter knows words only: a search for text with other bytes in it
  // (a dict key such as 'num-warps') must look.
  bool one_word = !word.empty() && std::all_of(word.begin(), word.end(), IsWordChar);
  if (one_word && !f.words->MayHold(word)) {
    ForgetBytes(path, &f);
    return kNone;
  }
  auto it = f.occurrences.find(word);
  if (it != f.occurrences.end()) return it->second;
  std::vector<std::size_t> out;
  const std::string_view* b = Bytes(path);
  const char* data = b->data();
  std::size_t n = b->size();
  for (std::size_t at = 0; at < n;) {
    const void* hit = memmem(data + at, n - at, word.data(), word.size());
    if (hit == nullptr) break;
    std::size_t o = static_cast<std::size_t>(static_cast<const char*>(hit) - data);
    bool before = o == 0 || !IsWordChar(data[o - 1]);
    bool after = o + word.size() >= n || !IsWordChar(data[o + word.size()]);
    if (before && after) out.push_back(o);
    at = o + 1;
  }
  return f.occurrences.emplace(word, std::move(out)).first->second;
}

Evidence TreeIndex::At(const std::string& path, int k) {
  const StatementTable* lines = Held(path);
  Evidence e{path, 0, ""};
  if (lines == nullptr || k < 0) return e;
  e.line = lines->lines()[static_cast<std::size_t>(k)].line;
  std::string_view code = lines->Code(k);
  code = code.substr(0, code.find('\n'));
  if (!code.empty() && code.back() == '\r') code.remove_suffix(1);
  e.what = std::string(Trim(code));
  if (e.what.size() > 100) e.what = e.what.substr(0, 97) + "...";
  return e;
}

const LineGuard& TreeIndex::Guard(const std::string& path, int k) {
  // A line at the top level (most imports) has no branch around it: nothing
  // to work out or keep.
  static const LineGuard kNone;
  const StatementTable* lines = Held(path);
  if (lines == nullptr || k < 0 || lines->lines()[static_cast<std::size_t>(k)].parent < 0) {
    return kNone;
  }
  FileState& file = File(path);  // stays put: files_ and guards are node-based
  auto cached = file.guards.find(k);
  if (cached != file.guards.end()) return cached->second;
  LineGuard g = GuardOf(path, k);
  return file.guards.emplace(k, std::move(g)).first->second;
}

const ConditionResult& TreeIndex::HeaderValue(const std::string& path, int h) {
  FileState& file = File(path);
  auto cached = file.headers.find(h);
  if (cached != file.headers.end()) return cached->second;
  ConditionResult r;
  if (const StatementTable* lines = Held(path)) {
    // A name a def or class around the header binds itself (a parameter
    // `pass_nk_tiles=True` beside a module's `pass_nk_tiles = False`, a
    // helper probe of 2178177) is not the module's flag there. (FlagAt
    // reads every other binding in the file; PlatformName reads the
    // parameters and imports of functions too.)
    ConditionContext ctx = ConditionsIn(path);
    auto module_flag = ctx.flag;
    ctx.flag = [this, path, h, module_flag](std::string_view name) -> std::optional<ConstantFlag> {
      if (BoundAround(path, h, name)) return std::nullopt;
      return module_flag(name);
    };
    r = EvaluateCondition(lines->HeaderCondition(h), ctx);
  }
  return file.headers.emplace(h, std::move(r)).first->second;
}

ConditionContext TreeIndex::ConditionsIn(const std::string& path) {
  ConditionContext ctx;
  ctx.facts = &facts_;
  ctx.consulted = [this](const std::string& env) { consulted_.insert(env); };
  ctx.flag = [this, path](std::string_view name) { return Flag(path, std::string(name)); };
  ctx.platform_name = [this, path](std::string_view name) {
    return PlatformName(path, std::string(name));
  };
  ctx.marker_made = [this](const PlatformMarker& m) { return MarkerMade(m); };
  ctx.predicate_redefined = [this](std::string_view name) {
    auto key = std::string(name);
    auto known = predicates_.find(key);
    if (known != predicates_.end()) return known->second;
    std::optional<Evidence> found = PredicateRedefined(this, key);
    if (!found && key == "has_device_capability" && facts_.compute_capability > 0) {
      found = CapabilityPinned(this, static_cast<int>(std::lround(facts_.compute_capability * 10)));
    }
    if (!found) found = PlatformStateRebound(this, key);
    predicates_.emplace(key, found);
    return found;
  };
  return ctx;
}

LineGuard TreeIndex::GuardOf(const std::string& path, int k) {
  LineGuard g;
  const StatementTable* lines = Held(path);
  if (lines == nullptr || k < 0) return g;
  const std::vector<LogicalLine>& ls = lines->lines();
  auto decide = [&](int h, Tri want) -> bool {
    const ConditionResult& r = HeaderValue(path, h);
    if (r.value == Tri::kUnknown || r.value == want) return false;
    g.value = Tri::kFalse;
    g.why = r.why;
    g.evidence.clear();
    g.evidence.push_back(At(path, h));
    g.evidence.insert(g.evidence.end(), r.evidence.begin(), r.evidence.end());
    return true;
  };
  // The if/elif headers before `h` in its chain, nearest first.
  auto earlier = [&](int h) {
    std::vector<int> out;
    for (int j = h - 1; j >= 0 && j > ls[static_cast<std::size_t>(h)].parent; --j) {
      const LogicalLine& l = ls[static_cast<std::size_t>(j)];
      if (l.parent != ls[static_cast<std::size_t>(h)].parent) continue;
      std::string_view kw = lines->Keyword(j);
      if (kw == "elif") {
        out.push_back(j);
        continue;
      }
      if (kw == "if") out.push_back(j);
      if (kw != "if") out.clear();  // `else` of a try, for or while
      break;
    }
    return out;
  };
  for (int h = ls[static_cast<std::size_t>(k)].parent; h >= 0;
       h = ls[static_cast<std::size_t>(h)].parent) {
    std::string_view kw = lines->Keyword(h);
    if (kw == "if" || kw == "while") {
      if (decide(h, Tri::kTrue)) return g;
    } else if (kw == "elif" || kw == "else") {
      if (kw == "elif" && decide(h, Tri::kTrue)) return g;
      for (int e : earlier(h)) {
        if (decide(e, Tri::kFalse)) {
          g.why = "an earlier branch is always taken: " + g.why;
          return g;
        }
      }
    } else if (kw == "except") {
      g.in_handler = true;
    }
  }
  return g;
}

std::optional<int> TreeIndex::AfterExit(const std::string& path, int k) {
  const StatementTable* lines = Held(path);
  if (lines == nullptr || k < 0) return std::nullopt;
  const std::vector<LogicalLine>& ls = lines->lines();
  for (int x = k; x >= 0; x = ls[static_cast<std::size_t>(x)].parent) {
    int parent = ls[static_cast<std::size_t>(x)].parent;
    for (int j = x - 1; j > parent; --j) {
      if (ls[static_cast<std::size_t>(j)].parent != parent) continue;
      std::string_view kw = lines->Keyword(j);
      if (kw == "return" || kw == "raise" || kw == "continue" || kw == "break") return j;
    }
    if (parent < 0) break;
    std::string_view pkw = lines->Keyword(parent);
    if (IsHeader(pkw, lines->Code(parent), "def") || pkw == "class") break;
  }
  return std::nullopt;
}

int TreeIndex::OutermostUnit(const std::string& path, int k, bool* in_function) {
  const StatementTable* lines = Held(path);
  if (in_function != nullptr) *in_function = false;
  if (lines == nullptr || k < 0) return -1;
  int unit = -1;
  for (int h = lines->lines()[static_cast<std::size_t>(k)].parent; h >= 0;
       h = lines->lines()[static_cast<std::size_t>(h)].parent) {
    std::string_view kw = lines->Keyword(h);
    bool is_def = IsHeader(kw, lines->Code(h), "def");
    if (is_def && in_function != nullptr) *in_function = true;
    if (is_def || kw == "class") unit = h;
  }
  return unit;
}

std::string TreeIndex::DefinedName(const std::string& path, int k) {
  const StatementTable* lines = Held(path);
  if (lines == nullptr || k < 0) return "";
  std::string_view code = lines->Code(k);
  if (lines->Keyword(k) == "async") code = Trim(code.substr(5));
  std::size_t start;
  if (code.substr(0, 4) == "def ") {
    start = 4;
  } else if (code.substr(0, 6) == "class ") {
    start = 6;
  } else {
    return "";
  }
  while (start < code.size() && code[start] == ' ') ++start;
  std::size_t e = start;
  while (e < code.size() && IsWordChar(code[e])) ++e;
  return std::string(code.substr(start, e - start));
}

int TreeIndex::BlockEnd(const std::string& path, int k) {
  const StatementTable* lines = Held(path);
  if (lines == nullptr) return k + 1;
  const std::vector<LogicalLine>& ls = lines->lines();
  int j = k + 1;
  while (j < static_cast<int>(ls.size()) &&
         ls[static_cast<std::size_t>(j)].indent > ls[static_cast<std::size_t>(k)].indent) {
    ++j;
  }
  return j;
}

std::optional<Evidence> TreeIndex::ReboundElsewhere(const std::string& path,
                                                    const std::string& name) {
  // Another module may rebind it as an attribute (`import m as t;
  // t.FLAG = True`, `del t.FLAG`, `for t.FLAG in ...`) or through a string
  // (`setattr(t, "FLAG", True)`). Every file of the tree is looked at, run
  // or not: the flag decides what runs.
  for (const std::string& q : paths_) {
    if (q == path) continue;
    const std::vector<std::size_t>& occ = Occurrences(q, name);
    if (occ.empty()) continue;
    const StatementTable* lines = LinesBefore(q, occ.back());
    if (lines == nullptr) return Evidence{q, 0, "the file could not be read or parsed"};
    std::string_view src = lines->src();
    std::optional<TopStatements> parses;
    for (std::size_t o : occ) {
      int k = lines->IndexAt(o);
      if (k < 0) continue;
      if (lines->InString(o)) {
        if (!InProse(*lines, o)) return At(q, k);
        continue;
      }
      if (!lines->InCode(o)) continue;
      if (KeywordArgument(src, o, name.size())) return At(q, k);  // vars(m).update(NAME=...)
      if (!AfterDot(src, o)) continue;  // its own module's name: not this flag
      // `t.FLAG` stored to (name_use.h): an assignment's target of any
      // form, augmented, a `for` target (a comprehension's too), `with ...
      // as`, `del`; or a statement that does not parse on its own or whole.
      if (!parses) parses.emplace(*lines);
      auto found = parses->PathAt(o, name.size());
      if (!found) return At(q, k);
      std::vector<TSNode>& at = found->path;
      if (found->tree == nullptr || !NamesAttribute(at)) continue;
      at.pop_back();
      if (Binds(UseOf(at))) return At(q, k);
    }
  }
  return std::nullopt;
}

bool TreeIndex::Several(const std::string& path, int k) {
  FileState& f = File(path);
  auto it = f.several.find(k);
  if (it != f.several.end()) return it->second;
  const StatementTable* lines = Held(path);
  // Unparsed: no claim that it holds one statement.
  return f.several.emplace(k, lines == nullptr || lines->HasSeveralStatements(k)).first->second;
}

std::optional<std::size_t> TreeIndex::Equals(const std::string& path, int k) {
  FileState& f = File(path);
  auto it = f.equals.find(k);
  if (it != f.equals.end()) return it->second;
  const StatementTable* lines = Held(path);
  if (lines == nullptr) return std::nullopt;
  return f.equals.emplace(k, AssignmentEquals(*lines, k)).first->second;
}

bool TreeIndex::PlatformName(const std::string& path, const std::string& name) {
  auto key = std::make_pair(path, name);
  auto cached = platform_names_.find(key);
  if (cached != platform_names_.end()) return cached->second;
  bool& out = platform_names_[key];
  out = false;
  const std::vector<std::size_t>& occ = Occurrences(path, name);
  if (occ.empty()) return false;
  const StatementTable* lines = LinesBefore(path, occ.back());
  if (lines == nullptr) return false;
  const std::string* me = modules_.ModuleOf(path);
  bool platform_module = me != nullptr && (*me == "vllm.utils" || *me == "vllm.platforms" ||
                                           me->rfind("vllm.platforms.", 0) == 0);
  auto vllm_module = [](const std::string& m) { return m == "vllm" || m.rfind("vllm.", 0) == 0; };
  std::string_view src = lines->src();
  int bindings = 0;
  for (std::size_t o : occ) {
    int k = lines->IndexAt(o);
    if (k < 0 || !lines->InCode(o)) continue;
    std::string_view kw = lines->Keyword(k);
    if (kw == "import" || kw == "from") {
      auto stmt = ParseImport(lines->Code(k));
      if (!stmt) return false;
      for (const ImportedName& n : stmt->names) {
        std::string bound = n.alias;
        if (bound.empty()) bound = stmt->is_from ? n.name : n.name.substr(0, n.name.find('.'));
        if (bound != name) continue;
        // `from vllm.utils import is_pin_memory_available as is_hip`: the
        // name is another function's (a helper probe of f751cf4 ran the
        // ROCm backend's autotune list muhpatch called dead). Only a name
        // imported under its own name is the platform's.
        if (stmt->is_from && !n.alias.empty() && n.alias != n.name) return false;
        std::string from = n.name;
        if (stmt->is_from) {
          if (me == nullptr) return false;
          auto m = ResolveRelative(*me, IsPackageInit(path), stmt->level, stmt->from_module);
          if (!m) return false;
          from = *m;
        }
        if (!vllm_module(from)) return false;
        ++bindings;
      }
      continue;
    }
    if (kw == "def" || kw == "class" || kw == "async") {
      if (DefinedName(path, k) != name) return false;  // a parameter of that name
      if (!platform_module || lines->lines()[static_cast<std::size_t>(k)].parent != -1) {
        return false;
      }
      ++bindings;
      continue;
    }
    if (kw == "global" || kw == "nonlocal" || kw == "del" || kw == "for" || kw == "with" ||
        kw == "case" || Several(path, k) || KeywordArgument(src, o, name.size())) {
      return false;
    }
    std::size_t after = o + name.size();
    while (after < src.size() && src[after] == ' ') ++after;
    if (src.substr(after, 2) == ":=") return false;
    std::size_t b = o;
    while (b > 0 && src[b - 1] == ' ') --b;
    if (b > 0 && src[b - 1] == '.') continue;  // another object's attribute
    auto eq = Equals(path, k);
    if (eq && o < *eq) return false;  // assigned here
    std::string_view before =
        Trim(src.substr(lines->lines()[static_cast<std::size_t>(k)].code,
                        o - lines->lines()[static_cast<std::size_t>(k)].code));
    if ((before.size() >= 3 && before.substr(before.size() - 3) == " as") || before == "as") {
      return false;
    }
  }
  out = bindings > 0;
  return out;
}

namespace {

// One occurrence of a word, as EachOccurrence gives it: its file, the
// file's lines (through the prefix the last occurrence needs), their
// top-level statements' parses, its offset and its line (>= 0).
struct Occurrence {
  const std::string& path;
  const StatementTable& lines;
  TopStatements& parses;
  std::size_t offset;
  int line;
};

// Calls visit for each occurrence of `word` in every file of `paths`
// (those on no line skipped), until it returns an evidence, which is
// returned; a file that cannot be read or parsed is one.
std::optional<Evidence> EachOccurrence(
    TreeIndex* index, const std::vector<std::string>& paths, const std::string& word,
    const std::function<std::optional<Evidence>(const Occurrence&)>& visit) {
  for (const std::string& q : paths) {
    const std::vector<std::size_t>& occ = index->Occurrences(q, word);
    if (occ.empty()) continue;
    const StatementTable* lines = index->LinesBefore(q, occ.back());
    if (lines == nullptr) return Evidence{q, 0, "the file could not be read or parsed"};
    TopStatements parses(*lines);
    for (std::size_t o : occ) {
      int k = lines->IndexAt(o);
      if (k < 0) continue;
      if (std::optional<Evidence> e = visit(Occurrence{q, *lines, parses, o, k})) return e;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<Evidence> TreeIndex::MarkerMade(const PlatformMarker& m) {
  constexpr std::string_view kEnum = "_Backend.";
  if (m.text.size() <= kEnum.size() || m.text.compare(0, kEnum.size(), kEnum) != 0) {
    return std::nullopt;
  }
  auto cached = markers_made_.find(m.text);
  if (cached != markers_made_.end()) return cached->second;
  markers_made_[m.text] =
      Evidence{"", 0, m.text + " is asked about while the tree's makers of it are read"};
  std::optional<Evidence> made = EnumMadeOtherwise();
  if (!made) made = ValueMade(m.text.substr(kEnum.size()), true, 0);
  markers_made_[m.text] = made;
  return made;
}

namespace {

// Whether `n` is one string literal with no escape and no field: its
// bytes are its value.
bool PlainString(const SyntaxTree& tree, TSNode n) {
  if (!Is(n, "string")) return false;
  for (TSNode c : NamedChildren(n)) {
    if (!Is(c, "string_start") && !Is(c, "string_content") && !Is(c, "string_end")) return false;
  }
  return TextOf(tree, n).find('\\') == std::string_view::npos;
}

// Whether every read of the local `name` (bound by the assignment at the
// end of `at`) in its def asks only for the mapping's names: the right of
// `in` or `not in`, or what `.join(...)` joins.
bool NamesOnly(const SyntaxTree& tree, const std::vector<TSNode>& at, TSNode name);

// The innermost def of `path`, or null.
TSNode EnclosingDef(const std::vector<TSNode>& path) {
  for (std::size_t i = path.size(); i-- > 0;) {
    if (Is(path[i], "function_definition")) return path[i];
  }
  return TSNode{};
}

// Whether `body` (an enum's class body) makes every member once: each
// statement a docstring, a `pass`, or `NAME = auto()`/`enum.auto()`.
bool OnlyAutoMembers(const SyntaxTree& tree, TSNode body) {
  for (TSNode s : NamedChildren(body)) {
    if (Is(s, "pass_statement") || Is(s, "comment")) continue;
    if (!Is(s, "expression_statement") || ts_node_named_child_count(s) != 1) return false;
    TSNode e = ts_node_named_child(s, 0);
    if (Is(e, "string")) continue;
    if (!Is(e, "assignment") || !Is(Field(e, "left"), "identifier")) return false;
    TSNode right = Field(e, "right");
    if (ts_node_is_null(right) || !Is(right, "call")) return false;
    std::string_view f = TextOf(tree, Field(right, "function"));
    std::string_view args = TextOf(tree, Field(right, "arguments"));
    if ((f != "auto" && f != "enum.auto") || args != "()") return false;
  }
  return true;
}

bool NamesOnly(const SyntaxTree& tree, const std::vector<TSNode>& at, TSNode name) {
  TSNode fn = EnclosingDef(at);
  if (ts_node_is_null(fn)) return false;
  std::string_view local = TextOf(tree, name);
  bool only = true;
  int bindings = 0;
  ForEachNamedPath(fn, [&](const std::vector<TSNode>& path) {
    TSNode n = path.back();
    if (!only || !Is(n, "identifier") || TextOf(tree, n) != local) return;
    NameUse use = UseOf(path);
    if (use == NameUse::kNotAName) return;
    if (Binds(use)) {
      ++bindings;
      return;
    }
    TSNode p = path.size() >= 2 ? path[path.size() - 2] : TSNode{};
    TSNode g = path.size() >= 3 ? path[path.size() - 3] : TSNode{};
    bool in_test = Is(p, "comparison_operator") && ts_node_named_child_count(p) == 2 &&
                   ts_node_eq(ts_node_named_child(p, 1), n) &&
                   (TextOf(tree, p).find(" in ") != std::string_view::npos);
    bool joined =
        Is(p, "argument_list") && ts_node_named_child_count(p) == 1 && Is(g, "call") &&
        TextOf(tree, Field(g, "function")).size() >= 5 &&
        TextOf(tree, Field(g, "function")).substr(TextOf(tree, Field(g, "function")).size() - 5) ==
            ".join";
    only = in_test || joined;
  });
  return only && bindings == 1;
}

}  // namespace

std::optional<Evidence> TreeIndex::EnumMadeOtherwise() {
  if (enum_made_otherwise_) return *enum_made_otherwise_;
  enum_made_otherwise_ = std::optional<Evidence>();  // while asked: nothing
  constexpr std::string_view kName = "_Backend";
  std::optional<Evidence> out = BackendVariableWritten();
  auto made = [&](const std::string& q, int k, const std::string& how) {
    Evidence e = At(q, k);
    e.what = how + ", which may make any member: " + e.what;
    out = e;
  };
  for (const std::string& q : out ? std::vector<std::string>{} : paths_) {
    const std::vector<std::size_t>& occ = Occurrences(q, std::string(kName));
    if (occ.empty()) continue;
    const StatementTable* lines = LinesBefore(q, occ.back());
    if (lines == nullptr) {
      out = Evidence{q, 0, "the file could not be read or parsed"};
      break;
    }
    TopStatements parses(*lines);
    for (std::size_t o : occ) {
      int k = lines->IndexAt(o);
      if (k < 0 || !lines->InCode(o) || Guard(q, k).value == Tri::kFalse) continue;
      auto found = parses.PathAt(o, kName.size());
      if (!found || found->tree == nullptr) {
        made(q, k, "`_Backend` in a statement that does not parse");
        break;
      }
      const SyntaxTree& tree = *found->tree;
      std::vector<TSNode>& at = found->path;
      if (!Is(at.back(), "identifier") || TextOf(tree, at.back()) != kName) continue;
      NameUse use = UseOf(at);
      // `import ... _Backend as B` names it in a dotted name of the alias.
      TSNode aliased = at.size() >= 3 ? at[at.size() - 3] : TSNode{};
      if (Is(aliased, "aliased_import") && FieldIs(aliased, "name", at[at.size() - 2])) {
        // `from ... import _Backend as B`: B is the enum, by a name this
        // search does not read.
        made(q, k, "`_Backend` imported under another name");
        break;
      }
      // `selector._Backend`: the module's attribute is the enum itself.
      if (use == NameUse::kNotAName && NamesAttribute(at)) {
        at.pop_back();
        use = UseOf(at);
      } else if (use == NameUse::kImport || use == NameUse::kNotAName) {
        continue;
      }
      if (InAnnotation(at)) continue;
      TSNode parent = at.size() >= 2 ? at[at.size() - 2] : TSNode{};
      if (use == NameUse::kDefine) {
        if (!OnlyAutoMembers(tree, Field(parent, "body"))) {
          made(q, k, "`_Backend`'s body makes a member otherwise than by auto() (an alias)");
        }
      } else if (Binds(use)) {
        made(q, k, "`_Backend` bound otherwise than by its class statement");
      } else if (Is(parent, "attribute") && FieldIs(parent, "object", at.back())) {
        // `_Backend.MEMBER`: ValueMade reads it. `_Backend.__members__`
        // looks one up by a key, as `_Backend[...]` does.
        std::string_view attr = TextOf(tree, Field(parent, "attribute"));
        if (attr.empty() || attr[0] != '_') continue;
        TSNode key{};
        TSNode up = at.size() >= 3 ? at[at.size() - 3] : TSNode{};
        TSNode call = at.size() >= 4 ? at[at.size() - 4] : TSNode{};
        if (attr == "__members__" && Is(up, "subscript") && FieldIs(up, "value", parent)) {
          key = Field(up, "subscript");
        } else if (attr == "__members__" && Is(up, "attribute") &&
                   TextOf(tree, Field(up, "attribute")) == "get" && Is(call, "call")) {
          TSNode args = Field(call, "arguments");
          if (ts_node_named_child_count(args) > 0) key = ts_node_named_child(args, 0);
        }
        // `members = _Backend.__members__`, read only for its names
        // (`x in members`, `', '.join(members)`), makes none.
        if (attr == "__members__" && Is(up, "assignment") && FieldIs(up, "right", parent) &&
            Is(Field(up, "left"), "identifier") && NamesOnly(tree, at, Field(up, "left"))) {
          continue;
        }
        if (ts_node_is_null(key)) {
          made(q, k, "`_Backend." + std::string(attr) + "`");
        } else if (auto why = KeyCarriesEnvironment(tree, at, key)) {
          if (why->path.empty())
            made(q, k, why->what);
          else
            out = why;
        }
      } else if (Is(parent, "subscript") && FieldIs(parent, "value", at.back())) {
        if (auto why = KeyCarriesEnvironment(tree, at, Field(parent, "subscript"))) {
          if (why->path.empty())
            made(q, k, why->what);
          else
            out = why;
        }
      } else {
        made(q, k, "`_Backend` used as a value");
      }
      if (out) break;
    }
    if (out) break;
    // A member's class reached from a member (`type(b)[name]`,
    // `b.__class__[name]`), in a file that names the enum.
    for (const char* word : {"__class__", "type"}) {
      std::string_view src = lines->src();
      for (std::size_t o : Occurrences(q, word)) {
        // Read the bytes first: `__class__` then `[` or `(`; `type(...)`
        // then `[` or `(` (most files name `type` otherwise).
        std::size_t a = o + std::strlen(word);
        while (a < src.size() && src[a] == ' ') ++a;
        bool is_type = std::string_view(word) == "type";
        if (is_type) {
          if (a >= src.size() || src[a] != '(' || (o > 0 && src[o - 1] == '.')) continue;
          int depth = 0;
          std::size_t e = a;
          for (; e < src.size(); ++e) {
            depth += src[e] == '(' ? 1 : src[e] == ')' ? -1 : 0;
            if (depth == 0) break;
          }
          a = e + 1;
          while (a < src.size() && src[a] == ' ') ++a;
        }
        if (a >= src.size() || (src[a] != '[' && src[a] != '(')) continue;
        int k = lines->IndexAt(o);
        if (k < 0 || !lines->InCode(o) || Guard(q, k).value == Tri::kFalse) continue;
        auto found = parses.PathAt(o, std::strlen(word));
        if (!found || found->tree == nullptr) continue;
        std::vector<TSNode>& at = found->path;
        bool of_member = std::string_view(word) == "__class__"
                             ? NamesAttribute(at)
                             : at.size() >= 3 && Is(at[at.size() - 2], "call") &&
                                   FieldIs(at[at.size() - 2], "function", at.back());
        if (!of_member) continue;
        made(q, k, std::string("a member's class reached through `") + word + "`");
        break;
      }
      if (out) break;
    }
    if (out) break;
  }
  enum_made_otherwise_ = out;
  return out;
}

namespace {

// Whether the assignment around the name at the end of `at` binds it to
// the literal None.
bool AssignedNone(const SyntaxTree& tree, const std::vector<TSNode>& at) {
  for (std::size_t i = at.size(); i-- > 0;) {
    if (!Is(at[i], "assignment")) continue;
    TSNode right = Field(at[i], "right");
    return !ts_node_is_null(right) && TextOf(tree, right) == "None";
  }
  return false;
}

}  // namespace

std::vector<std::string> TreeIndex::BackendVariableNames() {
  const std::string kVariable = "VLLM_ATTENTION_BACKEND";
  std::vector<std::string> names{kVariable};
  EachOccurrence(this, paths_, kVariable, [&](const Occurrence& at) -> std::optional<Evidence> {
    auto literal = at.lines.InString(at.offset) ? at.lines.StringAt(at.offset) : std::nullopt;
    if (!literal || literal->second - literal->first != kVariable.size() + 2) return std::nullopt;
    auto found = at.parses.PathAt(literal->first, literal->second - literal->first);
    if (found && found->tree != nullptr && found->path.size() == 4 &&
        Is(found->path[2], "assignment") && Is(Field(found->path[2], "left"), "identifier")) {
      names.emplace_back(TextOf(*found->tree, Field(found->path[2], "left")));
    }
    return std::nullopt;
  });
  return names;
}

std::optional<Evidence> TreeIndex::BackendVariableWritten() {
  for (const std::string& name : BackendVariableNames()) {
    std::optional<Evidence> set = EachOccurrence(
        this, paths_, name, [&](const Occurrence& at_word) -> std::optional<Evidence> {
          const StatementTable* lines = &at_word.lines;
          std::size_t o = at_word.offset;
          int k = at_word.line;
          const std::string& q = at_word.path;
          if (Guard(q, k).value == Tri::kFalse) return std::nullopt;
          bool quoted = lines->InString(o);
          if (!quoted && !lines->InCode(o)) return std::nullopt;
          auto literal = quoted ? lines->StringAt(o) : std::nullopt;
          if (quoted && (!literal || literal->second - literal->first != name.size() + 2)) {
            return std::nullopt;
          }
          std::size_t b = quoted ? literal->first : o;
          std::size_t n = quoted ? name.size() + 2 : name.size();
          auto found = at_word.parses.PathAt(b, n);
          bool read = false;
          if (found && found->tree != nullptr && !found->path.empty()) {
            const SyntaxTree& tree = *found->tree;
            std::vector<TSNode> at = found->path;
            TSNode p = at.size() >= 2 ? at[at.size() - 2] : TSNode{};
            TSNode g = at.size() >= 3 ? at[at.size() - 3] : TSNode{};
            NameUse use = UseOf(at);
            if (quoted) {
              std::string_view callee =
                  Is(p, "argument_list") && Is(g, "call") ? TextOf(tree, Field(g, "function")) : "";
              bool first =
                  Is(p, "argument_list") && ts_node_eq(ts_node_named_child(p, 0), at.back());
              auto ends = [&](std::string_view s) {
                return callee.size() >= s.size() && callee.substr(callee.size() - s.size()) == s;
              };
              read = (first && (ends(".get") || ends("getenv"))) ||
                     (Is(p, "pair") && FieldIs(p, "key", at.back())) ||
                     (Is(p, "comparison_operator")) ||
                     (Is(p, "assignment") && FieldIs(p, "right", at.back()) && at.size() == 4);
              if (Is(p, "subscript") && FieldIs(p, "subscript", at.back())) {
                at.pop_back();
                read = UseOf(at) == NameUse::kRead;
              }
            } else if (use == NameUse::kImport || use == NameUse::kAssign) {
              read = true;  // a carrier's own definition or import
              if (name == "VLLM_ATTENTION_BACKEND") {
                // The variable's own name bound at a module's level shadows
                // envs' lazy __getattr__ there (a helper probe of 2893764:
                // `VLLM_ATTENTION_BACKEND = 'ROCM_FLASH'` in envs.py chose
                // ROCm with the variable unset): only `= None`, the unset
                // default (envs.py's TYPE_CHECKING annotation), or an import
                // outside envs.py (which reads it there) leaves it alone.
                read = use == NameUse::kImport ? q != "vllm/envs.py" : AssignedNone(tree, at);
              }
            } else if (use == NameUse::kNotAName && NamesAttribute(at)) {
              at.pop_back();
              read = UseOf(at) == NameUse::kRead;  // `envs.VLLM_ATTENTION_BACKEND`
            } else if (use == NameUse::kRead) {
              read = true;
              if (Is(p, "subscript") && FieldIs(p, "subscript", at.back())) {
                at.pop_back();
                read = UseOf(at) == NameUse::kRead;  // `os.environ[NAME]`, not stored to
              }
            }
          }
          if (read) return std::nullopt;
          Evidence e = At(q, k);
          e.what = "the tree may set " + name +
                   " itself, so the backend is not the default's: " + e.what;
          return e;
        });
    if (set) return set;
  }
  // A star import in envs.py may bind the variable's name there, shadowing
  // its lazy __getattr__.
  if (const StatementTable* envs = Lines("vllm/envs.py")) {
    for (int k = 0; k < static_cast<int>(envs->lines().size()); ++k) {
      std::string_view code = envs->Code(k);
      if (envs->Keyword(k) != "from" || code.find("import *") == std::string_view::npos) continue;
      if (Guard("vllm/envs.py", k).value == Tri::kFalse) continue;
      Evidence e = At("vllm/envs.py", k);
      e.what =
          "a star import in envs.py may bind VLLM_ATTENTION_BACKEND there, so the backend "
          "is not the default's: " +
          e.what;
      return e;
    }
  }
  return EnvironmentWrittenByAnyName();
}

namespace {

// What a use of the environment mapping does (`at` ends on `os.environ`'s
// `environ`, or a bare `environ`). Closed world: what is not listed may
// write any variable.
enum class EnvironmentUse {
  kReads,       // reads it, or writes a key that is a plain string (read by its text)
  kCallerKeys,  // writes the keys of a mapping its function's caller passes
  kWrites,      // may write any variable
};

// How the key `k` (a node of `tree`, in the def `fn`) is made: a plain
// string, bound once in `fn` to one, or a variable of a `for` over a
// parameter of `fn` (`for k, v in envs.items()`): kReads, kCallerKeys; else
// kWrites.
EnvironmentUse KeyOrigin(const SyntaxTree& tree, TSNode fn, TSNode k) {
  if (PlainString(tree, k)) return EnvironmentUse::kReads;
  if (!Is(k, "identifier") || ts_node_is_null(fn)) return EnvironmentUse::kWrites;
  std::string_view name = TextOf(tree, k);
  std::vector<std::string> params = ParameterNames(tree, fn);
  auto parameter = [&](TSNode n) {
    // `envs`, `envs.items()`, `envs.keys()` of a parameter `envs`
    if (Is(n, "call")) {
      TSNode f = Field(n, "function");
      TSNode args = Field(n, "arguments");
      if (!Is(f, "attribute") || ts_node_named_child_count(args) != 0) return false;
      std::string_view m = TextOf(tree, Field(f, "attribute"));
      if (m != "items" && m != "keys") return false;
      n = Field(f, "object");
    }
    return Is(n, "identifier") &&
           std::find(params.begin(), params.end(), TextOf(tree, n)) != params.end();
  };
  int bindings = 0;
  EnvironmentUse out = EnvironmentUse::kWrites;
  ForEachScopeBinding(fn, [&](const std::vector<TSNode>& path, NameUse u) {
    if (TextOf(tree, path.back()) != name) return;
    ++bindings;
    TSNode a = path.size() >= 2 ? path[path.size() - 2] : TSNode{};
    if (u == NameUse::kAssign && Is(a, "assignment") && PlainString(tree, Field(a, "right"))) {
      out = EnvironmentUse::kReads;
      return;
    }
    // The first name of the `for` target (`k` of `k, v`), over a parameter.
    for (std::size_t i = path.size(); i-- > 1;) {
      TSNode f = path[i - 1];
      if (!Is(f, "for_statement")) continue;
      TSNode left = Field(f, "left");
      TSNode first = Is(left, "identifier") ? left : ts_node_named_child(left, 0);
      bool key = ts_node_eq(first, path.back()) &&
                 (Is(left, "identifier") || Is(left, "pattern_list") || Is(left, "tuple_pattern"));
      if (key && parameter(Field(f, "right"))) out = EnvironmentUse::kCallerKeys;
      break;
    }
  });
  return bindings == 1 ? out : EnvironmentUse::kWrites;
}

EnvironmentUse UseOfEnvironment(const SyntaxTree& tree, std::vector<TSNode> at) {
  TSNode fn = EnclosingDef(at);
  TSNode p = at.size() >= 2 ? at[at.size() - 2] : TSNode{};
  if (Is(p, "attribute") && FieldIs(p, "attribute", at.back())) {
    at.pop_back();  // `os.environ`: the attribute is the mapping
    p = at.size() >= 2 ? at[at.size() - 2] : TSNode{};
  }
  TSNode e = at.back();
  TSNode g = at.size() >= 3 ? at[at.size() - 3] : TSNode{};
  if (Is(p, "subscript") && FieldIs(p, "value", e)) {
    std::vector<TSNode> whole(at.begin(), at.end() - 1);
    if (UseOf(whole) == NameUse::kRead) return EnvironmentUse::kReads;  // `environ[key]` read
    return KeyOrigin(tree, fn, Field(p, "subscript"));                  // stored to or deleted
  }
  if (Is(p, "attribute") && FieldIs(p, "object", e)) {
    std::string_view method = TextOf(tree, Field(p, "attribute"));
    for (std::string_view m : {"get", "keys", "items", "values", "copy", "__contains__",
                               "__getitem__", "__len__", "__iter__"}) {
      if (method == m) return EnvironmentUse::kReads;
    }
    TSNode args = Is(g, "call") ? Field(g, "arguments") : TSNode{};
    if (ts_node_is_null(args) || ts_node_named_child_count(args) == 0) {
      return EnvironmentUse::kWrites;
    }
    TSNode first = ts_node_named_child(args, 0);
    if (method == "setdefault" || method == "__setitem__" || method == "pop" ||
        method == "__delitem__") {
      return KeyOrigin(tree, fn, first);
    }
    if (method == "update") {
      EnvironmentUse out = EnvironmentUse::kReads;
      for (TSNode a : NamedChildren(args)) {
        if (Is(a, "keyword_argument") || Is(a, "comment")) continue;
        if (Is(a, "identifier") && ts_node_named_child_count(args) == 1 && !ts_node_is_null(fn)) {
          std::vector<std::string> params = ParameterNames(tree, fn);
          bool param = std::find(params.begin(), params.end(), TextOf(tree, a)) != params.end();
          return param ? EnvironmentUse::kCallerKeys : EnvironmentUse::kWrites;
        }
        if (!Is(a, "dictionary")) return EnvironmentUse::kWrites;
        for (TSNode pair : NamedChildren(a)) {
          if (Is(pair, "comment")) continue;
          if (!Is(pair, "pair") || !PlainString(tree, Field(pair, "key"))) {
            return EnvironmentUse::kWrites;
          }
        }
      }
      return out;
    }
    return EnvironmentUse::kWrites;  // clear, popitem, __ior__ and the rest
  }
  if (Is(p, "comparison_operator")) return EnvironmentUse::kReads;  // `"X" in environ`
  if (Is(p, "for_statement") || Is(p, "for_in_clause")) {
    return FieldIs(p, "right", e) ? EnvironmentUse::kReads : EnvironmentUse::kWrites;
  }
  if (Is(p, "argument_list") && Is(g, "call")) {
    std::string_view callee = TextOf(tree, Field(g, "function"));
    bool reads = callee == "dict" || callee == "len" || callee == "sorted" || callee == "list";
    return reads ? EnvironmentUse::kReads : EnvironmentUse::kWrites;
  }
  if (Is(p, "keyword_argument") && TextOf(tree, Field(p, "name")) == "env") {
    return EnvironmentUse::kReads;  // a child process's environment
  }
  return EnvironmentUse::kWrites;
}

}  // namespace

std::optional<Evidence> TreeIndex::EnvironmentWrittenByAnyName() {
  // A helper probe of d751784: `os.environ.setdefault(key, value)` with the
  // key read from a file set VLLM_ATTENTION_BACKEND, and the verdict that
  // rested on its default stayed dead.
  caller_key_writes_.clear();
  return EachOccurrence(
      this, paths_, "environ", [&](const Occurrence& word) -> std::optional<Evidence> {
        const std::string& q = word.path;
        int k = word.line;
        if (!word.lines.InCode(word.offset) || Guard(q, k).value == Tri::kFalse)
          return std::nullopt;
        auto found = word.parses.PathAt(word.offset, 7);
        Evidence e = At(q, k);
        if (found && found->tree != nullptr && !found->path.empty()) {
          const std::vector<TSNode>& at = found->path;
          NameUse use = UseOf(at);
          if (use == NameUse::kImport) return std::nullopt;  // `from os import environ`
          if (use == NameUse::kRead || use == NameUse::kNotAName) {
            EnvironmentUse how = UseOfEnvironment(*found->tree, at);
            if (how == EnvironmentUse::kReads) return std::nullopt;
            if (how == EnvironmentUse::kCallerKeys) {
              caller_key_writes_.push_back(e);
              return std::nullopt;
            }
          }
        }
        e.what =
            "the environment is written here by a key or in a way the analysis does not read, "
            "so VLLM_ATTENTION_BACKEND may not be the default's: " +
            e.what;
        return e;
      });
}

std::optional<Evidence> TreeIndex::KeyCarriesEnvironment(const SyntaxTree& tree,
                                                         const std::vector<TSNode>& at,
                                                         TSNode key) {
  if (PlainString(tree, key)) return std::nullopt;  // ValueMade reads the string
  TSNode fn = EnclosingDef(at);
  if (!Is(key, "identifier") || ts_node_is_null(fn)) {
    return Evidence{"", 0, "`_Backend` looked up by a computed key"};
  }
  std::string_view name = TextOf(tree, key);
  for (const std::string& p : ParameterNames(tree, fn)) {
    if (p == name) return CallersPassEnvironment(std::string(TextOf(tree, Field(fn, "name"))));
  }
  if (!BoundToEnvironment(tree, fn, name)) {
    return Evidence{"", 0,
                    "`_Backend` looked up by " + std::string(name) +
                        ", bound otherwise than to VLLM_ATTENTION_BACKEND's value"};
  }
  return std::nullopt;
}

bool TreeIndex::BoundToEnvironment(const SyntaxTree& tree, TSNode scope, std::string_view local) {
  std::vector<std::string> names = BackendVariableNames();
  auto reads_variable = [&](std::string_view text) {
    for (const std::string& n : names) {
      for (std::size_t i = text.find(n); i != std::string_view::npos; i = text.find(n, i + 1)) {
        bool left = i == 0 || !IsWordChar(text[i - 1]);
        bool right = i + n.size() >= text.size() || !IsWordChar(text[i + n.size()]);
        if (left && right) return true;
      }
    }
    return false;
  };
  bool bound = false, environment = true;
  ForEachScopeBinding(scope, [&](const std::vector<TSNode>& path, NameUse u) {
    if (TextOf(tree, path.back()) != local) return;
    bound = true;
    TSNode a = path.size() >= 2 ? path[path.size() - 2] : TSNode{};
    TSNode right = Is(a, "assignment") ? Field(a, "right") : TSNode{};
    environment = environment && u == NameUse::kAssign && !ts_node_is_null(right) &&
                  reads_variable(TextOf(tree, right));
  });
  return bound && environment;
}

std::optional<Evidence> TreeIndex::CallersPassEnvironment(const std::string& fn) {
  return EachOccurrence(this, paths_, fn, [&](const Occurrence& word) -> std::optional<Evidence> {
    const std::string& q = word.path;
    int k = word.line;
    if (!word.lines.InCode(word.offset) || Guard(q, k).value == Tri::kFalse) return std::nullopt;
    auto found = word.parses.PathAt(word.offset, fn.size());
    auto fail = [&](const std::string& how) {
      Evidence e = At(q, k);
      e.what = how + ", and `_Backend[...]` there may make any member: " + e.what;
      return e;
    };
    if (!found || found->tree == nullptr) return fail("a use of " + fn + " that does not parse");
    const SyntaxTree& tree = *found->tree;
    std::vector<TSNode>& at = found->path;
    NameUse use = UseOf(at);
    if (use == NameUse::kDefine || use == NameUse::kImport || use == NameUse::kNotAName) {
      return std::nullopt;
    }
    TSNode call = at.size() >= 2 ? at[at.size() - 2] : TSNode{};
    if (!Is(call, "call") || !FieldIs(call, "function", at.back())) {
      return fail(fn + " used otherwise than called");
    }
    TSNode args = Field(call, "arguments");
    TSNode arg = ts_node_named_child_count(args) == 1 ? ts_node_named_child(args, 0) : TSNode{};
    TSNode scope = EnclosingDef(at);
    // A string literal whole: ValueMade's search reads the name it holds.
    if (!ts_node_is_null(arg) && PlainString(tree, arg)) return std::nullopt;
    if (ts_node_is_null(arg) || !Is(arg, "identifier") || ts_node_is_null(scope)) {
      return fail(fn + " called with an argument other than a local");
    }
    std::string_view local = TextOf(tree, arg);
    if (!BoundToEnvironment(tree, scope, local)) {
      return fail(fn + "(" + std::string(local) + ") with " + std::string(local) +
                  " bound otherwise than to VLLM_ATTENTION_BACKEND's value");
    }
    return std::nullopt;
  });
}

std::optional<Evidence> TreeIndex::ValueMade(const std::string& word, bool member, int depth) {
  if (depth > 4) return Evidence{"", 0, "`" + word + "` is passed on through more than 4 names"};
  for (const std::string& q : paths_) {
    const std::vector<std::size_t>& all = Occurrences(q, word);
    if (all.empty()) continue;
    // Read only where the bytes may make it: `X.WORD` (an attribute),
    // `"WORD"` (the name alone), or any occurrence in a file that names
    // the enum (`_Backend`). A bare WORD elsewhere is a name bound to the
    // member where it was made, which that file's own occurrence shows;
    // in a longer string or a comment, it makes nothing.
    const std::string_view* b = Bytes(q);
    if (b == nullptr) return Evidence{q, 0, "the file could not be read"};
    bool names_enum = member && !Occurrences(q, "_Backend").empty();
    std::vector<std::size_t> occ;
    for (std::size_t o : all) {
      char after = o + word.size() < b->size() ? (*b)[o + word.size()] : '\0';
      bool quoted = o > 0 && ((*b)[o - 1] == '"' || (*b)[o - 1] == '\'') && after == (*b)[o - 1];
      if (names_enum || !member || AfterDot(*b, o) || quoted) occ.push_back(o);
    }
    if (occ.empty()) continue;
    const StatementTable* lines = LinesBefore(q, occ.back());
    if (lines == nullptr) return Evidence{q, 0, "the file could not be read or parsed"};
    TopStatements parses(*lines);
    for (std::size_t o : occ) {
      int k = lines->IndexAt(o);
      if (k < 0) continue;
      // Where the value is made or read on, and, for a string that is the
      // member's name alone, the constant it is bound to (whose reads then
      // carry it on).
      bool value = false;
      std::string carrier;
      if (lines->InString(o)) {
        auto literal = lines->StringAt(o);
        std::string_view text =
            literal ? lines->src().substr(literal->first, literal->second - literal->first)
                    : std::string_view();
        // `"ROCM_FLASH"`: a name `_Backend[...]` or the environment turns
        // into the member; a longer string is a message.
        value = member && text.size() == word.size() + 2 && text.substr(1, word.size()) == word;
        if (value) {
          auto found = parses.PathAt(literal->first, literal->second - literal->first);
          if (found && found->tree != nullptr && found->path.size() == 4 &&
              Is(found->path[2], "assignment") && Is(Field(found->path[2], "left"), "identifier")) {
            carrier = std::string(TextOf(*found->tree, Field(found->path[2], "left")));
          }
        }
      } else if (lines->InCode(o)) {
        auto found = parses.PathAt(o, word.size());
        if (!found) {
          value = true;
        } else if (found->tree != nullptr) {
          std::vector<TSNode>& at = found->path;
          NameUse use = UseOf(at);
          if (member && use == NameUse::kNotAName && NamesAttribute(at)) {
            // `_Backend.ROCM_FLASH` compared is a test; used otherwise, a value.
            at.pop_back();
            std::size_t i = at.size() - 1;
            while (i > 0 && Is(at[i - 1], "parenthesized_expression")) --i;
            value = i == 0 || !Is(at[i - 1], "comparison_operator");
          } else if (member && (use == NameUse::kAssign || use == NameUse::kRead)) {
            // The member's own definition, in the enum's class body; a bare
            // name elsewhere may be the member imported.
            bool in_class = false;
            for (std::size_t i = at.size(); i-- > 0 && !in_class;) {
              if (Is(at[i], "function_definition")) break;
              in_class = Is(at[i], "class_definition");
            }
            value = !in_class;
          } else if (!member) {
            // A carrier: read, it passes the name on; bound, it is its own.
            value = use == NameUse::kRead || use == NameUse::kUnknown;
          } else {
            value = use != NameUse::kNotAName;
          }
        }
      }
      if (!value || Guard(q, k).value == Tri::kFalse) continue;
      if (carrier.empty()) return At(q, k);
      if (auto on = ValueMade(carrier, false, depth + 1)) return on;
    }
  }
  return std::nullopt;
}

std::optional<ConstantFlag> TreeIndex::Flag(const std::string& path, const std::string& name) {
  return FlagAt(path, name, 0);
}

std::optional<ConstantFlag> TreeIndex::FlagAt(const std::string& path, const std::string& name,
                                              int depth) {
  auto key = std::make_pair(path, name);
  auto cached = flags_.find(key);
  if (cached != flags_.end()) return cached->second;
  flags_[key] = std::nullopt;  // a cycle of re-exports decides nothing
  if (depth > 16) return std::nullopt;
  // Only the statements holding the name, or a word by which the module's
  // namespace may be bound wholesale (NamespaceWide: globals(), exec, a
  // `__dict__`, a star import), are read.
  const std::vector<std::size_t>& occ = Occurrences(path, name);
  if (occ.empty()) return std::nullopt;  // bound nowhere in the file
  std::size_t last = occ.back();
  std::vector<std::pair<std::size_t, std::size_t>> wide;  // offset, length
  for (const char* w : {"globals", "vars", "locals", "exec", "eval", "__dict__"}) {
    for (std::size_t o : Occurrences(path, w)) wide.emplace_back(o, std::strlen(w));
  }
  if (const std::string_view* b = Bytes(path)) {
    for (std::size_t o : Occurrences(path, "import")) {
      std::size_t star = o + 6;
      while (star < b->size() && (*b)[star] != '\0' &&
             std::strchr(" \t\\\r\n(", (*b)[star]) != nullptr) {
        ++star;
      }
      if (star < b->size() && (*b)[star] == '*') wide.emplace_back(star, 1);
    }
  }
  for (const auto& [o, n] : wide) last = std::max(last, o);
  const StatementTable* lines = LinesBefore(path, last);
  if (lines == nullptr) return std::nullopt;
  std::string_view src = lines->src();
  // Each occurrence in code is read from the parse (name_use.h) of the
  // top-level statement that holds it (TopStatement): a read, the lone
  // top-level `NAME = value`, a top-level import, or a binding of any
  // other kind, which leaves the name no constant.
  TopStatements parses(*lines);
  auto path_at = [&](std::size_t o, std::size_t n) { return parses.PathAt(o, n); };
  // Its module's namespace bound wholesale, run or not.
  for (const auto& [o, n] : wide) {
    if (!lines->InCode(o)) continue;
    auto at = path_at(o, n);
    if (!at) return std::nullopt;
    if (at->tree == nullptr) continue;
    std::vector<TSNode>& p = at->path;
    if (NamespaceWide(*at->tree, p)) return std::nullopt;
    p.pop_back();  // `m.__dict__`: the attribute
    if (!p.empty() && NamespaceWide(*at->tree, p)) return std::nullopt;
  }
  int bindings = 0;
  int assigned = -1;
  std::string value;
  std::optional<std::pair<ImportStatement, ImportedName>> imported;
  for (std::size_t o : occ) {
    int k = lines->IndexAt(o);
    if (k < 0) continue;
    // A string naming it may rebind it (setattr, a monkeypatch).
    if (lines->InString(o) && !InProse(*lines, o)) return std::nullopt;
    if (!lines->InCode(o)) continue;
    // globals().update(NAME=...) and the like bind it.
    if (KeywordArgument(src, o, name.size())) return std::nullopt;
    auto found = path_at(o, name.size());
    if (!found || found->tree == nullptr) return std::nullopt;
    const SyntaxTree& tree = *found->tree;
    std::vector<TSNode>& at = found->path;
    NameUse use = UseOf(at);
    // An attribute of that name stored to (`sys.modules[__name__].NAME =
    // v`, `m.NAME = v`): the object may be this module.
    if (use == NameUse::kNotAName && NamesAttribute(at)) {
      std::vector<TSNode> attribute(at.begin(), at.end() - 1);
      if (Binds(UseOf(attribute))) return std::nullopt;
    }
    // A read; another object's attribute; a parameter or a comprehension's
    // variable, which bind in scopes of their own.
    if (use == NameUse::kRead || use == NameUse::kNotAName || use == NameUse::kParameter ||
        use == NameUse::kComprehend) {
      continue;
    }
    // Only a statement of the module's top level may be the one binding:
    // the path is the module, the statement, (the assignment,) the name.
    bool top = at.size() >= 3 && lines->lines()[static_cast<std::size_t>(k)].parent == -1;
    if (use == NameUse::kAssign && top && at.size() == 4 && Is(at[1], "expression_statement") &&
        Is(at[2], "assignment")) {
      TSNode right = Field(at[2], "right");
      if (ts_node_is_null(right)) continue;  // `NAME: T` binds nothing in a module
      ++bindings;
      assigned = k;
      value = std::string(TextOf(tree, right));
      continue;
    }
    if (use == NameUse::kImport && top &&
        (Is(at[1], "import_statement") || Is(at[1], "import_from_statement"))) {
      auto stmt = ParseImport(TextOf(tree, at[1]));
      if (!stmt) return std::nullopt;
      for (const ImportedName& n : stmt->names) {
        std::string bound = n.alias;
        if (bound.empty()) bound = stmt->is_from ? n.name : n.name.substr(0, n.name.find('.'));
        if (bound != name) continue;
        ++bindings;
        imported.emplace(*stmt, n);
      }
      continue;
    }
    return std::nullopt;  // bound otherwise, or where the whitelist does not say
  }
  if (bindings != 1) return std::nullopt;
  std::optional<ConstantFlag> out;
  if (assigned >= 0) {
    if (ReboundElsewhere(path, name)) return std::nullopt;
    // Its module's object used as a value elsewhere (vars(m), m.__dict__,
    // a setattr with a computed name), run or not.
    if (ModuleEscape(
            this, [](const std::string&) { return true; }, path))
      return std::nullopt;
    auto literal = CanonicalLiteral(value);
    if (!literal) return std::nullopt;
    out = ConstantFlag{*literal, At(path, assigned)};
  } else if (imported && imported->first.is_from) {
    const std::string* me = modules_.ModuleOf(path);
    if (me == nullptr) return std::nullopt;
    auto module = ResolveRelative(*me, IsPackageInit(path), imported->first.level,
                                  imported->first.from_module);
    if (!module) return std::nullopt;
    const std::string* target = modules_.PathOf(*module);
    if (target == nullptr || modules_.PathOf(*module + "." + imported->second.name) != nullptr) {
      return std::nullopt;
    }
    // The module imported from may be another object than its file's
    // (`sys.modules["vllm.triton_utils"] = shim`, a helper probe of
    // d751784), or its names reached otherwise: as for the module that
    // assigns the flag.
    if (ModuleEscape(
            this, [](const std::string&) { return true; }, *target))
      return std::nullopt;
    out = FlagAt(*target, imported->second.name, depth + 1);
  }
  flags_[key] = out;
  return out;
}

bool TreeIndex::BoundAround(const std::string& path, int h, std::string_view name) {
  const StatementTable* lines = Held(path);
  if (lines == nullptr) return true;
  for (int p = lines->lines()[static_cast<std::size_t>(h)].parent; p >= 0;
       p = lines->lines()[static_cast<std::size_t>(p)].parent) {
    std::string_view kw = lines->Keyword(p);
    if (!IsHeader(kw, lines->Code(p), "def") && kw != "class") continue;
    const std::optional<std::set<std::string>>& names = ScopeNames(path, p);
    if (!names || names->count(std::string(name)) != 0) return true;
  }
  return false;
}

const std::optional<std::set<std::string>>& TreeIndex::ScopeNames(const std::string& path, int p) {
  FileState& file = File(path);
  auto cached = file.scope_names.find(p);
  if (cached != file.scope_names.end()) return cached->second;
  std::optional<std::set<std::string>> out;
  if (const StatementTable* lines = Held(path)) {
    // The def's or class's name, after its keyword: its parent in the parse
    // is the scope's node.
    std::string_view code = lines->Code(p);
    std::string_view keyword = lines->Keyword(p) == "class" ? "class" : "def";
    std::size_t at = code.find(keyword);
    std::size_t b =
        at == std::string_view::npos ? at : code.find_first_not_of(" \t", at + keyword.size());
    std::size_t e = b;
    while (e != std::string_view::npos && e < code.size() && IsWordChar(code[e])) ++e;
    if (b != std::string_view::npos && e > b) {
      TopStatements parses(*lines);
      std::size_t offset = lines->lines()[static_cast<std::size_t>(p)].code + b;
      auto found = parses.PathAt(offset, e - b);
      if (found && found->tree != nullptr && found->path.size() >= 2) {
        TSNode scope = found->path[found->path.size() - 2];
        if (Is(scope, "function_definition") || Is(scope, "class_definition")) {
          std::set<std::string> names;
          bool unknown = false;
          const SyntaxTree& tree = *found->tree;
          ForEachScopeBinding(scope, [&](const std::vector<TSNode>& at_name, NameUse use) {
            if (use == NameUse::kUnknown) unknown = true;
            names.emplace(TextOf(tree, at_name.back()));
          });
          if (!unknown) out = std::move(names);
        }
      }
    }
  }
  return file.scope_names.emplace(p, std::move(out)).first->second;
}

}  // namespace muh
