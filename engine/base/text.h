// Small helpers on source text shared by the lexical scanners and reports.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace muh {

// Whether `c` may be part of a Python identifier: an ASCII letter, digit or
// underscore, or any byte of a UTF-8 multi-byte sequence (>= 0x80).
bool IsWordChar(char c);

// `s` without leading and trailing whitespace (std::isspace, "C" locale).
std::string_view Trim(std::string_view s);

// The physical line of `src` that holds byte `offset`, trimmed (Trim).
std::string_view LineAround(std::string_view src, std::size_t offset);

// The comma-separated items of `text` at bracket depth 0 (an argument
// list's inside), each trimmed; quotes and brackets are skipped over.
std::vector<std::string_view> SplitTopLevel(std::string_view text);

}  // namespace muh
