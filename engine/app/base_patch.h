// `diff --base-patch FILE`: the patch made again from the pre-image, the
// tree with FILE undone (pre_image.h), so that a tree that carries its
// patch gets that patch back, not an empty one. A value tuned by hand on a
// `+` line since (or recorded as such in FILE's preamble) is kept, and
// recorded on its rule's status line (hand_tuned_record.h).
#pragma once

#include "engine/app/commands.h"

namespace muh {

// diff with opts.base_patch_path set: exit 0, 6 (a rule failed on the
// pre-image), or 2 when FILE cannot be read, parsed or undone (each hunk
// that cannot be undone is named, with the line of the tree that differs).
int RunDiffFromBase(const CommandOptions& opts);

}  // namespace muh
