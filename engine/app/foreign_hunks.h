// The hunks of a committed patch that muhpatch cannot have written: those
// in a file no rule reads (a rule edits only the files it reads). Making
// the patch again would drop them without a word, and verify would call
// the patch merely stale (a helper probe of f751cf4: a hunk added to
// envs.py by hand vanished from p.diff). Pure.
#pragma once

#include <string>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/patch/patch_reader.h"
#include "engine/rules/rule.h"

namespace muh {

// One error per such hunk, located at its `@@` line in `patch_path`.
std::vector<Diagnostic> ForeignHunks(const RuleSet& rules, const std::string& patch_path,
                                     const std::vector<FilePatch>& patch);

}  // namespace muh
