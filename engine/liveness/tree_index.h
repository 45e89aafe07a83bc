// The tree as the liveness analysis sees it: files read and their statement
// tables built on first use (statement_table.h: each file parsed at most
// once a run, or first only the statements up to what was asked about:
// LinesBefore), whole-word searches, the guard of a line (the if/elif/else
// branches around it, decided by condition.h), constant module flags
// followed through imports and re-exports, and the def or class a line
// belongs to.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "engine/base/word_filter.h"
#include "engine/liveness/condition.h"
#include "engine/liveness/liveness_types.h"
#include "engine/liveness/module_names.h"
#include "engine/liveness/py_imports.h"
#include "engine/liveness/statement_cache.h"
#include "engine/python/statement_table.h"

namespace muh {

// A file's bytes, or nullopt when it cannot be read; they must stay valid
// while the analysis lives (verify hands out its FileCache's), or until the
// path is handed to the ForgetFn.
using ReadFn = std::function<std::optional<std::string_view>(const std::string& path)>;
// The analysis no longer looks at the bytes `path` read gave; it reads the
// path again if it needs them.
using ForgetFn = std::function<void(const std::string& path)>;

struct LineGuard {
  Tri value = Tri::kTrue;  // kFalse: a branch around the line is never taken
  std::string why;
  std::vector<Evidence> evidence;  // the header that decides, then the facts
  bool in_handler = false;         // inside an `except` block
};

class TreeIndex {
 public:
  // `words`, when given, supplies a file's word filter kept elsewhere
  // (verify shares them with its search); otherwise the index builds its own.
  // `forget`, when given, is told of each file whose bytes the index dropped
  // after its word filter ruled it out: a search of every file then holds
  // one file's bytes at a time, not the tree's. `tables`, when given, are
  // shared with other indexes of the same files (the analysis's variants);
  // otherwise the index keeps its own.
  TreeIndex(const std::vector<std::string>& py_paths, const ReadFn& read,
            const LivenessFacts& facts, WordFilterFn words = {}, ForgetFn forget = {},
            std::shared_ptr<StatementCache> tables = {});
  TreeIndex(const TreeIndex&) = delete;
  TreeIndex& operator=(const TreeIndex&) = delete;

  const ModuleMap& modules() const { return modules_; }
  const std::vector<std::string>& paths() const { return paths_; }
  // The position of `path` in paths(), or -1. Loops over paths() ask with
  // its elements, known by their address without hashing the path.
  int PathIndex(const std::string& path) const;
  const LivenessFacts& facts() const { return facts_; }

  // The file's bytes; nullptr when it cannot be read.
  const std::string_view* Bytes(const std::string& path);
  // Its logical lines; nullptr when unreadable or when its parse has an error.
  const StatementTable* Lines(const std::string& path);
  // Its logical lines up to the first top-level statement that begins after
  // the line holding `offset` at least: the whole file's first lines, with
  // the same indices (prefix_cut.h), from a parse of only that prefix when
  // it parses without an error; else Lines(path). The guards, units and
  // evidence of the lines it holds may be asked before the whole file is
  // parsed. Kept for the file (one prefix a file: a later ask past it gets
  // Lines(path)).
  const StatementTable* LinesBefore(const std::string& path, std::size_t offset);
  // For a scan of every file for one word (a plugin loader, a subclass
  // lookup, a module's object): whether the file's lines are in use
  // already, and dropping what the scan alone made of it (its bytes and
  // searches, read again when asked; its statement table stays, so that
  // the file is not parsed again), so that such a scan over a large tree
  // holds one file's bytes at a time. Drop leaves a file whose guards or
  // headers were asked.
  bool Lexed(const std::string& path) {
    FileState& f = File(path);
    return f.lexed || f.head.has_value();
  }
  void Drop(const std::string& path);
  // Offsets of `word` as a whole word (in code, strings and comments).
  const std::vector<std::size_t>& Occurrences(const std::string& path, const std::string& word);

  // Whether the branches around line `k` of `path` are taken (kept: valid
  // while the index lives).
  const LineGuard& Guard(const std::string& path, int k);
  // The value of header `h`'s condition (an `if`, `elif` or `while` line).
  const ConditionResult& HeaderValueOf(const std::string& path, int h) {
    return HeaderValue(path, h);
  }
  // The line of an unconditional return, raise, continue or break that
  // precedes line `k` in one of its enclosing blocks (same function).
  std::optional<int> AfterExit(const std::string& path, int k);
  // The outermost `def` or `class` header enclosing line `k`, or -1; and
  // whether some enclosing header is a `def`.
  int OutermostUnit(const std::string& path, int k, bool* in_function = nullptr);
  // The name a `def`/`class` header line defines; empty for other lines.
  std::string DefinedName(const std::string& path, int k);
  // The first line index after header `k`'s block.
  int BlockEnd(const std::string& path, int k);

  // The constant a module-level name of `path` denotes: assigned a constant
  // exactly once at the top level and bound nowhere else (no line of
  // several statements mentions it, no string that is not prose names it,
  // and no other file stores to `.name` or names it in such a string), or
  // imported (also through re-exports) from a module where that holds.
  std::optional<ConstantFlag> Flag(const std::string& path, const std::string& name);

  // Whether `name` in `path` is the fork's platform API (`current_platform`,
  // `is_hip`, the `vllm` package), whose predicates the declared platform
  // answers: every binding of it in the file is an import from a `vllm`
  // module, or, in vllm/utils.py and vllm/platforms/, a top-level def. A
  // function of the program's own named is_rocm proves nothing.
  bool PlatformName(const std::string& path, const std::string& name);

  // The first statement of a file other than `path` that may rebind
  // `path`'s module-level `name`: an attribute store or del of `.name`,
  // `name` as a keyword argument (`vars(m).update(name=...)`) or in a
  // string that is not prose (`setattr(m, "name", ...)`); a file that
  // cannot be read or parsed counts, with line 0. Every file of the tree is
  // looked at, run or not. nullopt when none may.
  std::optional<Evidence> ReboundElsewhere(const std::string& path, const std::string& name);

  // `path:line` evidence with the line's code.
  Evidence At(const std::string& path, int k);

  // The context conditions of `path` are evaluated in: its flags, its
  // platform names, the markers the tree makes (MarkerMade); consultations
  // recorded here.
  ConditionContext ConditionsIn(const std::string& path);

  // The first statement of the tree that makes the value of marker `m`
  // (`_Backend.ROCM_FLASH`: its member ROCM_FLASH) in code the served
  // platform may run: the member as a value anywhere but an operand of a
  // comparison (an assignment, an argument, a return, a default) on a line
  // whose guard is not false; its name as a whole string
  // (`_Backend["ROCM_FLASH"]`; where a top-level constant is bound to it,
  // `STR_ROCM_FLASH = "ROCM_FLASH"`, the constant's reads make it); or a
  // bare name outside a class body (the enum's own definition). nullopt
  // when none does, or for a marker that is no `_Backend.X` attribute.
  std::optional<Evidence> MarkerMade(const PlatformMarker& m);

  // The variables of the environment some condition evaluated so far
  // rests on (ConditionContext::consulted); Consult adds one.
  const std::set<std::string>& consulted() const { return consulted_; }
  // The writes by a caller's keys the last EnvironmentWrittenByAnyName met
  // (`for k, v in envs.items(): os.environ[k] = v`): a verdict that rests on
  // a variable's default assumes they copy the process's own environment.
  const std::vector<Evidence>& caller_key_writes() const { return caller_key_writes_; }
  void Consult(const std::string& env) { consulted_.insert(env); }

 private:
  LineGuard GuardOf(const std::string& path, int k);
  // The value of header `h`'s condition. Kept per header: the headers
  // around a file's imports are shared, and each costs a parse. The flags
  // it reads are settled on first use, so a second evaluation could not
  // differ.
  const ConditionResult& HeaderValue(const std::string& path, int h);
  // Whether `name` read in header `h` may be another binding than its
  // module's: a def or class around h binds it in its own scope (a
  // parameter, an assignment, an import, a global declaration...), or the
  // parse cannot tell.
  bool BoundAround(const std::string& path, int h, std::string_view name);
  const std::optional<std::set<std::string>>& ScopeNames(const std::string& path, int p);
  std::optional<ConstantFlag> FlagAt(const std::string& path, const std::string& name, int depth);
  // MarkerMade's search: where `word` (a member's name, or with `member`
  // false a constant bound to that name as a string) is made or read on in
  // code the served platform may run.
  std::optional<Evidence> ValueMade(const std::string& word, bool member, int depth);
  // Where the tree may make a member of `_Backend` without naming it: the
  // enum called or used as a value (`_Backend(3)`, `list(_Backend)`), an
  // alias in its body, a lookup by a key other than a literal or a
  // parameter whose every caller passes VLLM_ATTENTION_BACKEND's value.
  std::optional<Evidence> EnumMadeOtherwise();
  // Whether each call of `fn` in the tree passes, as its one argument, a
  // local bound only to an expression reading VLLM_ATTENTION_BACKEND; else
  // the first call that does not.
  std::optional<Evidence> CallersPassEnvironment(const std::string& fn);
  // VLLM_ATTENTION_BACKEND, and the constants the tree binds to that
  // string; where code that may run sets the variable (any use but a read
  // through os.environ.get, getenv, `in`, a load, envs' attribute).
  std::vector<std::string> BackendVariableNames();
  // Whether `key` of a lookup in `_Backend` (at the end of `at`) carries
  // only a literal (which ValueMade reads) or VLLM_ATTENTION_BACKEND's
  // value; else why not (path empty: the lookup's own place).
  std::optional<Evidence> KeyCarriesEnvironment(const SyntaxTree& tree,
                                                const std::vector<TSNode>& at, TSNode key);
  // Whether every binding of `local` in `scope` is `local = EXPR`, EXPR
  // reading the variable or a constant holding its name.
  bool BoundToEnvironment(const SyntaxTree& tree, TSNode scope, std::string_view local);
  std::optional<Evidence> BackendVariableWritten();
  // Any write to os.environ other than by a plain string key (which
  // BackendVariableWritten reads) or by the keys of a mapping the writing
  // function's caller passes: it may set the backend's variable.
  std::optional<Evidence> EnvironmentWrittenByAnyName();

  struct FileState {
    std::string_view bytes;            // read_'s, or `own`
    std::unique_ptr<std::string> own;  // a copy with CR line endings made LF
    bool read = false;
    bool readable = false;
    std::optional<StatementTable> lines;  // kept by Drop, bound to `bytes` again when asked
    bool parsed = false;                  // `lines` built (or refused)
    bool lexed = false;                   // `lines` bound to `bytes`
    std::optional<StatementTable> head;   // LinesBefore's prefix, bound to `bytes`
    std::size_t head_end = 0;             // the cut it ends at
    bool head_tried = false;
    const WordFilter* words = nullptr;      // found on the file's first search
    std::unique_ptr<WordFilter> own_words;  // when words_ gives none
    std::unordered_map<std::string, std::vector<std::size_t>> occurrences;
    std::unordered_map<int, LineGuard> guards;
    std::unordered_map<int, ConditionResult> headers;
    // By a def's or class's header line: the names its own scope binds
    // (ScopeNames); nullopt when the parse cannot say.
    std::unordered_map<int, std::optional<std::set<std::string>>> scope_names;
    // Per logical line, each a scan of the line: a name searched for many
    // times on one long line (a generated condition) scans it once.
    std::unordered_map<int, bool> several;
    std::unordered_map<int, std::optional<std::size_t>> equals;
  };
  FileState& File(const std::string& path);
  // The table the lines asked about belong to: the whole file's when it is
  // parsed, else the prefix (same indices), else the whole file's, parsed now.
  const StatementTable* Held(const std::string& path);
  // StatementTable::HasSeveralStatements and AssignmentEquals of line `k`, kept.
  bool Several(const std::string& path, int k);
  std::optional<std::size_t> Equals(const std::string& path, int k);
  // Drops the bytes of a file nothing was derived from but its word filter.
  void ForgetBytes(const std::string& path, FileState* f);

  std::vector<std::string> paths_;
  const ReadFn& read_;
  const LivenessFacts& facts_;
  WordFilterFn words_;
  ForgetFn forget_;
  ModuleMap modules_;
  std::unordered_map<std::string, FileState> files_;
  std::vector<FileState*> by_index_;                    // files_'s entries by PathIndex
  std::unordered_map<std::string_view, int> index_of_;  // views of paths_
  mutable int last_index_ = -1;                         // PathIndex's last answer
  std::map<std::pair<std::string, std::string>, std::optional<ConstantFlag>> flags_;
  std::map<std::pair<std::string, std::string>, bool> platform_names_;
  std::map<std::string, std::optional<Evidence>> predicates_;  // PredicateRedefined, by name
  // MarkerMade's answers by marker text; a marker asked while its own
  // answer is being found counts as made (its evidence says so).
  std::map<std::string, std::optional<Evidence>> markers_made_;
  std::optional<std::optional<Evidence>> enum_made_otherwise_;
  std::set<std::string> consulted_;
  std::vector<Evidence> caller_key_writes_;
  std::shared_ptr<StatementCache> tables_;
};

// The offset of the `=` of an assignment statement on line `k` (also `+=`
// and annotated `x: T = v`): outside brackets and strings; nullopt when
// the line assigns nothing.
std::optional<std::size_t> AssignmentEquals(const StatementTable& lines, int k);

// Whether `text` holds `word` as a whole word.
bool HasWord(std::string_view text, std::string_view word);

// Rewrites CRLF and CR-only line endings in place so the parse sees LF,
// keeping every byte offset (and so every site's position) unchanged: a
// CR before LF becomes a space (after a continuation backslash, the two
// swap), a lone CR becomes LF.
void LineEndingsAsLf(std::string* bytes);

}  // namespace muh
