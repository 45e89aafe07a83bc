// Which modules run when the entry module is imported: the closure of the
// tree's imports at any level, module-level or function-local, relative or
// absolute, plus each imported module's packages. An import under a branch
// never taken (a constant flag, a platform, a compute capability) is not
// followed; a function-local import is followed once something that runs
// refers to its def or class (references.h). `importlib.import_module` and
// `__import__` are followed when their argument is a literal, an f-string
// or concatenation with a literal prefix (every module under it), or a
// name to which the tree assigns literals somewhere, or when the rule
// file's `dynamic-imports:` declares what the def holding them loads;
// any other argument leaves the result open: a module not reached may
// still be loaded. A file's imports up to its last one at column 0 are read
// from the parse of that prefix; the others, from the whole file's parse,
// only once nothing else reaches a module and one of them may name a module
// not reached (a static import loads only what it names).
#pragma once

#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "engine/liveness/references.h"
#include "engine/liveness/tree_index.h"

namespace muh {

// An import of a module that a reached module holds but never executes.
struct BlockedImport {
  std::string why;
  std::vector<Evidence> evidence;  // the import line first
};

// Why a reached module may not run after all: it is reached through an
// import whose running is not known (one inside a def or class that
// something reached may or may not use, a file that cannot be parsed
// deciding it), or from a module reached that way.
struct ReachDoubt {
  std::string why;
  std::vector<Evidence> evidence;
};

class Reachability {
 public:
  static Reachability Run(TreeIndex* index);

  bool entry_found() const { return entry_found_; }
  bool Reached(const std::string& path) const;
  // The import that first reached `path` (empty for the entry and packages above it).
  const Evidence* Via(const std::string& path) const;
  // Why `path`, reached, may not run; nullptr when reached for certain (or
  // not reached). A site there is unknown, not live.
  const ReachDoubt* Doubted(const std::string& path) const;
  // Imports of `path` in reached modules that never run.
  const std::vector<BlockedImport>* Blocked(const std::string& path) const;
  // Dynamic imports the analysis could not follow, in reached modules.
  const std::vector<Evidence>& opaque() const { return opaque_; }
  // For a dynamic import of opaque(): the `at:` of the `dynamic-imports:`
  // entry that would declare what it loads (FILE:FUNCTION, or FILE for
  // one at module level); empty for anything else.
  std::string DeclarationFor(const Evidence& e) const;
  // Whether the `dynamic-imports:` entry `d` (of the facts) declared a
  // dynamic import of reached code.
  bool Used(const DeclaredDynamicImport& d) const { return used_.count(&d) != 0; }
  std::size_t reached_count() const { return reached_count_; }
  // The tree modules an import statement of `path` loads.
  std::vector<std::string> Targets(const std::string& path, const ImportStatement& s) const;

 private:
  struct Deferred {
    std::string path;
    int line = 0;  // logical line index of the import
    int unit = 0;  // its outermost def/class header
    std::vector<std::string> targets;
  };

  // Imports past the statements of a file Scan parsed, in scan order.
  struct Later {
    std::string path;
    std::vector<std::size_t> offsets;       // of the word `import`
    std::unordered_set<std::string> words;  // of the statements there, and maybe more
  };

  struct Dynamic {
    std::string path;
    int line = 0;
    int unit = -1;  // its outermost def/class header, when inside a def
    DynamicImportArgument arg;
    const DeclaredDynamicImport* declared = nullptr;  // what it loads, when declared
  };

  // Follows what can be followed; false when the import waits on its unit.
  bool Resolve(const Dynamic& d, References* refs);
  // Resolve's load, once its unit may run.
  bool ResolveLoad(const Dynamic& d);
  // Reaches every module named by a literal the reached code assigns to a
  // watched name; true when that reached a new module.
  bool ReachWatched();
  void Reach(std::string_view module, const Evidence& via);
  // The same, making the evidence only for a module reached first here:
  // most imports are of modules already reached.
  template <typename MakeVia>
  void ReachWith(std::string_view module, const MakeVia& via);
  void Scan(const std::string& path);
  void ScanFile(const std::string& path);
  // `path` could not be read or parsed: the result is open.
  void Unreadable(const std::string& path);
  // The submodules a star import from the package `s` names may load.
  std::vector<std::string> StarSubmodules(const std::string& path, const ImportStatement& s);
  // The import statement holding the word `import` at `o`; `last_begin`
  // is where the last one looked at began (one statement is read once).
  void ScanImport(const std::string& path, const StatementTable& lines, std::size_t o,
                  std::size_t* last_begin);
  // Scans the imports Scan left for later in files where one may name a
  // module not reached; true when it scanned one.
  bool ScanLater();
  void ScanDynamic(const std::string& path);
  // The changes of where imports look for modules (sys.path, a package's
  // __path__, sys.meta_path, sys.path_hooks) in `path`.
  void ScanImportPath(const std::string& path);
  // The loaders' modules (importlib, builtins, runpy, imp) taken as values
  // or read through __dict__ in `path`.
  void ScanLoaderModules(const std::string& path);
  // A load whose argument is never seen at the word at `o` of `path`, which
  // its bytes showed may be one: in code, and no import or def statement.
  // False when the file cannot be parsed (the result is then open).
  bool LoadAtWord(const std::string& path, std::size_t o);
  // A load at line `k` of `path` (by a dynamic import or a loader), unless
  // it never runs or a fact declares that it loads nothing of the tree.
  void AddDynamic(const std::string& path, int k, const DynamicImportArgument& arg);
  // A child interpreter started with sys.executable: a load (ScanDynamic).
  void ScanChildInterpreters(const std::string& path);
  // Any other process started (subprocess, os.system, os.exec*, ...): a
  // load unless its command is written out and runs no Python.
  void ScanProcessLaunches(const std::string& path);
  // Calls `on_call(lines, k, open)` for each call in code of `module.fn`
  // (or an `import module as q` alias's `q.fn`), or of `fn` imported from
  // the module under its name or an alias; `open` is the offset after the
  // name and blanks. False when the file cannot be read.
  template <class OnCall>
  bool ForEachQualifiedCall(const std::string& path, std::string_view module, std::string_view fn,
                            OnCall&& on_call);
  // Literal values the lines of `path` that run assign to `name`
  // (`name = "a.b"`, `name="a.b"`), prefixes marked by a trailing '*'.
  const std::vector<std::string>& LiteralsAssignedTo(const std::string& path,
                                                     const std::string& name);

  TreeIndex* index_ = nullptr;
  bool entry_found_ = false;
  std::vector<char> reached_;  // by the index's PathIndex
  std::size_t reached_count_ = 0;
  std::map<std::string, Evidence> via_;
  std::map<std::string, ReachDoubt> doubted_;
  // The file whose statements are read now: a module it reaches first
  // inherits its doubt. `carried_`: a doubt the reaches of now carry.
  const std::string* from_ = nullptr;
  const ReachDoubt* carried_ = nullptr;
  std::vector<std::string> queue_;
  std::vector<Deferred> deferred_;
  std::vector<Later> later_;
  std::map<std::string, std::vector<BlockedImport>> blocked_;
  std::vector<Evidence> opaque_;
  std::vector<Dynamic> dynamic_;             // not yet followed
  std::map<std::string, Evidence> watched_;  // name -> the import that reads it
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> literals_;
  std::map<std::pair<std::string, int>, std::string> declare_at_;  // by path, 1-based line
  std::set<const DeclaredDynamicImport*> used_;
};

}  // namespace muh
