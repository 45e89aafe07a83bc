// A condition a rule names (`current_platform.has_device_capability(80)`),
// matched as code: two spellings are the same condition when they differ
// only in whitespace, comments or redundant parentheses. A leading `not`
// is split off, so that `if not C:` is read as the else-branch of `C`.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "engine/python/syntax_tree.h"

namespace muh {

// A condition in canonical form: its tokens, one space apart, with no
// parentheses that only group the whole or a `not`'s operand.
struct BranchCondition {
  std::string canonical;
  bool negated = false;  // the text was `not C`; `canonical` is C's
};

// Reads `text`, a Python expression. nullopt, with the byte offset at fault
// and a message, when it is not one expression.
std::optional<BranchCondition> ParseBranchCondition(std::string_view text, std::size_t* error_at,
                                                    std::string* error);

// The canonical form of node `n` of `tree`, its outer `not`s split off the
// same way.
BranchCondition ConditionOf(const SyntaxTree& tree, TSNode n);

// Whether node `n`, as it stands (no `not` split off), has the canonical
// form `canonical`; reads no more of it than that takes, so that asking of
// every node of a deep expression stays linear.
bool IsCondition(const SyntaxTree& tree, TSNode n, const std::string& canonical);

// What `other` is where the condition `known` (canonical, not negated) is
// `known_holds`: true or false when that follows, nullopt when it does not.
// The same condition follows itself. A device-capability test is monotone:
// `P.has_device_capability(N)` false means the device is below N, so
// `P.has_device_capability(M)` is false too for every M >= N (and true
// for every M <= N where it holds); the receiver P must be the same.
std::optional<bool> Implied(const std::string& known, bool known_holds, const std::string& other);

}  // namespace muh
