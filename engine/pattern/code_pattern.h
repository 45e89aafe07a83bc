// Code patterns: the rule language's first form. A pattern is the Python a
// user sees, with metavariables (metavariables.h): `BLOCK = $_ if $COND else
// $VALUE`. It can carry `inside:` (a function, class or block, itself a
// pattern, whose body the pattern lies anywhere in) and `where:`
// constraints on its metavariables (a literal, a regex, a number range).
//
// A pattern compiles once into a tree of nodes (pattern_node.h), which the
// pattern matcher (pattern_matcher.h) walks against a parsed file's nodes;
// no query text lies between. Each metavariable becomes a capture of its
// name; the literal leaves of the snippet become hidden captures `_pN`
// pinned to their text, which locate a match where it begins.
//
// What a pattern means:
// - Named nodes match by type and, for leaves, by text. Quotes of a string
//   do not matter (its content does); comments in the pattern are ignored.
// - The children of a node that has no named fields match exactly, in
//   order (tree-sitter anchors `.`), unless a `$$$` among them stands for
//   a run of others. Fielded children (`left:`, `condition:`) match by field.
// - A block's statements, a module's and a dict's entries match in order
//   with others allowed between them: `{'BLOCK_SIZE_M': $V}` is any dict
//   with that key.
// - Operators and `and`/`or`/`not`/`in`/`is` are matched; punctuation and
//   other keywords follow from the node types.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "engine/pattern/pattern_node.h"

namespace muh {

// One `where:` entry.
struct WhereConstraint {
  enum class Kind { kEquals, kRegex, kRange, kAnyOf };
  std::string metavariable;  // without '$'
  Kind kind = Kind::kEquals;
  std::vector<std::string> texts;  // kEquals: one; kRegex: one; kAnyOf: several
  std::uint64_t lo = 0;            // kRange
  std::uint64_t hi = 0;
};

struct CodePattern {
  std::string pattern;
  std::string inside;  // empty: matched anywhere
  std::vector<WhereConstraint> where;
};

// Applied to each alternative's own tree before `inside:` holds it (a tier
// family's `if` around the statement, tier_rule.h): what it returns is a
// statement of the body.
using PatternWrap = std::function<PatternNode(PatternNode)>;

struct CodePatternError {
  enum class Part { kPattern, kInside, kWhere };
  Part part = Part::kPattern;
  std::size_t offset = 0;       // into `pattern` or `inside` as written
  std::size_t where_index = 0;  // kWhere: which entry
  std::string message;
};

struct CompiledPattern {
  // One tree, or one per alternative when alternatives bind different
  // captures (or have no `inside:` to share).
  std::vector<PatternTree> trees;
  std::vector<std::string> metavariables;  // the captures it binds, in order
  // The variable the knob is assigned to (`use_v1`), when the pattern says
  // so, and the code it sits in as the pattern writes it, the target shown
  // as N (`max_seq_len <= N`): a rule that loses its knob says what
  // replaced it.
  std::string knob;
  std::string shape;
};

// How many nodes an `inside:` body may hold between it and the pattern's
// root: `def f(): if a: for x in y: BLOCK = 1` is 4 (if, block, for, block;
// the expression statement is the fifth).
inline constexpr int kInsideDepth = 8;

// Compiles `p`; `target` is the metavariable the rule rewrites (for `knob`
// and `shape`). False, with the part at fault, its offset and a message.
bool CompileCodePattern(const CodePattern& p, CompiledPattern* out, CodePatternError* error,
                        const std::string& target = "");

// Alternatives (p.pattern unused) with one `inside:` and `where:`: one tree
// when they bind the same captures (the inside's body holds any of them),
// else one tree each. `*failing`: the alternative at fault.
bool CompileCodePatterns(const std::vector<std::string>& alternatives, const CodePattern& p,
                         CompiledPattern* out, CodePatternError* error, std::size_t* failing,
                         const std::string& target = "", const PatternWrap& wrap = {});

}  // namespace muh
