// Whether a rule's kept (hand-tuned) sites lie on lines a patch changes: a
// rule of several sites (a tier family) that rewrote some and kept one when
// the patch was made is hand-tuned once the patch is applied, and that is
// no drift unless the patch changed a line the kept value is on now.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "engine/base/source_text.h"
#include "engine/patch/patch_reader.h"
#include "engine/plan/hand_tuned_record.h"
#include "engine/plan/plan_result.h"

namespace muh {

// Whether `line` (from 1) of `path` is a `-` line of `patch` in the old
// file or a `+` line in the new one.
bool PatchChangesLine(const std::vector<FilePatch>& patch, const std::string& path, int line);

// Whether no kept site of `o` is on a line `patch` changes, unless the
// patch records the value on that line as hand-tuned (`recorded`). A site's
// line is counted as the patch counts lines (LF only) in its file of `files`.
bool KeptSitesUntouched(const std::vector<FilePatch>& patch, const RuleOutcome& o,
                        const std::map<std::string, SourceText>& files,
                        const std::vector<HandTunedRecord>& recorded = {});

}  // namespace muh
