// What a knob's assignment holds, read from the tree: whether a value is
// computed at run time (and from which names), and every assignment to a
// name, for rules that lost their knob to say what replaced it.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "engine/python/syntax_tree.h"

namespace muh {

// One name a computed value reads, and where it was last assigned before
// the value (0: nowhere in the file; a parameter or a global).
struct ValueInput {
  std::string name;
  std::size_t assigned_at = 0;  // byte offset of that assignment
  bool assigned = false;
};

struct RunTimeValue {
  std::string assigned_to;  // the variable (or `d['KEY']`) the value is assigned to, if any
  std::vector<ValueInput> inputs;
};

// When bytes [begin, end) of `tree` are an expression that reads names and
// is more than a name (`64 if smem_limit >= X else 32`, `min(64, n // 4)`):
// the names it reads, in order, called functions and attributes left out.
// nullopt for constants (`32 * 1024`), a bare name or attribute (a module
// constant), or anything not an expression.
std::optional<RunTimeValue> RunTimeInputs(const SyntaxTree& tree, std::size_t begin,
                                          std::size_t end);

// The targets bytes [begin, end) of `tree` are assigned to, nearest
// first: `a` for `a = 8`, `b` then `a` for the chained `a = b = 8`; empty
// when the bytes are no assignment's whole right-hand side.
std::vector<std::string> AssignedTargets(const SyntaxTree& tree, std::size_t begin,
                                         std::size_t end);

struct AssignmentTo {
  std::size_t begin = 0;  // of the assignment
  std::string value;      // its right-hand side, as written
};

// Every `name = VALUE` (plain or annotated) in `tree`, in file order.
std::vector<AssignmentTo> AssignmentsTo(const SyntaxTree& tree, const std::string& name);

}  // namespace muh
