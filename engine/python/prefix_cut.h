// Where a Python file may be cut so that the parse of the part before the
// cut reads that part as the whole file's parse does. A candidate is the
// start of a line that begins at column 0 with code (not a blank, a
// comment, a closing bracket, or `else`/`elif`/`except`/`finally`, which
// continue the statement before), after a line that does not end in a
// backslash, and not after a decorator. A candidate inside a string or
// brackets that opened before it leaves the prefix unterminated, and the
// prefix's parse then has an error: so a prefix that parses without one
// ends where a top-level statement of the whole file begins, and its
// statements are the whole file's first statements, byte for byte
// (prefix_cut_test checks this on every candidate of the fixtures and of
// the real tree). The caller must parse and check; a cut proves nothing
// by itself.
#pragma once

#include <cstddef>
#include <string_view>

namespace muh {

// The first candidate cut after the line holding `offset`; src.size() when
// there is none.
std::size_t PrefixCutAfter(std::string_view src, std::size_t offset);

}  // namespace muh
