// Reading a patch as `git apply` reads it, into per-file edits: each file's
// hunks (old lines -> new lines, with their context) and what else its
// headers say (modes, a rename or copy, a new or deleted file, a binary
// change). Both `git diff` patches (`diff --git`, `index`, mode and
// similarity lines) and plain `diff -u`/`diff -ru` output (timestamps on the
// `---`/`+++` lines, `diff -ru` lines between files) are read, and text
// around them (a mail's headers, a format-patch signature) is left alone,
// as git leaves it. What git calls corrupt is refused here too. Pure:
// strings in, strings out.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "engine/base/diagnostic.h"

namespace muh {

struct PatchHunk {
  std::size_t old_start = 0, old_count = 0, new_start = 0, new_count = 0;
  int line = 0;  // line of the `@@` header in the patch file
  // Each body line: its kind (' ', '-', '+') and its bytes, terminator
  // included unless the patch marks "\ No newline at end of file". A blank
  // context line whose leading space an editor stripped is ' ' "\n".
  std::vector<std::pair<char, std::string>> body;
};

struct FilePatch {
  std::string path;                // the file after the change (-p components stripped)
  std::string old_path;            // the file before it: differs from `path` on a rename or copy
  int line = 0;                    // line of the file's first header (`diff --git` or `---`)
  std::string old_mode, new_mode;  // as written ("100644"); empty when not said
  bool is_new = false, is_delete = false, is_rename = false, is_copy = false;
  bool is_binary = false;
  std::vector<PatchHunk> hunks;

  // What the headers change besides lines ("renames a.py to b.py", "changes
  // the mode from 100644 to 100755", ...), none of which muhpatch writes;
  // "" when they change lines only.
  std::string OtherChange() const;
};

// How many leading path components to strip from the names (`-p N`); -1:
// git's default (1, or 0 for a plain diff naming files without a '/').
inline constexpr int kDefaultStrip = -1;

// Reads `text` (the content of `display_path`; errors are located in it)
// as `git apply` does. Lines before the first file are returned in
// `preamble` when given (terminators removed). False, with the reason, on
// anything git refuses to read: a hunk without a file header, a corrupt
// hunk (a count that disagrees with its lines, a line that is neither
// context, removed nor added, a missing final newline), a file header
// without a name, or no file at all.
bool ReadPatch(const std::string& display_path, const std::string& text, int strip,
               std::vector<FilePatch>* out, std::vector<Diagnostic>* errors,
               std::vector<std::string>* preamble = nullptr);

// ReadPatch with git's default -p.
bool ParsePatch(const std::string& display_path, const std::string& text,
                std::vector<FilePatch>* out, std::vector<Diagnostic>* errors,
                std::vector<std::string>* preamble = nullptr);

}  // namespace muh
