#include "engine/app/patch_input.h"

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

}  // namespace muh
