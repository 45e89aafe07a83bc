#include "engine/liveness/key_flow.h"

#include <cctype>
#include <set>
#include <tuple>
#include <utility>

#include "engine/base/text.h"
#include "engine/liveness/prose.h"

namespace muh {

namespace {

bool Runs(TreeIndex* index, const std::string& path, int k) { return LineRuns(index, path, k); }

// `x` of a statement `x = ...` (one plain name before a single `=`).
std::string AssignedName(std::string_view stmt) {
  std::size_t e = 0;
  while (e < stmt.size() && IsWordChar(stmt[e])) ++e;
  if (e == 0 || std::isdigit(static_cast<unsigned char>(stmt[0]))) return "";
  std::size_t i = e;
  while (i < stmt.size() && stmt[i] == ' ') ++i;
  if (i + 1 >= stmt.size() || stmt[i] != '=' || stmt[i + 1] == '=') return "";
  return std::string(stmt.substr(0, e));
}

class Flow {
 public:
  Flow(TreeIndex* index, const Reachability& reach, const std::string& key)
      : index_(index), reach_(reach), key_(key) {}

  // Follows `var` through the lines [begin, end) of `path`. Every
  // occurrence of the name there must be one the flow models: `**var`
  // (reads every key), a bare argument of a call (followed into the
  // callee), `var['lit']` and `var.get/pop/setdefault('lit')` (the literal
  // search reads those), a store to `var` or `var['lit']`, a copy
  // (`x = var.copy()`, `x = dict(var)`, `copy.copy`/`deepcopy`: x is
  // followed too), `return var` (followed to the callers), a parameter, a
  // keyword name or another object's attribute. Any other makes it unknown.
  void Follow(const std::string& path, const std::string& var, int begin, int end) {
    if (!seen_.insert(std::make_tuple(path, var, begin)).second) return;
    const StatementTable* lines = index_->Lines(path);
    if (lines == nullptr) {
      Unknown(Evidence{path, 0, "the file could not be read or lexed"}, "");
      return;
    }
    std::string_view src = lines->src();
    for (std::size_t o : index_->Occurrences(path, var)) {
      int k = lines->IndexAt(o);
      if (k < begin || k >= end || k < 0 || !Runs(index_, path, k)) continue;
      if (InFString(*lines, o)) {
        Unknown(index_->At(path, k), var + " in an f-string, whose {...} parts may read it");
        continue;
      }
      if (!lines->InCode(o)) continue;
      if (o >= 2 && src.substr(o - 2, 2) == "**") {
        Read(index_->At(path, k), "**" + var + " passes every key");
        continue;
      }
      std::size_t b = lines->CodeBefore(o);
      std::size_t a = lines->CodeAfter(o + var.size());
      char prev = b > 0 ? src[b - 1] : '\n';
      char next = a < src.size() ? src[a] : '\n';
      char next2 = a + 1 < src.size() ? src[a + 1] : '\n';
      if (prev == '.') continue;  // another object's attribute
      std::string_view kw = lines->Keyword(k);
      // A parameter's default (`def f(cfg=var):`, `lambda cfg=var: ...`)
      // keeps the dict for every later call, which the flow does not follow.
      if (prev == '=' && b >= 2 && IsWordChar(src[b - 2]) &&
          (next == ',' || next == ')' || next == ':')) {
        std::size_t hb = 0;
        std::string_view head = lines->StatementAt(k, o, &hb);
        std::string_view before = o > hb && o - hb <= head.size() ? head.substr(0, o - hb) : "";
        std::size_t lam = before.rfind("lambda");
        int depth = 0;
        for (std::size_t i = (kw == "def" || kw == "async") ? 0 : before.size(); i < before.size();
             ++i) {
          depth += before[i] == '(' ? 1 : before[i] == ')' ? -1 : 0;
        }
        bool in_lambda = lam != std::string_view::npos &&
                         (lam == 0 || !IsWordChar(before[lam - 1])) &&
                         before.find(':', lam) == std::string_view::npos;
        if (depth > 0 || in_lambda) {
          Unknown(index_->At(path, k),
                  var + " as a parameter's default, which every call of that function may read");
          continue;
        }
      }
      if ((kw == "def" || kw == "async") && lines->StatementAt(k, o).substr(0, 3) != "def" &&
          kw != "async") {
        // falls through: a one-line def body
      } else if (kw == "def" || kw == "async") {
        if (lines->StatementAt(k, o).find(':') == std::string_view::npos) continue;  // a parameter
      }
      if (kw == "match" || kw == "case") {
        // `match var:` is no annotation: its patterns may read any key
        // (`case {**rest}`); a pattern may capture the name.
        Unknown(index_->At(path, k),
                var + " in a match statement, whose patterns may read any key");
        continue;
      }
      if (next == '=' && next2 != '=') continue;                    // a store, or a keyword name
      if (next == ':' && next2 != '=' && kw != "lambda") continue;  // an annotated name
      if (next == '[') {
        std::size_t close = src.find(']', a);
        std::string_view index =
            close == std::string_view::npos ? "" : Trim(src.substr(a + 1, close - a - 1));
        if (!StringLiteralValue(index)) {
          Unknown(index_->At(path, k), var + "[...] with a key the analysis cannot read");
        }
        continue;
      }
      std::size_t sb = 0;
      std::string_view stmt = lines->StatementAt(k, o, &sb);
      std::string target = AssignedName(stmt);
      if (next == '.') {
        std::size_t m = a + 1;
        while (m < src.size() && src[m] == ' ') ++m;
        std::size_t me = m;
        while (me < src.size() && IsWordChar(src[me])) ++me;
        std::string_view method = src.substr(m, me - m);
        std::size_t open = me;
        while (open < src.size() && src[open] == ' ') ++open;
        if (method == "copy" && !target.empty()) {
          Follow(path, target, 0, static_cast<int>(lines->lines().size()));
          continue;
        }
        if ((method == "get" || method == "pop" || method == "setdefault") && open < src.size() &&
            src[open] == '(') {
          std::size_t close = open + 1;
          while (close < src.size() && src[close] != ',' && src[close] != ')') ++close;
          if (StringLiteralValue(Trim(src.substr(open + 1, close - open - 1)))) continue;
        }
        Unknown(index_->At(path, k), var + "." + std::string(method) +
                                         " is a use of the dict the analysis does not model");
        continue;
      }
      if (Trim(stmt) == "return " + var) {
        Returned(path, *lines, k);
        continue;
      }
      // A bare argument: `(var,` `, var)` or `name=var`.
      bool bare = next == ',' || next == ')';
      std::string keyword;
      std::size_t cb = b;
      if (bare && prev == '=' && b >= 2 && IsWordChar(src[b - 2])) {
        std::size_t kb = b - 1;
        while (kb > 0 && IsWordChar(src[kb - 1])) --kb;
        keyword = std::string(src.substr(kb, b - 1 - kb));
        cb = kb;
        while (cb > 0 && std::isspace(static_cast<unsigned char>(src[cb - 1]))) --cb;
      }
      if (bare && cb > 0 && (src[cb - 1] == '(' || src[cb - 1] == ',')) {
        // A copy: `x = dict(var)`, `x = copy.copy(var)`, `x = copy.deepcopy(var)`.
        std::size_t ce = cb - 1;
        std::size_t cs = ce;
        while (cs > 0 && (IsWordChar(src[cs - 1]) || src[cs - 1] == '.')) --cs;
        std::string_view callee = src.substr(cs, ce - cs);
        bool copies = (callee == "dict" || callee == "copy.copy" || callee == "copy.deepcopy" ||
                       callee == "deepcopy") &&
                      src[cb - 1] == '(' && next == ')';
        if (copies && !target.empty()) {
          Follow(path, target, 0, static_cast<int>(lines->lines().size()));
          continue;
        }
        Call(path, *lines, k, o, keyword);
        continue;
      }
      Unknown(index_->At(path, k), "a use of " + var + " the flow does not model (it follows **" +
                                       var + ", a call's argument, " + var +
                                       "['KEY'], .get/.pop('KEY'), copies, return)");
    }
  }

  bool unknown = false;
  std::vector<Evidence> reads;
  std::vector<Evidence> doubts;
  std::string why;

 private:
  void Read(const Evidence& at, const std::string& what) {
    Evidence e = at;
    e.what = what + ": " + e.what;
    reads.push_back(e);
  }
  void Unknown(const Evidence& at, const std::string& what) {
    unknown = true;
    Evidence e = at;
    if (!what.empty()) e.what = what + ": " + e.what;
    doubts.push_back(e);
  }

  // `return var` on line `k`: the dict goes wherever the function's result
  // goes. Every use of the function's name in code that runs must be one
  // the flow models: `x = fn(...)` (x is followed), `return fn(...)` (to
  // its callers in turn), `g = functools.partial(fn, ...)` then
  // `x = g(...)`, an import without an alias, the def itself.
  void Returned(const std::string& path, const StatementTable& lines, int k) {
    int def = lines.lines()[static_cast<std::size_t>(k)].parent;
    while (def >= 0 && lines.Keyword(def) != "def" && lines.Keyword(def) != "async") {
      def = lines.lines()[static_cast<std::size_t>(def)].parent;
    }
    Evidence at = index_->At(path, k);
    if (def < 0) {
      Unknown(at, "returned outside a function");
      return;
    }
    std::string fn = index_->DefinedName(path, def);
    if (!returned_.insert(std::make_pair(path, fn)).second) return;
    Callers(fn, "", at);
  }

  // The uses of `fn` (in `only`, or in every reached file).
  void Callers(const std::string& fn, const std::string& only, const Evidence& from) {
    for (const std::string& q : index_->paths()) {
      if (!only.empty() && q != only) continue;
      if (!reach_.Reached(q)) continue;
      const std::vector<std::size_t>& occ = index_->Occurrences(q, fn);
      if (occ.empty()) continue;
      const StatementTable* ql = index_->Lines(q);
      if (ql == nullptr) {
        Unknown(Evidence{q, 0, "the file could not be read or lexed"}, "");
        continue;
      }
      std::string_view src = ql->src();
      for (std::size_t o : occ) {
        int j = ql->IndexAt(o);
        if (j < 0 || !Runs(index_, q, j)) continue;
        if (!ql->InCode(o)) {
          if (ql->InString(o) && !InProse(*ql, o)) {
            Unknown(index_->At(q, j), "'" + fn + "', which returns the dict, in a string");
          }
          continue;
        }
        std::size_t sb = 0;
        std::string_view stmt = ql->StatementAt(j, o, &sb);
        std::string_view skw = stmt.substr(0, stmt.find_first_of(" \t("));
        if (skw == "import" || skw == "from") {
          if (stmt.find(fn + " as ") == std::string_view::npos) continue;
        }
        if ((skw == "def" || skw == "async") && index_->DefinedName(q, j) == fn) continue;
        std::size_t a = o + fn.size();
        while (a < src.size() && src[a] == ' ') ++a;
        std::string target = AssignedName(stmt);
        if (o == sb && target == fn) continue;  // `g = functools.partial(...)` binds g
        std::string_view rest = Trim(src.substr(sb, o - sb));
        bool call = a < src.size() && src[a] == '(';
        if (call && !target.empty() && Trim(rest.substr(rest.find('=') + 1)).empty()) {
          Follow(q, target, 0, static_cast<int>(ql->lines().size()));
          continue;
        }
        if (call) {
          // `use(fn(...))`: the result is a bare argument of another call.
          std::size_t close = a;
          int depth = 0;
          for (; close < src.size(); ++close) {
            if (!ql->InCode(close)) continue;
            if (src[close] == '(') ++depth;
            if (src[close] == ')' && --depth == 0) break;
          }
          std::size_t after = close + 1;
          while (after < src.size() && std::isspace(static_cast<unsigned char>(src[after]))) {
            ++after;
          }
          std::size_t before = o;
          while (before > 0 && std::isspace(static_cast<unsigned char>(src[before - 1]))) --before;
          bool argument = close < src.size() && after < src.size() &&
                          (src[after] == ',' || src[after] == ')') && before > 0 &&
                          (src[before - 1] == '(' || src[before - 1] == ',');
          if (argument) {
            Call(q, *ql, j, o, "");
            continue;
          }
        }
        if (call && rest == "return") {
          Returned(q, *ql, j);
          continue;
        }
        std::string_view after_eq = target.empty() ? "" : Trim(rest.substr(rest.find('=') + 1));
        if ((after_eq == "functools.partial(" || after_eq == "partial(") && a < src.size() &&
            (src[a] == ',' || src[a] == ')')) {
          Callers(target, q, from);
          continue;
        }
        Unknown(index_->At(q, j), "a use of " + fn +
                                      ", which returns the dict, that the analysis "
                                      "does not model");
      }
    }
  }

  // The call whose argument list holds offset `o` (the variable).
  void Call(const std::string& path, const StatementTable& lines, int k, std::size_t o,
            const std::string& keyword) {
    std::string_view src = lines.src();
    // Back to the unmatched '(' before `o`, counting the arguments before it.
    int depth = 0;
    int position = 0;
    std::size_t i = o;
    std::size_t line_code = lines.lines()[static_cast<std::size_t>(k)].code;
    for (; i > line_code; --i) {
      char c = src[i - 1];
      if (!lines.InCode(i - 1)) continue;
      if (c == ')' || c == ']' || c == '}') ++depth;
      if (c == '(' || c == '[' || c == '{') {
        if (depth == 0) break;
        --depth;
      }
      if (c == ',' && depth == 0) ++position;
    }
    if (i <= line_code || src[i - 1] != '(') return;
    std::size_t callee_end = i - 1;
    std::size_t callee_begin = callee_end;
    while (callee_begin > line_code &&
           (IsWordChar(src[callee_begin - 1]) || src[callee_begin - 1] == '.')) {
      --callee_begin;
    }
    std::string callee(src.substr(callee_begin, callee_end - callee_begin));
    Evidence at = index_->At(path, k);
    if (callee.empty()) {
      Unknown(at, "passed to a call the analysis cannot name");
      return;
    }
    std::size_t dot = callee.rfind('.');
    std::string fn = dot == std::string::npos ? callee : callee.substr(dot + 1);
    std::string qualifier = dot == std::string::npos ? "" : callee.substr(0, dot);
    // The module the callee lives in: this file, or the one its qualifier names.
    std::string target_path = path;
    std::string module_name;
    if (!qualifier.empty()) {
      module_name = ImportedModule(path, lines, qualifier);
      const std::string* p = module_name.empty() ? nullptr : index_->modules().PathOf(module_name);
      target_path = p == nullptr ? "" : *p;
    }
    for (const DeclaredFact& f : index_->facts().declared) {
      if (f.kind != DeclaredFact::Kind::kReadsKeys) continue;
      bool match = f.path.empty() ? (!module_name.empty() && f.callee == module_name + "." + fn)
                                  : (f.path == target_path && f.callee == fn);
      if (!match) continue;
      for (const std::string& rk : f.reads_keys) {
        if (rk == key_) Read(at, "declared to read '" + key_ + "' (" + f.source + ")");
      }
      Evidence e = at;
      e.what = "declared: " + callee + " reads only " + Join(f.reads_keys) + " (" + f.source +
               "): " + e.what;
      facts_used.push_back(e);
      return;
    }
    if (target_path.empty()) {
      Unknown(at, "passed to " + callee + ", outside the tree");
      return;
    }
    int def = FindDef(target_path, fn);
    if (def < 0 && qualifier.empty()) {
      // `from m import fn [as alias]` in this file: fn of m.
      for (std::size_t io : index_->Occurrences(path, "import")) {
        if (!lines.InCode(io) || def >= 0) continue;
        int ik = lines.IndexAt(io);
        if (ik < 0) continue;
        auto stmt = ParseImport(lines.StatementAt(ik, io));
        if (!stmt || !stmt->is_from) continue;
        for (const ImportedName& n : stmt->names) {
          if ((n.alias.empty() ? n.name : n.alias) != fn) continue;
          const std::string* me = index_->modules().ModuleOf(path);
          auto base = me ? ResolveRelative(*me, IsPackageInit(path), stmt->level, stmt->from_module)
                         : std::nullopt;
          const std::string* p = base ? index_->modules().PathOf(*base) : nullptr;
          if (p == nullptr) continue;
          target_path = *p;
          fn = n.name;
          def = FindDef(target_path, fn);
          break;
        }
      }
    }
    if (def < 0) {
      Unknown(at, "passed to " + callee + ", which the analysis cannot find");
      return;
    }
    // A decorated def's name is bound to what the decorator returns, whose
    // wrapper may read any key (`ops.set_moe_tiles(**args[12])`, a helper
    // probe of 2178177): the def's body is not what runs first.
    if (const StatementTable* defs = index_->Lines(target_path);
        defs != nullptr && def > 0 &&
        defs->lines()[static_cast<std::size_t>(def - 1)].parent == -1 &&
        Trim(defs->Code(def - 1)).rfind('@', 0) == 0) {
      Unknown(index_->At(target_path, def - 1),
              "passed to " + callee + ", whose def is decorated: the wrapper may read any key");
      return;
    }
    std::string param = Parameter(target_path, def, position, keyword);
    if (param.empty()) {
      Unknown(at, "passed to " + callee + " through *args or **kwargs");
      return;
    }
    Follow(target_path, param, def, index_->BlockEnd(target_path, def));
  }

 public:
  std::vector<Evidence> facts_used;

 private:
  static std::string Join(const std::vector<std::string>& v) {
    std::string out;
    for (const std::string& s : v) out += (out.empty() ? "" : ", ") + s;
    return out;
  }

  // The module an alias names in `path`: `import a.b as q`, `from a import b as q`.
  std::string ImportedModule(const std::string& path, const StatementTable& lines,
                             const std::string& qualifier) {
    if (qualifier.find('.') != std::string::npos) {
      return index_->modules().PathOf(qualifier) != nullptr ? qualifier : "";
    }
    for (std::size_t o : index_->Occurrences(path, qualifier)) {
      int k = lines.IndexAt(o);
      if (k < 0 || (lines.Keyword(k) != "import" && lines.Keyword(k) != "from")) continue;
      auto stmt = ParseImport(lines.Code(k));
      if (!stmt) continue;
      for (const ImportedName& n : stmt->names) {
        std::string bound = n.alias.empty() ? n.name : n.alias;
        if (bound != qualifier) continue;
        if (!stmt->is_from) return n.name;
        const std::string* me = index_->modules().ModuleOf(path);
        auto base = me ? ResolveRelative(*me, IsPackageInit(path), stmt->level, stmt->from_module)
                       : std::optional<std::string>(stmt->from_module);
        if (!base) return "";
        return *base + "." + n.name;
      }
    }
    return "";
  }

  int FindDef(const std::string& path, const std::string& fn) {
    const StatementTable* lines = index_->Lines(path);
    if (lines == nullptr) return -1;
    for (std::size_t o : index_->Occurrences(path, fn)) {
      int k = lines->IndexAt(o);
      if (k >= 0 && lines->lines()[static_cast<std::size_t>(k)].parent == -1 &&
          index_->DefinedName(path, k) == fn && lines->Keyword(k) != "class") {
        return k;
      }
    }
    return -1;
  }

  // The name of parameter `position` (or `keyword`) of the def on line `k`.
  std::string Parameter(const std::string& path, int k, int position, const std::string& keyword) {
    const StatementTable* lines = index_->Lines(path);
    std::string_view code = lines->Code(k);
    std::size_t open = code.find('(');
    if (open == std::string_view::npos) return "";
    std::vector<std::string> names;
    int depth = 0;
    std::size_t start = open + 1;
    std::size_t base = lines->lines()[static_cast<std::size_t>(k)].code;
    for (std::size_t i = open + 1; i < code.size(); ++i) {
      if (!lines->InCode(base + i)) continue;
      char c = code[i];
      if (c == '(' || c == '[' || c == '{') ++depth;
      if ((c == ')' || c == ']' || c == '}') && depth-- == 0) {
        names.emplace_back(Trim(code.substr(start, i - start)));
        break;
      }
      if (c == ',' && depth == 0) {
        names.emplace_back(Trim(code.substr(start, i - start)));
        start = i + 1;
      }
    }
    for (std::string& n : names) {
      std::size_t e = 0;
      while (e < n.size() && (IsWordChar(n[e]) || n[e] == '*')) ++e;
      n = n.substr(0, e);
    }
    if (!keyword.empty()) {
      for (const std::string& n : names) {
        if (n == keyword) return n;
      }
      return "";
    }
    if (position < 0 || position >= static_cast<int>(names.size())) return "";
    const std::string& n = names[static_cast<std::size_t>(position)];
    return n.empty() || n[0] == '*' ? "" : n;
  }

  TreeIndex* index_;
  const Reachability& reach_;
  const std::string& key_;
  std::set<std::tuple<std::string, std::string, int>> seen_;
  std::set<std::pair<std::string, std::string>> returned_;
};

}  // namespace

bool LineRuns(TreeIndex* index, const std::string& path, int k) {
  return index->Guard(path, k).value != Tri::kFalse && !index->AfterExit(path, k);
}

DictFlow FollowDict(TreeIndex* index, const Reachability& reach, const std::string& path,
                    const std::string& var, const std::string& key) {
  Flow flow(index, reach, key);
  const StatementTable* lines = index->Lines(path);
  if (lines != nullptr) flow.Follow(path, var, 0, static_cast<int>(lines->lines().size()));
  DictFlow out;
  out.unknown = flow.unknown;
  out.reads = std::move(flow.reads);
  out.doubts = std::move(flow.doubts);
  out.facts_used = std::move(flow.facts_used);
  return out;
}

}  // namespace muh
