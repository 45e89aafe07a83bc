// What a chain's variable stands for. A tier chain compares a variable
// (`if numel <= 64:`), and a model sizes each tier for what that variable
// counts: token-expert pairs, `M * topk`. The fork may compute it otherwise
// (`numel = M`, or `M` halved first); the tiers would then be sized for
// the wrong quantity, in silence. The rule states what it must be (`tiers:
// means:`), and the chain's function must show it. Pure: a tree in, a
// reason out.
#pragma once

#include <cstddef>
#include <string>

#include "engine/python/syntax_tree.h"

namespace muh {

// Whether `variable` holds `means` (an expression over `function`'s
// parameters, `M * topk`; or the parameter itself) at byte `at` of
// `function`: `variable` is bound exactly once there, by a statement
// `variable = EXPR` of the function's own body (not under a branch, loop
// or try) before `at`, EXPR reads as `means` (spaces aside; the two sides
// of a lone `*` or `+` in either order), each name EXPR reads is a
// parameter the function binds nowhere before that statement, and no
// scope nested in it declares `nonlocal variable`. "" when it does; else
// why not, naming the line that decides.
std::string WhyNotMeans(const SyntaxTree& tree, TSNode function, std::size_t at,
                        const std::string& variable, const std::string& means);

}  // namespace muh
