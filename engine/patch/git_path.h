// Paths in diff headers, quoted as git quotes them: a path holding a double
// quote, a backslash or a control byte is written in double quotes with C
// escapes (`"a/x\ty.py"`); any other path is written as it is (bytes above
// 0x7f too, which git apply and patch read either way).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace muh {

// `path` (already prefixed with a/ or b/) as a diff header writes it.
std::string QuoteGitPath(std::string_view path);

// Reads one quoted header name (from its opening to its closing quote) at
// the start of `text`, decoding its escapes. Sets `*used` to the bytes read.
// nullopt when `text` does not start with a well-formed quoted name.
std::optional<std::string> UnquoteGitPath(std::string_view text, std::size_t* used);

}  // namespace muh
