// What a code pattern says its knob is (code_pattern.h's CompiledPattern
// `knob` and `shape`): the variable it is assigned to and the code around
// it as a user reads it, so that a rule that loses its knob can say what
// replaced it. Internal to engine/pattern: nodes of a pattern's own tree.
#pragma once

#include <tree_sitter/api.h>

#include <string>
#include <string_view>

#include "engine/pattern/metavariables.h"

namespace muh {

// The text of node `n` of the substituted snippet.
std::string_view SnippetText(const Substituted& sub, TSNode n);

// The variable the pattern assigns the knob to: the left side of the
// assignment nearest above the target metavariable (or above the `$$$` of
// an `inside:` pattern), when it is a plain name; else empty.
std::string KnobOf(const Substituted& sub, TSNode root, const std::string& target);

// The code the knob sits in, as the pattern says it: an expression pattern
// whole, or the value of the assignment that holds the target; the target
// metavariable shows as N, `$_` and `$$$` as `...`.
std::string ShapeOf(const Substituted& sub, TSNode root, const std::string& target);

}  // namespace muh
