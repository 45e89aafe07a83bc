// Git-style unified diffs of one file, as `git apply` and `patch -p1` accept.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace muh {

// Unchanged lines shown around each change; changes separated by at most
// twice this many unchanged lines share a hunk.
inline constexpr std::size_t kContextLines = 3;

// Returns the git-style unified diff turning `old_text` into `new_text` for the
// tree-relative `path`, or "" when they are byte-identical. The diff starts
// with `diff --git a/PATH b/PATH`, `--- a/PATH` and `+++ b/PATH` (no index or
// timestamps; PATH is quoted as git quotes it, see git_path.h) and always describes a modification
// of an existing file, even when either text is empty. Lines are split after '\n' and compared and
// emitted byte for byte ("\r\n" included); a last line without '\n' is followed by `\ No newline at
// end of file`. Hunk headers are
// `@@ -S,C +S,C @@` as git prints them. The edit script is minimal and
// deterministic (see DiffLines).
std::string UnifiedDiff(std::string_view path, std::string_view old_text,
                        std::string_view new_text);

}  // namespace muh
