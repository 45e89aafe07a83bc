#include "engine/liveness/reachability.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <optional>
#include <unordered_map>

#include "engine/base/text.h"
#include "engine/liveness/process_launch.h"

namespace muh {

namespace {

// The text between the parenthesis at `open` and its partner.
std::string_view Arguments(const StatementTable& lines, std::size_t open) {
  std::string_view src = lines.src();
  int depth = 0;
  for (std::size_t i = open; i < src.size(); ++i) {
    if (!lines.InCode(i)) continue;
    if (src[i] == '(') ++depth;
    if (src[i] == ')' && --depth == 0) return src.substr(open + 1, i - open - 1);
  }
  return {};
}

// Whether the tree holds `module` or one of its packages.
bool InTree(const ModuleMap& mods, std::string_view module) {
  for (std::size_t dot = module.find('.');; dot = module.find('.', dot + 1)) {
    if (mods.PathOf(module.substr(0, dot)) != nullptr) return true;
    if (dot == std::string_view::npos) return false;
  }
}

// Whether an import line can load a module of the tree: it imports
// relatively (a dot) or names a top-level package of the tree (`vllm`).
// Most imports (`import os`, `from typing import List`) do neither and need
// no parse. With many top-level names, every line is parsed.
bool MayLoadTree(const ModuleMap& mods, std::string_view code) {
  if (code.find('.') != std::string_view::npos || mods.tops().size() > 8) return true;
  for (const std::string& top : mods.tops()) {
    if (code.find(top) != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace

template <typename MakeVia>
void Reachability::ReachWith(std::string_view module, const MakeVia& via) {
  // Its packages first (`a`, `a.b` for `a.b.c`), then the module itself.
  for (std::size_t dot = module.find('.');; dot = module.find('.', dot + 1)) {
    // The index lists the paths the module map was made from, in order.
    int i = index_->modules().PositionOf(module.substr(0, dot));
    if (i >= 0 && reached_[static_cast<std::size_t>(i)] == 0) {
      const std::string& p = index_->paths()[static_cast<std::size_t>(i)];
      reached_[static_cast<std::size_t>(i)] = 1;
      ++reached_count_;
      via_.emplace(p, via());
      if (carried_ != nullptr) {
        doubted_.emplace(p, *carried_);
      } else if (from_ != nullptr) {
        auto d = doubted_.find(*from_);
        if (d != doubted_.end()) {
          ReachDoubt inherited = d->second;
          doubted_.emplace(p, std::move(inherited));
        }
      }
      queue_.push_back(p);
    }
    if (dot == std::string_view::npos) break;
  }
}

const ReachDoubt* Reachability::Doubted(const std::string& path) const {
  auto it = doubted_.find(path);
  return it == doubted_.end() ? nullptr : &it->second;
}

bool Reachability::Reached(const std::string& path) const {
  int i = index_ == nullptr ? -1 : index_->PathIndex(path);
  return i >= 0 && reached_[static_cast<std::size_t>(i)] != 0;
}

Reachability Reachability::Run(TreeIndex* index) {
  Reachability r;
  r.index_ = index;
  r.reached_.assign(index->paths().size(), 0);
  const std::string* entry = index->modules().PathOf(index->facts().entry_module);
  r.entry_found_ = entry != nullptr;
  if (!r.entry_found_) return r;
  r.Reach(index->facts().entry_module, Evidence{});
  // Python's site module imports sitecustomize and usercustomize at start-up
  // wherever they are importable: the tree's own run when its root is on
  // sys.path (PYTHONPATH, an editable install), before the entry module (a
  // helper probe of d751784: one that imported a kernel left it "dead").
  for (const char* hook : {"sitecustomize", "usercustomize"}) {
    if (const std::string* p = index->modules().PathOf(hook)) {
      r.Reach(hook, Evidence{*p, 1,
                             "Python runs it at start-up where the tree's root is on "
                             "sys.path"});
    }
  }
  References refs(index, [&r](const std::string& p) { return r.Reached(p); });
  for (;;) {
    while (!r.queue_.empty()) {
      std::string path = r.queue_.back();
      r.queue_.pop_back();
      r.Scan(path);
    }
    bool more = r.ReachWatched();
    // Dynamic imports, and function-local imports whose def or class
    // something that runs uses.
    std::vector<Dynamic> waiting;
    for (const Dynamic& d : r.dynamic_) {
      if (r.Resolve(d, &refs)) {
        more = true;
      } else {
        waiting.push_back(d);
      }
    }
    r.dynamic_ = std::move(waiting);
    std::vector<Deferred> pending;
    for (Deferred& d : r.deferred_) {
      bool needed = false;
      for (const std::string& t : d.targets) {
        const std::string* p = index->modules().PathOf(t);
        needed = needed || (p != nullptr && !r.Reached(*p));
      }
      if (!needed) continue;
      ReferenceResult used = refs.Of(d.path, d.unit);
      if (used.referenced == Tri::kFalse) {
        pending.push_back(d);
        continue;
      }
      // Used, or not known to be: reached either way, and in the second
      // case what it reaches may not run (a helper probe of e2916b3: a
      // syntax error elsewhere made a ROCm-only module's site "live").
      ReachDoubt doubt;
      if (used.referenced == Tri::kUnknown) {
        doubt.why = "it is imported only inside " + index->DefinedName(d.path, d.unit) + ", and " +
                    used.why;
        doubt.evidence.push_back(index->At(d.path, d.line));
        doubt.evidence.insert(doubt.evidence.end(), used.evidence.begin(), used.evidence.end());
        r.carried_ = &doubt;
      }
      r.from_ = &d.path;
      for (const std::string& t : d.targets) {
        r.ReachWith(t, [&] { return index->At(d.path, d.line); });
      }
      r.from_ = nullptr;
      r.carried_ = nullptr;
      more = true;
    }
    r.deferred_ = std::move(pending);
    // The imports Scan left for later are read last, when nothing else
    // reaches a module: by then most modules they may name are reached.
    if (!more && r.queue_.empty() && !r.ScanLater()) break;
  }
  for (const Deferred& d : r.deferred_) {
    ReferenceResult used = refs.Of(d.path, d.unit);
    BlockedImport b;
    b.why = "imported only inside " + index->DefinedName(d.path, d.unit) + ", and " + used.why;
    b.evidence.push_back(index->At(d.path, d.line));
    b.evidence.insert(b.evidence.end(), used.evidence.begin(), used.evidence.end());
    for (const std::string& t : d.targets) {
      const std::string* p = index->modules().PathOf(t);
      if (p != nullptr && !r.Reached(*p)) r.blocked_[*p].push_back(b);
    }
  }
  return r;
}

bool Reachability::Resolve(const Dynamic& d, References* refs) {
  ReachDoubt doubt;
  if (d.unit >= 0) {
    ReferenceResult used = refs->Of(d.path, d.unit);
    if (used.referenced == Tri::kFalse) return false;
    if (used.referenced == Tri::kUnknown) {
      doubt.why =
          "it is loaded only inside " + index_->DefinedName(d.path, d.unit) + ", and " + used.why;
      doubt.evidence.push_back(index_->At(d.path, d.line));
      doubt.evidence.insert(doubt.evidence.end(), used.evidence.begin(), used.evidence.end());
      carried_ = &doubt;
    }
  }
  const std::string* outer = from_;
  from_ = &d.path;
  bool resolved = ResolveLoad(d);
  from_ = outer;
  carried_ = nullptr;
  return resolved;
}

bool Reachability::ResolveLoad(const Dynamic& d) {
  Evidence at = index_->At(d.path, d.line);
  if (d.declared != nullptr) {
    // Declared: each module named, and every module under it.
    at.what = "declared in dynamic-imports: " + at.what;
    for (const std::string& m : d.declared->loads) {
      Reach(m, at);
      for (const std::string& sub : index_->modules().WithPrefix(m + ".")) Reach(sub, at);
    }
    return true;
  }
  using Kind = DynamicImportArgument::Kind;
  bool relative = !d.arg.value.empty() && d.arg.value[0] == '.';
  if (relative && d.arg.kind == Kind::kLiteral) {
    // `import_module('.m', package=P)`: resolved against P as `from . import`
    // would be; a package the analysis cannot name leaves the result open.
    std::optional<std::string> module;
    std::size_t level = d.arg.value.find_first_not_of('.');
    std::string rest = level == std::string::npos ? "" : d.arg.value.substr(level);
    if (level == std::string::npos) level = d.arg.value.size();
    const std::string* me = index_->modules().ModuleOf(d.path);
    std::string base;
    if (d.arg.package == "__name__" && me != nullptr) {
      base = *me;
    } else if (d.arg.package == "__package__" && me != nullptr) {
      std::size_t dot = me->rfind('.');
      if (IsPackageInit(d.path)) {
        base = *me;
      } else if (dot != std::string::npos) {
        base = me->substr(0, dot);
      }
    } else if (!d.arg.package.empty() && d.arg.package != "?") {
      base = d.arg.package;
    }
    if (!base.empty()) {
      // `base` is a package: `from .x import` inside its __init__.
      module = ResolveRelative(base, true, static_cast<int>(level), rest);
    }
    if (!module) {
      opaque_.push_back(at);
      return true;
    }
    Reach(*module, at);
    return true;
  }
  if (relative) {
    opaque_.push_back(at);
    return true;
  }
  if (d.arg.kind == Kind::kLiteral) {
    Reach(d.arg.value, at);
  } else if (d.arg.kind == Kind::kPrefix) {
    for (const std::string& m : index_->modules().WithPrefix(d.arg.value)) Reach(m, at);
  } else if (d.arg.kind == Kind::kName) {
    watched_.emplace(d.arg.value, at);
  } else {
    opaque_.push_back(at);
  }
  return true;
}

bool Reachability::ReachWatched() {
  bool more = false;
  for (const auto& [name, at] : watched_) {
    bool any = false;
    for (const std::string& p : index_->paths()) {
      if (!Reached(p)) continue;
      for (const std::string& v : LiteralsAssignedTo(p, name)) {
        any = true;
        std::size_t before = reached_.size();
        if (!v.empty() && v.back() == '*') {
          for (const std::string& m : index_->modules().WithPrefix(v.substr(0, v.size() - 1))) {
            Reach(m, at);
          }
        } else {
          Reach(v, at);
          std::size_t dot = v.rfind('.');  // "pkg.mod.Class": the module part
          if (dot != std::string::npos) Reach(v.substr(0, dot), at);
        }
        more = more || reached_.size() != before;
      }
    }
    if (!any && std::find(opaque_.begin(), opaque_.end(), at) == opaque_.end()) {
      opaque_.push_back(at);
    }
  }
  return more;
}

std::string Reachability::DeclarationFor(const Evidence& e) const {
  auto it = declare_at_.find({e.path, e.line});
  return it == declare_at_.end() ? "" : it->second;
}

const Evidence* Reachability::Via(const std::string& path) const {
  auto it = via_.find(path);
  return it == via_.end() ? nullptr : &it->second;
}

const std::vector<BlockedImport>* Reachability::Blocked(const std::string& path) const {
  auto it = blocked_.find(path);
  return it == blocked_.end() ? nullptr : &it->second;
}

void Reachability::Reach(std::string_view module, const Evidence& via) {
  ReachWith(module, [&via]() -> const Evidence& { return via; });
}

std::vector<std::string> Reachability::Targets(const std::string& path,
                                               const ImportStatement& s) const {
  std::vector<std::string> out;
  const ModuleMap& mods = index_->modules();
  if (!s.is_from) {
    for (const ImportedName& n : s.names) {
      if (InTree(mods, n.name)) out.push_back(n.name);
    }
    return out;
  }
  const std::string* me = mods.ModuleOf(path);
  if (me == nullptr) return out;
  auto base = ResolveRelative(*me, IsPackageInit(path), s.level, s.from_module);
  if (!base) return out;
  if (InTree(mods, *base)) out.push_back(*base);
  std::string sub = *base + ".";
  for (const ImportedName& n : s.names) {
    if (n.name == "*") continue;
    sub.resize(base->size() + 1);
    sub += n.name;
    if (mods.PathOf(sub) != nullptr) out.push_back(sub);
  }
  return out;
}

namespace {

// Whether the line holding `o` begins at column 0 with `import` or `from`.
bool AtTopLevelImportLine(std::string_view src, std::size_t o) {
  std::size_t b = o == 0 ? 0 : src.rfind('\n', o - 1);
  b = b == std::string_view::npos || o == 0 ? 0 : b + 1;
  for (std::string_view kw : {"import", "from"}) {
    if (src.substr(b, kw.size()) == kw &&
        (b + kw.size() >= src.size() || !IsWordChar(src[b + kw.size()]))) {
      return true;
    }
  }
  return false;
}

// The words of the import statement whose `import` is at `o`, and maybe
// more, without a parse: from the start of its line (and of the lines a
// backslash joins to it) to the end of its names: the `)` closing a
// parenthesised list (comments skipped: nothing else may stand there), or
// the end of the line. A statement's module names are among them.
std::vector<std::string> ImportWords(std::string_view src, std::size_t o) {
  std::size_t b = o == 0 ? 0 : src.rfind('\n', o - 1);
  b = b == std::string_view::npos ? 0 : b + 1;
  while (b >= 2 && src[b - 2] == '\\') {
    std::size_t p = src.rfind('\n', b - 2);
    b = p == std::string_view::npos ? 0 : p + 1;
  }
  std::size_t e = o + 6;
  while (e < src.size() && (src[e] == ' ' || src[e] == '\t')) ++e;
  // `from pkg import *` may load submodules it does not name: "*" stands
  // for them.
  bool star = e < src.size() && src[e] == '*';
  if (e < src.size() && src[e] == '(') {
    while (e < src.size() && src[e] != ')') {
      if (src[e] == '#') {
        e = src.find('\n', e);
        if (e == std::string_view::npos) e = src.size();
        continue;
      }
      ++e;
    }
  } else {
    while (e < src.size() && !(src[e] == '\n' && src[e - 1] != '\\')) ++e;
  }
  std::vector<std::string> out;
  for (std::size_t i = b; i < e && i < src.size();) {
    if (!IsWordChar(src[i])) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < e && j < src.size() && IsWordChar(src[j])) ++j;
    out.emplace_back(src.substr(i, j - i));
    i = j;
  }
  if (star) out.emplace_back("*");
  return out;
}

}  // namespace

std::vector<std::string> Reachability::StarSubmodules(const std::string& path,
                                                      const ImportStatement& s) {
  // `from pkg import *` also imports each submodule of pkg that its
  // __all__ names. Every direct submodule whose name is a word of pkg's
  // __init__ may be one; where __all__ is built otherwise than from string
  // literals (`__all__ = [n for n in ...]`, `__all__ += other.__all__`),
  // any may be.
  std::vector<std::string> out;
  const ModuleMap& mods = index_->modules();
  const std::string* me = mods.ModuleOf(path);
  if (me == nullptr) return out;
  auto base = ResolveRelative(*me, IsPackageInit(path), s.level, s.from_module);
  if (!base) return out;
  const std::string* init = mods.PathOf(*base);
  if (init == nullptr || !IsPackageInit(*init)) return out;
  const std::vector<std::size_t>& all = index_->Occurrences(*init, "__all__");
  if (all.empty()) return out;  // no __all__: the star imports no submodule
  bool any = false;
  for (std::size_t o : all) {
    const StatementTable* lines = index_->LinesBefore(*init, o);
    int k = lines == nullptr ? -1 : lines->IndexAt(o);
    if (k < 0) {
      any = lines == nullptr;  // unparsed: any may be named
      if (any) break;
      continue;
    }
    if (!lines->InCode(o)) continue;
    // What follows `__all__` in its statement: `= [...]`, `+= (...)`,
    // `.append('x')` or `.extend([...])` of string literals only.
    std::size_t sb = 0;
    std::string_view stmt = lines->StatementAt(k, o, &sb);
    std::size_t from = o + 7;
    std::size_t end = sb + stmt.size();
    std::string_view src = lines->src();
    std::size_t m = from;
    while (m < end && src[m] == ' ') ++m;
    if (src.substr(m, 7) == ".append" || src.substr(m, 7) == ".extend") from = m + 7;
    for (std::size_t c = from; c < end && !any; ++c) {
      any = IsWordChar(src[c]) && lines->InCode(c);  // a name or a call: computed
    }
    if (any) break;
  }
  std::string prefix = *base + ".";
  for (const std::string& m : mods.WithPrefix(prefix)) {
    std::string_view rest = std::string_view(m).substr(prefix.size());
    if (rest.find('.') != std::string_view::npos) continue;  // not a direct submodule
    if (any || !index_->Occurrences(*init, std::string(rest)).empty()) out.push_back(m);
  }
  return out;
}

void Reachability::Unreadable(const std::string& path) {
  opaque_.push_back(Evidence{path, 0, "the file could not be read or lexed"});
}

void Reachability::Scan(const std::string& path) {
  const std::string* outer = from_;
  from_ = &path;
  ScanFile(path);
  from_ = outer;
}

void Reachability::ScanFile(const std::string& path) {
  const std::string_view* bytes = index_->Bytes(path);
  if (bytes == nullptr) {
    Unreadable(path);
    return;
  }
  // `import` is a hard keyword: each time the word is code, it belongs to an
  // import statement. Most of a file's imports open it, at column 0: the
  // statements up to the last of those are parsed (LinesBefore), the rest
  // of the file only when an import there may name a module not reached
  // (ScanLater).
  const std::vector<std::size_t>& occ = index_->Occurrences(path, "import");
  std::size_t last_top = std::string_view::npos;
  for (std::size_t o : occ) {
    if (AtTopLevelImportLine(*bytes, o)) last_top = o;
  }
  const StatementTable* lines = nullptr;
  if (last_top != std::string_view::npos) {
    lines = index_->LinesBefore(path, last_top);
    if (lines == nullptr) {
      Unreadable(path);
      return;
    }
  }
  std::size_t covered = lines == nullptr ? 0 : lines->src().size();
  std::vector<std::size_t> later;
  std::size_t last_begin = std::string_view::npos;
  for (std::size_t o : occ) {
    if (o < covered) {
      ScanImport(path, *lines, o, &last_begin);
    } else {
      later.push_back(o);
    }
  }
  if (!later.empty()) {
    Later l{path, std::move(later), {}};
    for (std::size_t o : l.offsets) {
      for (std::string& w : ImportWords(*bytes, o)) l.words.insert(std::move(w));
    }
    later_.push_back(std::move(l));
  }
  ScanDynamic(path);
}

bool Reachability::ScanLater() {
  if (later_.empty()) return false;
  // A static import loads only the modules it names, and their packages.
  // To name a.b.m, an import holds the word `m`, and also `b` (`import
  // a.b.m`, `from a.b import m`, `from ..b.m import x`), unless it is
  // relative from a.b or a package under it (`from . import m`).
  struct Unreached {
    std::string parent_last, parent;
  };
  std::unordered_map<std::string, std::vector<Unreached>> unreached;  // by last name
  for (std::size_t i = 0; i < reached_.size(); ++i) {
    if (reached_[i] != 0) continue;
    const std::string* m = index_->modules().ModuleOf(index_->paths()[i]);
    if (m == nullptr || m->empty()) continue;
    std::size_t dot = m->rfind('.');
    Unreached u;
    if (dot != std::string::npos) {
      u.parent = m->substr(0, dot);
      u.parent_last = u.parent.substr(u.parent.rfind('.') + 1);
    }
    unreached[m->substr(dot + 1)].push_back(std::move(u));
  }
  auto may_name = [&](const Later& l) {
    if (l.words.count("*") != 0 && !unreached.empty()) return true;
    const std::string* me = index_->modules().ModuleOf(l.path);
    std::string package;
    if (me != nullptr) {
      std::size_t dot = me->rfind('.');
      package = IsPackageInit(l.path) ? *me : (dot == std::string::npos ? "" : me->substr(0, dot));
    }
    for (const std::string& w : l.words) {
      auto it = unreached.find(w);
      if (it == unreached.end()) continue;
      for (const Unreached& u : it->second) {
        if (u.parent.empty() || l.words.count(u.parent_last) != 0 || me == nullptr ||
            package == u.parent || package.rfind(u.parent + ".", 0) == 0) {
          return true;
        }
      }
    }
    return false;
  };
  bool any = false;
  std::vector<Later> keep;
  for (Later& l : later_) {
    if (!may_name(l)) {
      keep.push_back(std::move(l));
      continue;
    }
    any = true;
    const StatementTable* lines = index_->Lines(l.path);
    if (lines == nullptr) {
      Unreadable(l.path);
      continue;
    }
    std::size_t last_begin = std::string_view::npos;
    from_ = &l.path;
    for (std::size_t o : l.offsets) ScanImport(l.path, *lines, o, &last_begin);
    from_ = nullptr;
  }
  later_ = std::move(keep);
  return any;
}

void Reachability::ScanImport(const std::string& path, const StatementTable& table, std::size_t o,
                              std::size_t* last_begin) {
  const StatementTable* lines = &table;
  if (!lines->InCode(o)) return;
  int k = lines->IndexAt(o);
  if (k < 0) return;
  std::size_t begin = 0;
  std::string_view code = lines->StatementAt(k, o, &begin);
  if (begin == *last_begin) return;  // `from m import x`: one statement
  *last_begin = begin;
  if (!MayLoadTree(index_->modules(), code)) return;
  auto stmt = ParseImport(code);
  if (!stmt) {
    Evidence e = index_->At(path, k);
    e.what = "an import the analysis cannot read: " + e.what;
    opaque_.push_back(e);
    return;
  }
  std::vector<std::string> targets = Targets(path, *stmt);
  if (stmt->is_from && std::any_of(stmt->names.begin(), stmt->names.end(),
                                   [](const ImportedName& n) { return n.name == "*"; })) {
    for (std::string& m : StarSubmodules(path, *stmt)) targets.push_back(std::move(m));
  }
  if (targets.empty()) return;
  const LineGuard& g = index_->Guard(path, k);
  // On an `if` header's line, the statement is in that branch too.
  const LogicalLine& l = lines->lines()[static_cast<std::size_t>(k)];
  bool own_branch = begin > l.code && lines->Keyword(k) == "if";
  const ConditionResult* own = own_branch ? &index_->HeaderValueOf(path, k) : nullptr;
  if (g.value == Tri::kFalse || (own != nullptr && own->value == Tri::kFalse)) {
    BlockedImport b;
    b.why = "imported only where " + (g.value == Tri::kFalse ? g.why : own->why);
    b.evidence.push_back(index_->At(path, k));
    if (g.value == Tri::kFalse) {
      b.evidence.insert(b.evidence.end(), g.evidence.begin(), g.evidence.end());
    } else {
      b.evidence.insert(b.evidence.end(), own->evidence.begin(), own->evidence.end());
    }
    for (const std::string& t : targets) {
      if (const std::string* p = index_->modules().PathOf(t)) blocked_[*p].push_back(b);
    }
    return;
  }
  bool in_function = false;
  int unit = index_->OutermostUnit(path, k, &in_function);
  if (in_function) {
    deferred_.push_back(Deferred{path, k, unit, targets});
    return;
  }
  for (const std::string& t : targets) ReachWith(t, [&] { return index_->At(path, k); });
}

namespace {

// Whether the loader's name at `o` is, by the bytes around it alone, no
// load: `exec`, `eval`, `help`, `compile` and `breakpoint` are builtins,
// so `model.eval()` (an attribute) is a method; `help(x)` is the builtin,
// `help="..."` an argument's name.
bool SkippedByItsBytes(std::string_view src, std::size_t o, std::string_view fn) {
  bool builtin =
      fn == "exec" || fn == "eval" || fn == "help" || fn == "compile" || fn == "breakpoint";
  if (builtin && o > 0 && src[o - 1] == '.') return true;
  if (fn != "help") return false;
  std::size_t open = o + fn.size();
  while (open < src.size() && src[open] == ' ') ++open;
  return open >= src.size() || src[open] != '(';
}

// The calls that load code other than by an import statement. The first
// two take a module's name, which the analysis may follow; the others run
// code from a file, a spec or a string, which may import anything (the
// loaders of importlib.util and importlib.machinery, runpy, imp, and the
// builtins exec and eval): their argument is never followed, so a dead
// verdict needs them declared (`dynamic-imports:`, `imports-nothing:`).
constexpr const char* kLoaders[] = {
    "import_module", "__import__", "spec_from_file_location", "spec_from_loader", "exec_module",
    "load_module", "SourceFileLoader", "SourcelessFileLoader", "run_path", "run_module",
    "load_source", "load_compiled", "exec", "eval", "_gcd_import",
    // A code object compiled from a file and called (`FunctionType(compile(
    // src, path, "exec"), ns)()`), and the C API through ctypes
    // (`ctypes.pythonapi.PyImport_ImportModule`, `PyRun_SimpleString`).
    "compile", "pythonapi",
    // The standard library's other loaders by
    // name or of code in a string: pkgutil,
    // pydoc, profile/cProfile, code.
    "resolve_name", "runctx", "runsource", "runcode", "InteractiveInterpreter",
    "InteractiveConsole",
    // unittest, doctest, pydoc, warnings,
    // logging.config's resolvers, the
    // debuggers and profilers (their run
    // methods), importlib's find_spec (it
    // imports the parents), pkgutil's; help()
    // imports a module it is given by name.
    "loadTestsFromName", "loadTestsFromNames", "DocTestSuite", "safeimport", "render_doc",
    "_setoption", "BaseConfigurator", "DictConfigurator", "get_loader", "find_spec", "Bdb", "Pdb",
    "Profile", "help",
    // doctest's runners of docstrings and files, unittest's discovery,
    // pydoc's importfile, site's .pth reader, logging's file
    // configuration, and breakpoint() (PYTHONBREAKPOINT names a callable
    // to import).
    "run_docstring_examples", "testmod", "testfile", "DocFileSuite", "discover", "importfile",
    "addsitedir", "fileConfig", "breakpoint"};

// Loaders whose name alone is a common word: a load only as an attribute
// of their module (`pydoc.locate(...)`, `mock.patch(...)`) or imported
// from it (`from pydoc import locate`).
struct QualifiedLoader {
  const char* module;
  const char* fn;
};
constexpr QualifiedLoader kQualifiedLoaders[] = {{"pydoc", "locate"},
                                                 {"timeit", "timeit"},
                                                 {"timeit", "repeat"},
                                                 {"timeit", "Timer"},
                                                 {"cProfile", "run"},
                                                 {"profile", "run"},
                                                 {"pdb", "run"},
                                                 {"pdb", "runeval"},
                                                 {"mock", "patch"},
                                                 {"code", "interact"},
                                                 {"trace", "run"},
                                                 {"trace", "runctx"},
                                                 {"trace", "Trace"},
                                                 {"unittest", "main"},
                                                 {"pkgutil", "get_data"},
                                                 {"resources", "files"},
                                                 {"resources", "read_text"},
                                                 {"resources", "open_text"},
                                                 {"resources", "read_binary"},
                                                 {"resources", "open_binary"},
                                                 {"resources", "path"},
                                                 {"resources", "contents"},
                                                 {"resources", "is_resource"}};

// Whether `fn` takes an object's dotted name (`pkg.mod.attr`, `pkg.mod:attr`).
bool TakesDottedName(std::string_view fn) {
  return fn == "resolve_name" || fn == "locate" || fn == "patch" || fn == "find_spec" ||
         fn == "get_loader";
}

// What a dotted name's loader may import: any module under the name less
// its last part (`mock.patch('multiprocessing.resource_tracker.register')`
// imports from multiprocessing.resource_tracker).
DynamicImportArgument DottedTarget(DynamicImportArgument arg) {
  // A relative name (`find_spec('._C', 'vllm')`) resolves as import_module's.
  if (arg.kind != DynamicImportArgument::Kind::kLiteral || arg.value.empty() ||
      arg.value[0] == '.') {
    return arg;
  }
  std::size_t cut = arg.value.find(':');
  if (cut == std::string::npos) cut = arg.value.rfind('.');
  if (cut != std::string::npos) arg.value = arg.value.substr(0, cut);
  arg.kind = DynamicImportArgument::Kind::kPrefix;
  return arg;
}

// Whether `fn` takes a module's name (its argument may be followed).
bool TakesModuleName(std::string_view fn) {
  return fn == "import_module" || fn == "__import__" || fn == "_gcd_import";
}

// Whether `__import__`'s arguments `args` give a fromlist (`fromlist=`, or
// a fourth argument): each of its names may be a submodule, imported too.
bool GivesFromlist(std::string_view args) {
  if (args.find("fromlist") != std::string_view::npos) return true;
  int depth = 0;
  int commas = 0;
  char quote = 0;
  for (char c : args) {
    if (quote != 0) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"') quote = c;
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (c == ',' && depth == 0) ++commas;
  }
  return commas >= 3;
}

// What `__import__(NAME, ..., fromlist)` may load: NAME, and any module
// under it (the fromlist's names are not followed).
DynamicImportArgument WithFromlist(DynamicImportArgument arg) {
  if (arg.kind == DynamicImportArgument::Kind::kLiteral && !arg.value.empty() &&
      arg.value[0] != '.' && arg.package.empty()) {
    arg.value += ".";
    arg.kind = DynamicImportArgument::Kind::kPrefix;
  } else if (arg.kind != DynamicImportArgument::Kind::kPrefix || !arg.package.empty()) {
    arg.kind = DynamicImportArgument::Kind::kOpaque;
  }
  return arg;
}

}  // namespace

template <class OnCall>
bool Reachability::ForEachQualifiedCall(const std::string& path, std::string_view module,
                                        std::string_view fn, OnCall&& on_call) {
  std::string fn_word(fn);
  const std::vector<std::size_t>& occ = index_->Occurrences(path, fn_word);
  if (occ.empty() || index_->Occurrences(path, std::string(module)).empty()) return true;
  const std::string_view* bytes = index_->Bytes(path);
  if (bytes == nullptr) return false;
  std::string_view src = *bytes;
  // The qualifiers the module goes by (`import subprocess as sp`), and
  // whether the function is imported by its own name (`from subprocess
  // import run`) or another (`... import run as go`, followed as `go`).
  std::set<std::string> qualifiers = {std::string(module)};
  std::set<std::string> bare;
  for (std::size_t o : index_->Occurrences(path, std::string(module))) {
    std::size_t eol = src.find('\n', o);
    std::string_view line = src.substr(o, eol == std::string_view::npos ? eol : eol - o);
    std::size_t bol = src.rfind('\n', o);
    std::string_view lead = Trim(src.substr(bol == std::string_view::npos ? 0 : bol + 1,
                                            o - (bol == std::string_view::npos ? 0 : bol + 1)));
    std::string_view rest = Trim(line.substr(module.size()));
    if (lead == "import" && rest.rfind("as ", 0) == 0) {
      std::string_view alias = Trim(rest.substr(3));
      std::size_t e = 0;
      while (e < alias.size() && IsWordChar(alias[e])) ++e;
      if (e > 0) qualifiers.insert(std::string(alias.substr(0, e)));
    }
    if (lead == "from" && rest.rfind("import", 0) == 0) {
      std::string_view names = rest.substr(6);
      for (std::size_t i = names.find(fn); i != std::string_view::npos; i = names.find(fn, i + 1)) {
        bool left = i == 0 || !IsWordChar(names[i - 1]);
        std::size_t e = i + fn.size();
        if (!left || (e < names.size() && IsWordChar(names[e]))) continue;
        std::string_view after = Trim(names.substr(e));
        if (after.rfind("as ", 0) == 0) {
          std::string_view alias = Trim(after.substr(3));
          std::size_t a = 0;
          while (a < alias.size() && IsWordChar(alias[a])) ++a;
          if (a > 0) bare.insert(std::string(alias.substr(0, a)));
        } else {
          bare.insert(fn_word);
        }
      }
    }
  }
  auto visit = [&](const std::string& word, bool need_qualifier) {
    for (std::size_t o : index_->Occurrences(path, word)) {
      bool qualified = false;
      for (const std::string& q : qualifiers) {
        qualified = qualified || (o > q.size() && src[o - 1] == '.' &&
                                  src.substr(o - q.size() - 1, q.size()) == q &&
                                  (o == q.size() + 1 || !IsWordChar(src[o - q.size() - 2])));
      }
      if (need_qualifier && !qualified) continue;
      if (!need_qualifier && o > 0 && src[o - 1] == '.') continue;
      const StatementTable* lines = index_->LinesBefore(path, o);
      if (lines == nullptr) {
        Unreadable(path);
        return false;
      }
      int k = lines->IndexAt(o);
      if (k < 0 || !lines->InCode(o)) continue;
      std::string_view kw = lines->Keyword(k);
      if (kw == "import" || kw == "from" || kw == "def") continue;
      std::size_t open = o + word.size();
      while (open < src.size() && src[open] == ' ') ++open;
      on_call(*lines, k, open);
    }
    return true;
  };
  if (!visit(fn_word, true)) return false;
  for (const std::string& b : bare) {
    if (!visit(b, false)) return false;
  }
  return true;
}

void Reachability::ScanDynamic(const std::string& path) {
  for (const char* fn : kLoaders) {
    const std::vector<std::size_t>& occ = index_->Occurrences(path, fn);
    if (occ.empty()) continue;
    // `model.eval()`, `torch.compile(...)`, `help="..."`: skipped below
    // whatever the parse says, so a file holding only such needs none.
    const std::string_view* bytes = index_->Bytes(path);
    if (bytes != nullptr && std::none_of(occ.begin(), occ.end(), [&](std::size_t o) {
          return !SkippedByItsBytes(*bytes, o, fn);
        })) {
      continue;
    }
    const StatementTable* table = index_->Lines(path);
    if (table == nullptr) {
      Unreadable(path);
      return;
    }
    const StatementTable& lines = *table;
    std::string_view src = lines.src();
    for (std::size_t o : occ) {
      if (!lines.InCode(o) || SkippedByItsBytes(src, o, fn)) continue;
      std::size_t open = o + std::char_traits<char>::length(fn);
      while (open < src.size() && src[open] == ' ') ++open;
      bool call = open < src.size() && src[open] == '(';
      int k = lines.IndexAt(o);
      // A def of a function by that name loads nothing. An import of the
      // loader binds its name, whose calls are found by the word, unless it
      // binds another (`import_module as load`); a loader taken as a value
      // (`load = importlib.import_module`) may be called by any name: both
      // are loads whose argument is never seen.
      std::string_view stmt = lines.StatementAt(k, o);
      std::string_view kw = stmt.substr(0, stmt.find_first_of(" \t("));
      // `def import_module(...)` defines one; a default argument of a def
      // (`def g(m=import_module(n))`) runs where the def statement does.
      std::size_t before = o;
      while (before > 0 && (src[before - 1] == ' ' || src[before - 1] == '\t')) --before;
      if (before >= 3 && src.substr(before - 3, 3) == "def" &&
          (before == 3 || !IsWordChar(src[before - 4]))) {
        continue;
      }
      if (kw == "import" || kw == "from") {
        bool alias =
            src.substr(open, 2) == "as" && (open + 2 >= src.size() || !IsWordChar(src[open + 2]));
        if (!alias) continue;
        call = false;
      }
      DynamicImportArgument arg;  // kOpaque: never followed
      if (call && TakesModuleName(fn)) {
        std::string_view args = Arguments(lines, open);
        arg = ClassifyImportArgument(args);
        if (std::string_view(fn) == "__import__" && GivesFromlist(args)) arg = WithFromlist(arg);
      }
      if (call && TakesDottedName(fn))
        arg = DottedTarget(ClassifyImportArgument(Arguments(lines, open)));
      AddDynamic(path, k, arg);
    }
  }
  for (const QualifiedLoader& l : kQualifiedLoaders) {
    bool readable = ForEachQualifiedCall(
        path, l.module, l.fn, [&](const StatementTable& lines, int k, std::size_t open) {
          DynamicImportArgument arg;  // kOpaque: never followed
          if (open < lines.src().size() && lines.src()[open] == '(' && TakesDottedName(l.fn)) {
            arg = DottedTarget(ClassifyImportArgument(Arguments(lines, open)));
          }
          AddDynamic(path, k, arg);
        });
    if (!readable) return;
  }
  ScanChildInterpreters(path);
  ScanProcessLaunches(path);
  ScanImportPath(path);
  ScanLoaderModules(path);
}

void Reachability::ScanChildInterpreters(const std::string& path) {
  // A child interpreter (`subprocess.run([sys.executable, ...])`) runs tree
  // code too: `-m "literal"` that module (followed as an import of it),
  // `__file__` this file (run already), anything else a load whose target
  // is not seen.
  const std::vector<std::size_t>& occ = index_->Occurrences(path, "executable");
  if (occ.empty()) return;
  const std::string_view* bytes = index_->Bytes(path);
  if (bytes == nullptr) return;
  std::string_view src = *bytes;
  for (std::size_t o : occ) {
    if (o < 4 || src.substr(o - 4, 4) != "sys.") continue;
    const StatementTable* lines = index_->LinesBefore(path, o);
    if (lines == nullptr) {
      Unreadable(path);
      return;
    }
    int k = lines->IndexAt(o);
    if (k < 0 || !lines->InCode(o)) continue;
    // What follows `sys.executable,` in the statement.
    std::size_t begin = 0;
    std::string_view stmt = lines->StatementAt(k, o, &begin);
    std::size_t at = o + std::strlen("executable") - begin;
    std::string_view rest = at <= stmt.size() ? stmt.substr(at) : std::string_view{};
    auto next = [&rest]() {
      while (!rest.empty() &&
             (rest.front() == ',' || std::isspace(static_cast<unsigned char>(rest.front())) != 0)) {
        rest.remove_prefix(1);
      }
      std::size_t end = rest.find_first_of(",])");
      std::string_view token = Trim(rest.substr(0, end));
      rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end);
      return token;
    };
    std::string_view first = next();
    if (first == "__file__") continue;
    DynamicImportArgument arg;  // kOpaque
    if (StringLiteralValue(first) == std::optional<std::string>("-m")) {
      std::optional<std::string> module = StringLiteralValue(next());
      if (module && !module->empty() && (*module)[0] != '.') {
        arg.kind = DynamicImportArgument::Kind::kLiteral;
        arg.value = *module;
      }
    }
    AddDynamic(path, k, arg);
  }
}

void Reachability::ScanProcessLaunches(const std::string& path) {
  // Any other process the code starts may be a Python interpreter running
  // tree code: only a command written out, whose program is no
  // interpreter, shell or launcher, is none (process_launch.h).
  std::size_t n = 0;
  const ProcessLauncher* launchers = ProcessLaunchers(&n);
  for (std::size_t i = 0; i < n; ++i) {
    const ProcessLauncher& l = launchers[i];
    bool readable = ForEachQualifiedCall(
        path, l.module, l.fn, [&](const StatementTable& lines, int k, std::size_t open) {
          std::string_view src = lines.src();
          bool call = open < src.size() && src[open] == '(';
          ChildProcess child = call ? ClassifyLaunch(l.fn, Arguments(lines, open))
                                    : ChildProcess{};  // taken as a value: opaque
          DynamicImportArgument arg;                   // kOpaque
          switch (child.kind) {
            case ChildProcess::Kind::kNotPython:
            case ChildProcess::Kind::kSysExecutable:
              return;
            case ChildProcess::Kind::kModule:
              arg.kind = DynamicImportArgument::Kind::kLiteral;
              arg.value = child.module;
              break;
            case ChildProcess::Kind::kOpaque:
              break;
          }
          AddDynamic(path, k, arg);
        });
    if (!readable) return;
  }
}

void Reachability::AddDynamic(const std::string& path, int k, const DynamicImportArgument& arg) {
  if (index_->Guard(path, k).value == Tri::kFalse || index_->AfterExit(path, k)) return;
  bool in_function = false;
  int unit = index_->OutermostUnit(path, k, &in_function);
  for (const DeclaredFact& f : index_->facts().declared) {
    if (f.kind == DeclaredFact::Kind::kImportsNothing && f.path == path && unit >= 0 &&
        f.callee == index_->DefinedName(path, unit)) {
      return;
    }
  }
  std::string name = unit >= 0 ? index_->DefinedName(path, unit) : "";
  const DeclaredDynamicImport* loads = nullptr;
  for (const DeclaredDynamicImport& d : index_->facts().dynamic_imports) {
    if (d.path == path && d.function == name) loads = &d;
  }
  if (loads != nullptr) used_.insert(loads);
  declare_at_[{path, index_->At(path, k).line}] = name.empty() ? path : path + ":" + name;
  dynamic_.push_back(Dynamic{path, k, in_function ? unit : -1, arg, loads});
}

bool Reachability::LoadAtWord(const std::string& path, std::size_t o) {
  const StatementTable* lines = index_->LinesBefore(path, o);
  if (lines == nullptr) {
    Unreadable(path);
    return false;
  }
  int k = lines->IndexAt(o);
  if (k < 0 || !lines->InCode(o)) return true;
  std::string_view kw = lines->Keyword(k);
  if (kw != "import" && kw != "from" && kw != "def") AddDynamic(path, k, DynamicImportArgument{});
  return true;
}

void Reachability::ScanLoaderModules(const std::string& path) {
  // The modules that hold the loaders, taken as values or searched by a
  // computed name (`getattr(importlib, n)`, `vars(builtins)[n]`,
  // `importlib.__dict__`): any loader may then be called by a name no word
  // of the code spells. An attribute read (`importlib.util`) is none.
  const std::string_view* bytes = index_->Bytes(path);
  if (bytes == nullptr) return;
  std::string_view src = *bytes;
  for (const char* word : {"importlib", "builtins", "__builtins__", "runpy", "imp"}) {
    for (std::size_t o : index_->Occurrences(path, word)) {
      std::size_t a = o + std::char_traits<char>::length(word);
      while (a < src.size() && (src[a] == ' ' || src[a] == '\t')) ++a;
      if (a < src.size() && src[a] == '.') {
        std::size_t m = a + 1;
        while (m < src.size() && src[m] == ' ') ++m;
        if (src.substr(m, 8) != "__dict__" && src.substr(m, 16) != "__getattribute__") continue;
      }
      if (!LoadAtWord(path, o)) return;
    }
  }
}

void Reachability::ScanImportPath(const std::string& path) {
  // Where imports look for modules, changed at run time: a static import of
  // a name outside the tree may then load a file of the tree (under another
  // name), so the change is a load whose argument is never seen.
  // `sys.path` is found by its bytes first: `path` is a common word.
  const std::string_view* bytes = index_->Bytes(path);
  if (bytes == nullptr) return;
  std::string_view src = *bytes;
  for (const char* word : {"path", "__path__", "meta_path", "path_hooks"}) {
    bool sys_path = std::string_view(word) == "path";
    for (std::size_t o : index_->Occurrences(path, word)) {
      if (sys_path) {
        // `from sys import path`: the list under another name, which any
        // statement may change.
        std::size_t line_start = src.rfind('\n', o);
        line_start = line_start == std::string_view::npos ? 0 : line_start + 1;
        std::string_view head = Trim(src.substr(line_start, o - line_start));
        if (head.rfind("from sys import", 0) == 0) {
          const StatementTable* lines = index_->LinesBefore(path, o);
          if (lines == nullptr) {
            Unreadable(path);
            return;
          }
          int k = lines->IndexAt(o);
          if (k >= 0 && lines->InCode(o)) AddDynamic(path, k, DynamicImportArgument{});
          continue;
        }
        if (o < 4 || src.substr(o - 4, 4) != "sys.") continue;
        std::size_t a = o + 4;
        while (a < src.size() && src[a] == ' ') ++a;
        std::string_view next = src.substr(a, 8);
        // Closed world: only a read of it changes nothing; taken as a
        // value (`p = sys.path`, an argument) it may be changed anywhere.
        bool reads = next.substr(0, 7) == ".count(" || next.substr(0, 7) == ".index(" ||
                     next.substr(0, 2) == "==" || next.substr(0, 2) == "!=" ||
                     next.substr(0, 6) == ".copy(";
        // `x in sys.path`, `for p in sys.path`, or an argument of a
        // builtin that only reads it (`print(sys.path)`, `list(...)`).
        std::size_t b = o - 4;
        while (b > 0 && src[b - 1] == ' ') --b;
        std::string_view before = src.substr(b >= 8 ? b - 8 : 0, b >= 8 ? 8 : b);
        auto ends = [&](std::string_view w) {
          return before.size() >= w.size() && before.substr(before.size() - w.size()) == w &&
                 (before.size() == w.size() || !IsWordChar(before[before.size() - w.size() - 1]));
        };
        for (std::string_view w :
             {"in", "print(", "len(", "list(", "tuple(", "str(", "repr(", "sorted(", "set("}) {
          reads = reads || ends(w);
        }
        if (reads) continue;
      }
      if (!LoadAtWord(path, o)) return;
    }
  }
}

const std::vector<std::string>& Reachability::LiteralsAssignedTo(const std::string& path,
                                                                 const std::string& name) {
  // Most files lack the name: their answer needs no key made nor kept.
  static const std::vector<std::string> kNone;
  const std::vector<std::size_t>& occ = index_->Occurrences(path, name);
  if (occ.empty()) return kNone;
  auto key = std::make_pair(path, name);
  auto it = literals_.find(key);
  if (it != literals_.end()) return it->second;
  std::vector<std::string> out;
  const StatementTable* lines = index_->Lines(path);
  for (std::size_t o : occ) {
    if (lines == nullptr || !lines->InCode(o)) continue;
    std::string_view src = lines->src();
    std::size_t i = o + name.size();
    while (i < src.size() && src[i] == ' ') ++i;
    if (i + 1 >= src.size() || src[i] != '=' || src[i + 1] == '=') continue;
    int k = lines->IndexAt(o);
    if (k < 0 || index_->Guard(path, k).value == Tri::kFalse || index_->AfterExit(path, k)) {
      continue;
    }
    ++i;
    std::size_t eol = src.find('\n', i);
    std::string_view rest = src.substr(i, (eol == std::string_view::npos ? src.size() : eol) - i);
    while (!rest.empty() && (rest.back() == ',' || rest.back() == ')' || rest.back() == '\r' ||
                             rest.back() == ' ')) {
      rest.remove_suffix(1);
    }
    if (auto v = StringLiteralValue(rest)) {
      out.push_back(*v);
    } else if (auto prefix = StringLiteralValue(rest, true)) {
      if (!prefix->empty()) out.push_back(*prefix + "*");
    }
  }
  return literals_.emplace(key, std::move(out)).first->second;
}

}  // namespace muh
