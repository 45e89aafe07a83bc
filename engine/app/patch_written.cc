#include "engine/app/patch_written.h"

#include <functional>
#include <string_view>

#include "engine/patch/patch_lines.h"

namespace muh {

WrittenByMuhpatch WrittenByPatch(const PatchInput& patch,
                                 const std::map<std::string, SourceText>& files) {
  WrittenByMuhpatch out;
  // A `+` line the preamble records as hand-tuned is not muhpatch's.
  const std::vector<HandTunedRecord>& records = patch.preamble.hand_tuned;
  for (const FilePatch& fp : patch.files) {
    auto file = files.find(fp.path);
    if (file == files.end()) continue;  // no rule reads it
    WrittenLines& lines = out[fp.path];
    lines.content_hash = std::hash<std::string_view>{}(file->second.bytes());
    for (const auto& range :
         AddedLineRanges(fp, file->second.bytes(), RecordedLines(records, fp.path))) {
      lines.ranges.push_back(range);
    }
  }
  return out;
}

}  // namespace muh
