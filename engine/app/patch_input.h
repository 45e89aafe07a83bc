// The patch a command is given (--patch, or diff's --base-patch): read
// once, for it may be a pipe, and parsed once, as `git apply -p STRIP`
// reads it, its preamble's status lines with it (hand_tuned_record.h).
// OpenRun (commands.h) makes it; what follows takes this value: the lines
// muhpatch wrote (patch_written.h), verify's checks, the pre-image.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/patch/patch_reader.h"
#include "engine/plan/hand_tuned_record.h"

namespace muh {

struct PatchInput {
  std::string path;  // as the user gave it; empty when no patch was named
  std::string text;  // its bytes
  std::vector<FilePatch> files;
  PatchPreamble preamble;  // the status lines before its first file
  // Why it could not be read (`unreadable`) or parsed; empty when it was.
  std::vector<Diagnostic> errors;
  bool unreadable = false;
  bool ok() const { return errors.empty(); }
};

// `text`, the bytes of the patch at `path`, parsed with -p `strip`
// (kDefaultStrip: git's default). An empty text is an empty patch.
PatchInput ParsePatchInput(const std::string& path, std::string text, int strip);

// The patch at `path` read and parsed; none (an empty value) when `path`
// is empty.
PatchInput ReadPatchInput(const std::string& path, int strip);

// Under --rule (`only_rules`), a patch whose preamble records a rule the
// run does not select holds edits of rules it will not plan: verify would
// call them stale, and a patch made again would drop them. The error (at
// the rule's status line), or nullopt when every recorded rule is selected.
std::optional<Diagnostic> OtherRulesRecorded(const PatchInput& patch,
                                             const std::vector<std::string>& only_rules);

}  // namespace muh
