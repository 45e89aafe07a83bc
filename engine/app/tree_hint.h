// A hint for the commonest mistake with TREE: naming the `vllm/` package
// itself instead of the folder that holds it (`./enginex-vllm`). Then every
// file the rules name is "not in the tree", and the errors alone do not say
// why.
#pragma once

#include <optional>
#include <string>

namespace muh {

// The folder that holds TREE, as the user would type it: `a/vllm` and
// `a/vllm/` give `a`, `vllm` gives `.`, `.` gives `..`, `/vllm` gives `/`.
std::string ParentOf(const std::string& tree);

// What the user is told when no file the rules name was found: a note when
// TREE has no `vllm/` but looks like that package (its last component is
// `vllm`, or it holds `_custom_ops.py`); nothing otherwise.
std::optional<std::string> TreeRootHint(const std::string& tree, bool has_vllm_dir,
                                        bool has_custom_ops);

}  // namespace muh
