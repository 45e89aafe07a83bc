// Where the value of one read goes, read from its place in the parse: a
// call takes it as it is, a test decides on it, another quantity is
// computed from it, a name is bound to it, it is dropped, or it is changed
// (or carried somewhere this file does not follow) first. The question
// behind it: does the value a rule writes reach the call that consumes it,
// or does the code clamp it on the way (`kernel(BLOCK=max(config[
// 'BLOCK_SIZE_M'], 32))`)?
//
// A whitelist, walking up from the read:
// - brackets say nothing;
// - the whole argument of a call, positional or by keyword, of any callee
//   but Python's builtins: kPassed. What a callee does with its argument
//   is its own (the assumption kPassed rests on: kPassedAssumption);
// - an operand of a comparison, `not`, or a condition (if, elif, while,
//   assert, a conditional expression's test, a comprehension's `if`),
//   through `and`/`or` there: kTested, a decision on the value;
// - an operand of arithmetic, an f-string's field, or an argument of a
//   builtin that computes something else (`len`, `range`, `str` ...):
//   kDerived, another quantity (a buffer's size, a grid, a count). The
//   value the code computes it from is the one written;
// - a statement of its own: kDiscarded;
// - the lone right side of `NAME = value`: kAliased, the caller follows NAME;
// - a branch of a conditional expression, `and`/`or` as a value, or an
//   argument of `max`/`min`: the value may come out replaced (a clamp), and
//   the walk goes on with it changed; through `int`, `abs`, `round`,
//   `float` it goes on as it is. A changed value that then reaches a call
//   or arithmetic is kChanged, at the clamp; one bound to a name is
//   kAliased with `changed` set; one tested or dropped is harmless
//   (`print(max(v, 32))`);
// - anything else (a return, a container, a lambda's body, a chained or
//   unpacking assignment, a splat, a subscript or attribute of it):
//   kChanged, at that construct.
// Pure: a path in, a verdict out.
#pragma once

#include <string_view>
#include <vector>

#include "engine/python/syntax_tree.h"

namespace muh {

enum class ValueUseKind {
  kPassed,     // a call takes it as it is
  kTested,     // a decision on it (its value goes nowhere)
  kDerived,    // another quantity is computed from it
  kDiscarded,  // computed and dropped
  kAliased,    // bound to a name (`alias`), whose reads the caller follows
  kChanged,    // changed before a call or name takes it, or carried where this file does not follow
};

struct ValueUse {
  ValueUseKind kind = ValueUseKind::kChanged;
  // kPassed: the call. kTested, kDerived, kDiscarded: the node that tests,
  // computes or drops. kAliased: the assignment. kChanged: the first node
  // that changed the value, or that carries it on (a return, a tuple).
  TSNode at{};
  // Whether the value went through a clamp on the way (for kAliased: the
  // name holds a changed value, `x = max(v, 32)`).
  bool changed = false;
  // kChanged only: the value is carried on as it is to where this file
  // does not follow (a return, a container, a subscript of it), through no
  // clamp first.
  bool carried = false;
};

// The use of the value of the last node of `path` (root first, as PathTo
// gives it). `changed`: the value is changed already (an alias bound to
// a changed value is read). Builtins are known by name: a module that
// defines its own `max` gets kChanged, which is safe.
ValueUse UseOfValue(const SyntaxTree& tree, const std::vector<TSNode>& path, bool changed = false);

// Whether bytes [begin, end) of `rhs`, the right side of an assignment,
// are the value its name takes: the whole of it, or a branch of a
// conditional expression that is (brackets aside), at any depth
// (`128 if C else 64`: both numbers). A part of another expression (an
// operand, an element, an argument) is not: the name then holds another
// quantity computed from it.
bool IsBoundValue(std::string_view rhs, std::size_t begin, std::size_t end);

// The assumption kPassed rests on, for messages and man pages.
inline constexpr std::string_view kPassedAssumption =
    "a function that takes the value as an argument uses it as it is";

// What a check that takes a value handed on whole (ValueUse::carried) as
// unchanged rests on.
inline constexpr std::string_view kCarriedAssumption =
    "a value returned or put in a container whole reaches its consumer as it is";

}  // namespace muh
