#include "engine/app/patch_input.h"

#include <algorithm>
#include <utility>

#include "engine/io/tree_io.h"

namespace muh {

PatchInput ParsePatchInput(const std::string& path, std::string text, int strip) {
  PatchInput out;
  out.path = path;
  out.text = std::move(text);
  std::vector<std::string> preamble;
  if (ReadPatch(path, out.text, strip, &out.files, &out.errors, &preamble)) {
    out.preamble = ReadPreamble(preamble);
  }
  return out;
}

PatchInput ReadPatchInput(const std::string& path, int strip) {
  if (path.empty()) return {};
  std::string text, err;
  if (!ReadWholeFile(path, &text, &err)) {
    PatchInput out;
    out.path = path;
    out.unreadable = true;
    out.errors.push_back(MakeError(path, 0, 0, err));
    return out;
  }
  return ParsePatchInput(path, std::move(text), strip);
}

std::optional<Diagnostic> OtherRulesRecorded(const PatchInput& patch,
                                             const std::vector<std::string>& only_rules) {
  if (only_rules.empty()) return std::nullopt;
  for (const auto& [rule_id, status] : patch.preamble.statuses) {
    if (std::find(only_rules.begin(), only_rules.end(), rule_id) != only_rules.end()) continue;
    const std::string head = "muhpatch: rule " + rule_id + ": ";
    std::size_t at = patch.text.find(head);
    int line = at == std::string::npos
                   ? 0
                   : 1 + static_cast<int>(std::count(
                             patch.text.begin(), patch.text.begin() + static_cast<long>(at), '\n'));
    return MakeError(patch.path, line, line == 0 ? 0 : 1,
                     "the patch records rule '" + rule_id +
                         "', which --rule leaves out: its edits would read as stale, and a "
                         "patch made again would drop them; run without --rule, or with a "
                         "--rule for every rule the patch records");
  }
  return std::nullopt;
}

}  // namespace muh
