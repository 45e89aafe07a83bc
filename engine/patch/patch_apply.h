// Reading and applying the unified diffs muhpatch writes, exactly: no fuzz,
// no offsets. `verify` uses it to tell whether a committed patch still
// applies to a tree, forwards (pristine tree) or backwards (patched tree).
// Pure: strings in, strings out.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "engine/base/diagnostic.h"

namespace muh {

struct PatchHunk {
  std::size_t old_start = 0, old_count = 0, new_start = 0, new_count = 0;
  int line = 0;  // line of the `@@` header in the patch file
  // Each body line: its kind (' ', '-', '+') and its bytes, terminator
  // included unless the patch marks "\ No newline at end of file".
  std::vector<std::pair<char, std::string>> body;
};

struct FilePatch {
  std::string path;
  int line = 0;  // line of the `diff --git` header
  std::vector<PatchHunk> hunks;
};

// Parses `text` (the content of `display_path`). Errors are located in it.
bool ParsePatch(const std::string& display_path, const std::string& text,
                std::vector<FilePatch>* out, std::vector<Diagnostic>* errors);

// Applies `patch` to `content` (reverse: undoes it). On a hunk that does not
// match exactly, returns false with an error located at the hunk header in
// `display_path` that names the file line where it failed.
bool ApplyFilePatch(const std::string& display_path, const FilePatch& patch,
                    const std::string& content, bool reverse, std::string* out, Diagnostic* error);

}  // namespace muh
