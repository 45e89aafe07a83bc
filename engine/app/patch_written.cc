#include "engine/app/patch_written.h"

#include <functional>
#include <string_view>

#include "engine/base/exit_codes.h"
#include "engine/io/tree_io.h"
#include "engine/patch/patch_lines.h"
#include "engine/plan/hand_tuned_record.h"

namespace muh {

namespace {

// A `+` line the preamble records as hand-tuned (hand_tuned_record.h) is
// not muhpatch's.
void Mark(const std::vector<FilePatch>& patch, const std::vector<std::string>& preamble,
          OpenedRun* run) {
  RuleSet& rules = run->inputs.rules;
  const std::vector<HandTunedRecord> records = PreambleHandTuned(preamble);
  for (const FilePatch& fp : patch) {
    auto file = run->workspace.files.find(fp.path);
    if (file == run->workspace.files.end()) continue;  // no rule reads it
    RuleSet::WrittenLines& lines = rules.written_by_muhpatch[fp.path];
    lines.content_hash = std::hash<std::string_view>{}(file->second.bytes());
    for (const auto& range :
         AddedLineRanges(fp, file->second.bytes(), RecordedLines(records, fp.path))) {
      lines.ranges.push_back(range);
    }
  }
}

}  // namespace

int MarkWrittenByPatch(const std::string& patch_path, OpenedRun* run,
                       std::vector<Diagnostic>* errors) {
  if (patch_path.empty()) return kExitClean;
  std::string text, err;
  if (!ReadWholeFile(patch_path, &text, &err)) {
    errors->push_back(MakeError(patch_path, 0, 0, err));
    return kExitBadInput;
  }
  std::vector<FilePatch> patch;
  std::vector<std::string> preamble;
  if (!ParsePatch(patch_path, text, &patch, errors, &preamble)) return kExitBadInput;
  Mark(patch, preamble, run);
  return kExitClean;
}

void MarkWrittenByPatchText(const std::string& patch_path, const std::string& text,
                            OpenedRun* run) {
  std::vector<FilePatch> patch;
  std::vector<Diagnostic> ignored;
  std::vector<std::string> preamble;
  if (ParsePatch(patch_path, text, &patch, &ignored, &preamble)) Mark(patch, preamble, run);
}

}  // namespace muh
