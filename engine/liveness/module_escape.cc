#include "engine/liveness/module_escape.h"

#include <string_view>
#include <vector>

#include "engine/base/text.h"
#include "engine/liveness/module_names.h"
#include "engine/liveness/py_imports.h"

namespace muh {

namespace {

// Whether the package `package`'s `__init__` rebinds its attribute `name`,
// at its top level, to what its submodule of that name holds by the same
// name (`from .fused_moe import fused_moe`): then `from package import name`
// gets that object, not the submodule's. Read lexically, from the top-level
// from-imports of the package's own file.
bool InitShadows(TreeIndex* index, const std::string& package, const std::string& name) {
  const std::string* init = index->modules().PathOf(package);
  if (init == nullptr || !IsPackageInit(*init)) return false;
  const std::vector<std::size_t>& occ = index->Occurrences(*init, name);
  if (occ.empty()) return false;
  const StatementTable* lines = index->LinesBefore(*init, occ.back());
  if (lines == nullptr) return false;
  for (std::size_t o : occ) {
    int j = lines->IndexAt(o);
    if (j < 0 || !lines->InCode(o) || lines->lines()[static_cast<std::size_t>(j)].parent != -1 ||
        lines->Keyword(j) != "from") {
      continue;
    }
    auto stmt = ParseImport(lines->Code(j));
    if (!stmt) continue;
    auto from = ResolveRelative(package, true, stmt->level, stmt->from_module);
    if (!from || *from != package + "." + name) continue;
    for (const ImportedName& n : stmt->names) {
      if ((n.alias.empty() && n.name == name) || n.alias == name) return true;
    }
  }
  return false;
}

// The names an import statement in `q` binds to the object of `module`: an
// alias, the module's last name (`from a import M`), or its whole dotted
// name (`import a.M`, used as `a.M`).
std::vector<std::string> Bindings(TreeIndex* index, const std::string& q,
                                  const ImportStatement& stmt, const std::string& module) {
  const ModuleMap& modules = index->modules();
  std::vector<std::string> out;
  for (const ImportedName& n : stmt.names) {
    std::string target = n.name;
    if (stmt.is_from) {
      const std::string* me = modules.ModuleOf(q);
      if (me == nullptr) continue;
      auto from = ResolveRelative(*me, IsPackageInit(q), stmt.level, stmt.from_module);
      if (!from) continue;
      target = from->empty() ? n.name : *from + "." + n.name;
      // `from pkg import M` where pkg's __init__ rebinds M.
      if (target == module && !from->empty() && InitShadows(index, *from, n.name)) continue;
    }
    if (target != module) continue;
    if (!n.alias.empty()) {
      out.push_back(n.alias);
    } else {
      out.push_back(stmt.is_from ? n.name : target);
    }
  }
  return out;
}

// Whether the use of `bound` ending at `end` in `src` is an attribute
// access that keeps the module's object where it is.
bool AttributeAccess(std::string_view src, std::size_t end) {
  while (end < src.size() && (src[end] == ' ' || src[end] == '\t')) ++end;
  if (end >= src.size() || src[end] != '.') return false;
  std::size_t a = end + 1;
  while (a < src.size() && (src[a] == ' ' || src[a] == '\t')) ++a;
  std::string_view attr = src.substr(a, 16);
  return attr.substr(0, 8) != "__dict__" && attr.substr(0, 16) != "__getattribute__";
}

// The first use in `q` of a binding of `module`'s object other than by
// attribute access.
std::optional<Evidence> EscapeIn(TreeIndex* index, const std::string& q, const std::string& module,
                                 const std::string& last) {
  // Only the statements holding the words asked about are parsed: the
  // imports of the module, then each use that is no attribute access.
  const std::string_view* bytes = index->Bytes(q);
  if (bytes == nullptr) return std::nullopt;
  std::string_view src = *bytes;
  // An import binds the module's object by a name that ends the module's
  // path: `last` followed by `as`, a comma, a bracket, the statement's end
  // or a comment, never by `.` (a submodule) or anything else.
  std::vector<std::size_t> imports;
  for (std::size_t o : index->Occurrences(q, last)) {
    std::size_t a = o + last.size();
    while (a < src.size() && (src[a] == ' ' || src[a] == '\t')) ++a;
    if (a >= src.size() || std::string_view(",);#\n\\").find(src[a]) != std::string_view::npos ||
        (src.substr(a, 2) == "as" && (a + 2 >= src.size() || !IsWordChar(src[a + 2])))) {
      imports.push_back(o);
    }
  }
  if (imports.empty()) return std::nullopt;
  const StatementTable* lines = index->LinesBefore(q, imports.back());
  if (lines == nullptr) return std::nullopt;
  // The bindings first: every import in q that names the module.
  std::vector<std::string> bound;
  for (std::size_t o : imports) {
    int j = lines->IndexAt(o);
    if (j < 0 || !lines->InCode(o)) continue;
    std::string_view kw = lines->Keyword(j);
    if (kw != "import" && kw != "from") continue;
    if (auto stmt = ParseImport(lines->Code(j))) {
      for (std::string& b : Bindings(index, q, *stmt, module)) {
        bound.push_back(std::move(b));
      }
    }
  }
  for (const std::string& b : bound) {
    // A dotted binding (`a.M`) is found by its last name, preceded by the rest.
    std::string word = b.substr(b.rfind('.') + 1);
    std::string prefix = b.substr(0, b.size() - word.size());
    for (std::size_t o : index->Occurrences(q, word)) {
      if (!prefix.empty() &&
          (o < prefix.size() || src.substr(o - prefix.size(), prefix.size()) != prefix)) {
        continue;
      }
      std::size_t start = o - prefix.size();
      if (start > 0 && src[start - 1] == '.') continue;  // another object's attribute
      if (AttributeAccess(src, o + word.size())) continue;
      const StatementTable* at = index->LinesBefore(q, o);
      if (at == nullptr) return std::nullopt;
      int j = at->IndexAt(o);
      if (j < 0 || !at->InCode(o)) continue;
      std::string_view kw = at->Keyword(j);
      if (kw == "import" || kw == "from") continue;
      Evidence e = index->At(q, j);
      e.what = "the module object " + module + " is used as a value (" + b +
               "), and code may reach its names by one built at run time: " + e.what;
      return e;
    }
  }
  return std::nullopt;
}

// Whether line `k` lies inside a def or lambda's body.
bool InsideDef(const StatementTable& lines, int k) {
  if (k < 0) return false;
  const std::vector<LogicalLine>& ls = lines.lines();
  for (int p = ls[static_cast<std::size_t>(k)].parent; p >= 0;
       p = ls[static_cast<std::size_t>(p)].parent) {
    std::string_view kw = lines.Keyword(p);
    if (kw == "def" || kw == "async") return true;
  }
  return false;
}

}  // namespace

std::optional<Evidence> ModuleEscape(TreeIndex* index,
                                     const std::function<bool(const std::string&)>& reached,
                                     const std::string& path) {
  const std::string* module = index->modules().ModuleOf(path);
  if (module == nullptr || module->empty()) return std::nullopt;
  // The module's own namespace taken as a value: globals(), a bare vars(),
  // sys.modules[__name__].
  if (const std::string_view* bytes = index->Bytes(path)) {
    std::string_view src = *bytes;
    for (const char* word : {"globals", "vars", "locals", "__name__"}) {
      for (std::size_t o : index->Occurrences(path, word)) {
        std::size_t a = o + std::string_view(word).size();
        std::string_view next = src.substr(a, 2);
        bool local = word == std::string_view("locals");
        bool taken = word == std::string_view("globals") ||
                     ((word == std::string_view("vars") || local) && next == "()") ||
                     (word == std::string_view("__name__") && next.substr(0, 1) == "]" && o >= 12 &&
                      src.substr(o - 12, 12) == "sys.modules[");
        if (!taken) continue;
        const StatementTable* own = index->LinesBefore(path, o);
        if (own == nullptr) break;  // unparsed: as before, no claim from this file
        if (!own->InCode(o)) continue;
        // A bare locals() is the module's namespace only outside any def.
        if (local && InsideDef(*own, own->IndexAt(o))) continue;
        Evidence e = index->At(path, own->IndexAt(o));
        e.what = "the namespace of " + *module + " is taken as a value (" + word +
                 "), and code may reach its names by one built at run time: " + e.what;
        return e;
      }
    }
  }
  // Any module's object reached by a name: a function's `__globals__`, a
  // frame's `f_globals`,
  // `inspect.getmodule(...)`, `sys.modules` asked by a key other than a
  // literal naming another module (`sys.modules.get(__name__)`,
  // `sys.modules[f.__module__]`), anywhere that runs.
  for (const std::string& q : index->paths()) {
    if (!reached(q)) continue;
    const std::string_view* bytes = nullptr;
    for (const char* word : {"__globals__", "f_globals", "getmodule", "modules"}) {
      for (std::size_t o : index->Occurrences(q, word)) {
        if (bytes == nullptr) bytes = index->Bytes(q);
        if (bytes == nullptr) break;
        std::string_view src = *bytes;
        if (word == std::string_view("modules")) {
          // `sys.modules`, or `modules` where the file imports it from sys
          // (`from sys import modules`: a helper probe of d751784).
          // `import sys as S`: any `.modules` of the file may be S's; `from
          // sys import modules as m`: the import itself is the escape (a
          // review of 71b4731).
          bool dotted = o >= 4 && src.substr(o - 4, 4) == "sys.";
          bool aliased =
              o > 0 && src[o - 1] == '.' && src.find("import sys as") != std::string_view::npos;
          bool bare = (o == 0 || (src[o - 1] != '.' && !IsWordChar(src[o - 1]))) &&
                      src.find("from sys import") != std::string_view::npos;
          bool renamed = bare && src.substr(o + 7, 4) == " as ";
          if (!dotted && !aliased && !bare) continue;
          if (renamed) {
            const StatementTable* at = index->LinesBefore(q, o);
            if (at == nullptr) return Evidence{q, 0, "the file could not be read or parsed"};
            Evidence e = index->At(q, at->IndexAt(o));
            e.what = "sys.modules is bound to another name, so code may reach the names of " +
                     *module + " by one built at run time: " + e.what;
            return e;
          }
          // `sys.modules["other.module"]`: that module, not this one; in
          // another file, `sys.modules[__name__]` (or `.get(__name__)`)
          // is that file's own.
          std::size_t a = o + 7;
          std::size_t key = src.substr(a, 1) == "["       ? a + 1
                            : src.substr(a, 5) == ".get(" ? a + 5
                                                          : 0;
          if (key != 0) {
            std::size_t end = src.find_first_of("],)", key);
            std::string_view k =
                Trim(src.substr(key, end == std::string_view::npos ? 0 : end - key));
            auto literal = StringLiteralValue(k);
            if (literal && *literal != *module) continue;
            if (k == "__name__" && q != path) continue;
          }
        }
        const StatementTable* at = index->LinesBefore(q, o);
        if (at == nullptr) return Evidence{q, 0, "the file could not be read or parsed"};
        if (!at->InCode(o)) continue;
        int j = at->IndexAt(o);
        if (j < 0 || at->Keyword(j) == "import" || at->Keyword(j) == "from") continue;
        Evidence e = index->At(q, j);
        e.what = std::string("a module's object is reached by a name (") + word +
                 "), so code may reach the names of " + *module +
                 " by one built at run time: " + e.what;
        return e;
      }
    }
  }
  std::string last = module->substr(module->rfind('.') + 1);
  for (const std::string& q : index->paths()) {
    if (!reached(q)) continue;
    if (index->Occurrences(q, last).empty()) continue;
    bool lexed = index->Lexed(q);
    std::optional<Evidence> found = EscapeIn(index, q, *module, last);
    if (!lexed) index->Drop(q);  // one file at a time over a large tree
    if (found) return found;
  }
  return std::nullopt;
}

}  // namespace muh
