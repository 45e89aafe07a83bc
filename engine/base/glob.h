// Tree-relative path globs for a rule's `files:`. `*` and `?` stay within
// one path segment, `**` spans any number of segments (including none),
// and `[...]` is a character class. Paths use '/'.
#pragma once

#include <string_view>

namespace muh {

bool GlobMatch(std::string_view pattern, std::string_view path);

// True when `pattern` has any glob metacharacter; a pattern without one
// names exactly one file, which must exist.
bool IsGlob(std::string_view pattern);

}  // namespace muh
