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
// Reads as leniently as `git apply` does, and no more: lines before the
// first `diff --git` are a preamble (returned in `preamble` when given,
// terminators removed), a blank context line may have lost its leading
// space, blank lines may follow the last hunk, and the patch's own final
// newline may be missing.
bool ParsePatch(const std::string& display_path, const std::string& text,
                std::vector<FilePatch>* out, std::vector<Diagnostic>* errors,
                std::vector<std::string>* preamble = nullptr);

// Whether two parsed patches make the same change: same files, hunk ranges
// and bodies (patch line numbers aside).
bool SameChange(const std::vector<FilePatch>& a, const std::vector<FilePatch>& b);

// One hunk that does not apply, and where its lines are now.
struct HunkFailure {
  std::size_t hunk = 0;      // 0-based index in the file's hunks
  int patch_line = 0;        // its `@@` line in the patch file
  std::size_t expected = 0;  // 1-based line where the hunk says its lines are
  // 1-based line where the hunk's old side (context and removed lines) is
  // found whole now; 0 when it is nowhere.
  std::size_t now_at = 0;
  // When not found whole: the first line of the expected place that
  // differs (1-based, 0 past the end) and what the hunk wanted there.
  std::size_t differs_at = 0;
  std::string wanted;
  // When not found whole: 1-based line where the hunk's first removed line
  // is found now, nearest to `expected` (the context around it changed);
  // 0 when it is gone.
  std::size_t changed_lines_at = 0;
};

// Tries every hunk of `patch` on `content` on its own (reverse: undoing),
// and describes each one that does not apply exactly where it says.
std::vector<HunkFailure> FailingHunks(const FilePatch& patch, const std::string& content,
                                      bool reverse);

// Applies `patch` to `content` (reverse: undoes it). On a hunk that does not
// match exactly, returns false with an error located at the hunk header in
// `display_path` that names the file line where it failed.
bool ApplyFilePatch(const std::string& display_path, const FilePatch& patch,
                    const std::string& content, bool reverse, std::string* out, Diagnostic* error);

}  // namespace muh
