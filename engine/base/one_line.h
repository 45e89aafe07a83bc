// Text shown on one line of a message, table or report: runs of blanks
// (spaces, tabs, line breaks) fold into one space, leading ones go, and the
// result is cut to at most `max` bytes, ending in "..." when cut.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace muh {

std::string OneLine(std::string_view text, std::size_t max);

// The same for text whose blanks matter (a patch line, a value compared
// byte for byte): trailing line breaks go, the others become spaces, and
// every other byte is kept.
std::string OneLineExact(std::string_view text, std::size_t max);

}  // namespace muh
