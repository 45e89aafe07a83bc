// What an occurrence of a name does, read from its place in the parse: a
// read, the lone target of `NAME = value`, some other binding (a pattern or
// chained target, augmented assignment, for, with/except as, walrus, case
// capture, import), a del, a global/nonlocal declaration, a def or class
// name, a parameter, or no name of the scope at all (an attribute's field,
// a keyword argument's name, an import's module path). The one reading of
// "is this name bound here" that the constant readers share: the flags
// liveness follows (tree_index), the module and function constants of tier
// bounds (tier_chain), and the attribute stores that rebind another
// module's name.
//
// A whitelist: a position is a read only where its parent is an expression
// or statement known to read it; any other position is kUnknown, which
// every caller counts as a binding. A construct of a newer grammar, or one
// this file does not list, never turns a binding into a read.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "engine/python/syntax_tree.h"

namespace muh {

enum class NameUse : std::uint8_t {
  kRead,
  kAssign,      // the lone target of `NAME = value` or `NAME: T = value` (no chain, no pattern)
  kRebind,      // any other binding of the scope the name is in
  kComprehend,  // a comprehension's `for` target (the comprehension's own scope)
  kDelete,      // `del NAME`, `del (A, NAME)`
  kDeclare,     // `global NAME`, `nonlocal NAME`
  kDefine,      // `def NAME`, `class NAME`
  kImport,      // `import NAME`, `import a.b` (binds a), `from m import x as NAME`
  kParameter,   // a def's or lambda's parameter (binds in that function)
  kNotAName,    // an attribute's field, a keyword argument's name, a module path
  kUnknown,     // a position not listed: count it as a binding
};

// The nodes from the root down to the smallest named node that spans
// exactly [begin, end) (the root alone when none does), found by one
// cursor descent: ts_node_parent costs a descent from the root each call,
// which a walk up a deep tree cannot afford.
std::vector<TSNode> PathTo(TSNode root, std::uint32_t begin, std::uint32_t end);

// PathTo for many ranges of one tree: asked in ascending order of their
// begin, it moves on from the last answer (up to the first node that
// spans the next range, on through the siblings that follow), so a run of
// ranges over the whole tree costs one walk, not one descent each, however
// wide a block is. A range that begins before the last starts over.
class PathFinder {
 public:
  explicit PathFinder(TSNode root);
  PathFinder(const PathFinder&) = delete;
  PathFinder& operator=(const PathFinder&) = delete;
  ~PathFinder();
  std::vector<TSNode> PathTo(std::uint32_t begin, std::uint32_t end);

 private:
  TSTreeCursor cursor_;
  std::vector<TSNode> stack_;  // root down to the cursor's node
  std::uint32_t last_begin_ = 0;
};

// What the last node of `path` (root first, as PathTo and a cursor walk
// give it) does where it stands: an identifier, or an attribute or
// subscript expression (`m.FLAG = 1` stores to `m.FLAG`: kAssign or
// kRebind; `del m.FLAG`: kDelete). Walks up through the brackets and
// patterns that hold a target (`(A, [B])`, `*rest`), at most 64 steps: a
// deeper nest is kUnknown.
NameUse UseOf(const std::vector<TSNode>& path);

// Whether the last node of `path` (root first) stands in an annotation
// (`x: T`, `-> T`, `Optional[T]` there), where it makes nothing.
bool InAnnotation(const std::vector<TSNode>& path);

// Calls visit(path) for every named node under `root` (itself included),
// in document order, with the nodes from `root` down to it: one cursor
// walk, which keeps no stack of its own however deep a hostile file nests.
void ForEachNamedPath(TSNode root, const std::function<void(const std::vector<TSNode>&)>& visit);

// Calls visit(path, use) for every identifier that binds a name in the
// namespace of `scope` (a def, lambda, class or module node), with the
// nodes from `scope` down to it, in document order:
// - the scope's own statements, and its parameters (kParameter);
// - not a nested def's, lambda's or class's own names (its name,
//   decorators, defaults and annotations are the enclosing scope's);
// - a comprehension's `:=` (which binds in the enclosing function), not
//   its `for` variables;
// - a `global` or `nonlocal` in a nested scope (kDeclare): calling it may
//   rebind the name.
// kUnknown counts anywhere but inside a nested scope. One cursor walk,
// linear at any depth.
void ForEachScopeBinding(TSNode scope,
                         const std::function<void(const std::vector<TSNode>&, NameUse)>& visit);

// Whether the last node of `path` (root first) may bind any name of its
// module: a star import; globals, vars, exec or eval, called or taken as a
// value (`g = globals`), and locals outside a function; the module reached as an object
// (`sys.modules`, any `__dict__`, `import_module(__name__)`,
// `__import__(__name__)`). The constant readers then prove nothing.
bool NamespaceWide(const SyntaxTree& tree, const std::vector<TSNode>& path);

// Whether the last node of `path` is an attribute's name (`FLAG` of
// `m.FLAG`); then the path less that node ends at the attribute, whose
// UseOf says whether it is stored to.
bool NamesAttribute(const std::vector<TSNode>& path);

// Whether a use binds, deletes or may bind the name in some scope (every
// use but a read and kNotAName).
inline bool Binds(NameUse u) { return u != NameUse::kRead && u != NameUse::kNotAName; }

// A short phrase for a use ("assigned", "bound by a pattern or chain", ...),
// for the messages that say why a name is no constant.
const char* Describe(NameUse u);

}  // namespace muh
