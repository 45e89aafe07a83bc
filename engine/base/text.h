// Small helpers on source text shared by the lexical scanners and reports.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <iterator>
#include <string_view>
#include <vector>

namespace muh {

// Whether `c` may be part of a Python identifier: an ASCII letter, digit or
// underscore, or any byte of a UTF-8 multi-byte sequence (>= 0x80).
// Whether `s` is one of `list` (a static table of names).
template <std::size_t N>
bool OneOf(std::string_view s, const std::string_view (&list)[N]) {
  return std::find(std::begin(list), std::end(list), s) != std::end(list);
}

bool IsWordChar(char c);

// `s` without leading and trailing whitespace (std::isspace, "C" locale).
std::string_view Trim(std::string_view s);

// The physical line of `src` that holds byte `offset`, trimmed (Trim).
std::string_view LineAround(std::string_view src, std::size_t offset);

// Calls visit(i, depth) for each byte `i` of `text` outside string quotes
// (a backslash escapes the next byte inside them), with the bracket depth
// after that byte; visit returns how many bytes to skip after it (0: none).
void ScanTopLevel(std::string_view text, const std::function<std::size_t(std::size_t, int)>& visit);

// The comma-separated items of `text` at bracket depth 0 (an argument
// list's inside), each trimmed; quotes and brackets are skipped over.
std::vector<std::string_view> SplitTopLevel(std::string_view text);

}  // namespace muh
