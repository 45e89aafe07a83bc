// Which lines of a file a patch wrote: the `+` lines of a parsed patch,
// found in the file as it is now (offsets allowed, as `git apply` allows
// them). diff, apply, status and verify take `--patch FILE` to tell a value
// muhpatch itself wrote from one tuned by hand. Pure: strings in, ranges out.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "engine/patch/patch_apply.h"

namespace muh {

// The byte ranges [begin, end) of `content`, terminators included, that
// hold a `+` line of `patch` where the patch put it. Each hunk is placed
// where its new side (context and `+` lines) is found whole, nearest to
// where it says (after the offset of the hunks before it); a hunk found
// nowhere whole is placed there anyway, and then each of its `+` lines
// counts only if the file's line at its place is that line, byte for byte.
// A `+` line whose line in the patch's new side `except` lists is left out
// (a value the patch records as hand-tuned, not muhpatch's). In file order.
std::vector<std::pair<std::size_t, std::size_t>> AddedLineRanges(
    const FilePatch& patch, const std::string& content, const std::vector<int>& except = {});

}  // namespace muh
