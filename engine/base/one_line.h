// Text shown on one line of a message, table or report: runs of blanks
// (spaces, tabs, line breaks) fold into one space, leading ones go, and the
// result is cut to at most `max` bytes, ending in "..." when cut.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace muh {

std::string OneLine(std::string_view text, std::size_t max);

}  // namespace muh
