// What the code does to a value after it is assigned, before the kernel
// sees it: the statements of the same function that compute the assigned
// variable (or dict key) from itself (`BLOCK = BLOCK // 2`, `config[
// 'BLOCK_SIZE_M'] //= 2`). The value gate checks what reaches the kernel,
// not only the literal written (value_gate.h). Pure: a tree and a byte
// range in, the transforms out.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/python/syntax_tree.h"

namespace muh {

struct SelfTransform {
  std::string op;                  // "//", "*", "+", "-", "<<", ">>"; "" when it is none of them
  std::optional<int64_t> operand;  // an integer literal; nullopt when it is not one
  bool repeats = false;            // in a loop the value's statement is not in
  int line = 0;                    // 1-based
  std::string text;                // the statement's first line
  // "// 2": how a domain names the transforms it accounts for.
  std::string Key() const;
  // The transform applied to `x`; nullopt where it is unknown or undefined
  // (a division by zero, an overflow).
  std::optional<int64_t> Apply(int64_t x) const;
};

// The transforms of the value at [begin, end): the right side of an
// assignment (`BLOCK = 64`, a branch of `BLOCK = 128 if C else 64`, a key's
// value in `config = {'BLOCK_SIZE_M': 64}`, `config['BLOCK_SIZE_M'] = 64`).
// Every later statement of the enclosing function, in file order, that
// assigns the same target from itself, in any block. Empty when the value
// is no such assignment's, or nothing transforms it.
std::vector<SelfTransform> LaterTransforms(const SyntaxTree& tree, std::size_t begin,
                                           std::size_t end);

}  // namespace muh
