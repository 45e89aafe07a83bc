// `muhpatch verify`: the CI gate. Clean (exit 0) when the tree is pristine
// and the committed patch, read and applied as `git apply` reads and
// applies it (patch_reader.h, offsets allowed), makes the rules' edits; or
// when the tree is patched and undoing the committed patch gives a tree
// for which the rules write the tree as it is (or, without --patch, nothing
// is left to change). Everything else is drift (exit 1), each kind with its
// own message ending with the command to run next. A file
// the whole-tree search must search but cannot read is an error finding of
// kind "unreadable" (one on which a query exceeds the matcher's budget:
// "over-budget") and verify exits 2: it cannot vouch for a tree it has not
// seen whole.
#pragma once

#include "engine/app/commands.h"

namespace muh {

int RunVerify(const CommandOptions& opts);

}  // namespace muh
