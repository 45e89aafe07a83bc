// `--patch FILE` on diff, apply, status (and verify), and diff's
// --base-patch: the lines of the tree's files that hold a `+` line of FILE,
// so that the plan tells a value muhpatch itself wrote from one tuned by
// hand (prior_patch.h). Pure: the parsed patch and the files
// in, the lines out.
#pragma once

#include <map>
#include <string>

#include "engine/app/patch_input.h"
#include "engine/base/source_text.h"
#include "engine/plan/prior_patch.h"

namespace muh {

// For each file of `files` that `patch` patches, the bytes holding its `+`
// lines (patch_lines.h), less those its preamble records as hand-tuned.
WrittenByMuhpatch WrittenByPatch(const PatchInput& patch,
                                 const std::map<std::string, SourceText>& files);

}  // namespace muh
