// `--patch FILE` on diff, apply, status (and verify): the lines of the
// tree's files that hold a `+` line of FILE, so that the plan tells a value
// muhpatch itself wrote from one tuned by hand (RuleSet::written_by_muhpatch).
#pragma once

#include <string>
#include <vector>

#include "engine/app/commands.h"
#include "engine/base/diagnostic.h"

namespace muh {

// Reads and parses `patch_path` and records, for each file of the opened
// run that it patches, the bytes holding its `+` lines (patch_lines.h).
// kExitClean, or kExitBadInput with the reasons in `errors` when the patch
// cannot be read or parsed. Does nothing for an empty path.
int MarkWrittenByPatch(const std::string& patch_path, OpenedRun* run,
                       std::vector<Diagnostic>* errors);

// The same, for the patch `text` already read (verify reads --patch once:
// it may be a pipe). Parse errors are left to the caller.
void MarkWrittenByPatchText(const std::string& patch_path, const std::string& text, OpenedRun* run);

}  // namespace muh
