// Tier chains: `if V <= B1: … elif V <= B2: … else: …`, a family of sites
// that sets one knob per range of V (get_default_config's BLOCK_SIZE_M by
// `numel`). Read from the tree as values: each clause's bound as written and
// where, and the module's top-level assignments a bound may name.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/python/syntax_tree.h"

namespace muh {

// One clause of a chain: `if`/`elif V <= bound`, or the final `else`.
struct TierClause {
  std::string bound;  // as written; empty for the `else`
  std::size_t bound_begin = 0;
  std::size_t bound_end = 0;
  std::size_t begin = 0;  // of the clause's keyword
};

struct TierChain {
  std::string variable;
  std::size_t begin = 0;  // of the `if` statement: the chain's identity
  std::vector<TierClause> clauses;
  bool has_else = false;  // the last clause is the `else`
};

struct TierChainAt {
  TierChain chain;
  std::size_t clause = 0;  // the clause whose block holds the bytes
};

// The chain on `variable` one of whose clause blocks holds bytes
// [begin, end) as a statement of its own (not nested deeper); nullopt when
// there is none. Every clause but a final `else` must read `variable <=
// BOUND`; otherwise `*error` says which clause does not.
std::optional<TierChainAt> TierChainAround(const SyntaxTree& tree, std::size_t begin,
                                           std::size_t end, const std::string& variable,
                                           std::string* error);

// Every name assigned exactly once at the module's top level (`NAME = ...`),
// with the text of its value: the constants a bound may be computed from.
// A name assigned twice there, or bound anywhere else in the file (under a
// module-level `if`, in a loop, in a function), is left out: its value
// depends on the line or the path.
// `why_not`, when given, says for each name assigned at the top level
// and left out why: "`from m import T` (line 5) binds it again"; the key
// "*" when a statement may bind any name (a star import, globals()).
std::map<std::string, std::string> ModuleConstants(
    const SyntaxTree& tree, std::map<std::string, std::string>* why_not = nullptr);

// The constants a bound at byte `at` inside function `fn` may be computed
// from: the module's, less every name `fn` binds itself (a local shadows
// it), plus each name `fn` assigns exactly once, as a statement of its own
// body (`_MAX_BLOCKS = 80`) before `at`, and binds no other way (no
// parameter, loop, import, `global` or `nonlocal` of it, in `fn` or a
// scope nested in it).
std::map<std::string, std::string> FunctionConstants(const SyntaxTree& tree, TSNode fn,
                                                     std::size_t at,
                                                     std::map<std::string, std::string> module);

// The name whose top-level `NAME = value` (or `NAME: T = value`) statement
// has [begin, end) as its whole value; nullopt when it is none.
std::optional<std::string> ModuleConstantAt(const SyntaxTree& tree, std::size_t begin,
                                            std::size_t end);

// The value of the name `name` read at byte `at`: a module constant, or a
// function constant of each def around `at` (FunctionConstants, outermost
// first); none inside a class body, or where nothing proves one.
std::optional<std::string> ConstantAt(const SyntaxTree& tree, std::size_t at,
                                      const std::string& name);

}  // namespace muh
