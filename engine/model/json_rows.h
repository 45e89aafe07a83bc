// Where the rows of a JSON document's top-level array member start, so that
// an error about a row can name its line and column (nlohmann::json keeps
// no positions). Pure: scans the text it is given.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace muh {

// Byte offsets of the elements of the array that the top-level object's
// member `key` holds, in order; empty when the text has no such array. The
// text is assumed to be JSON that parses: the scan does not validate it.
std::vector<std::size_t> ArrayElementOffsets(std::string_view text, std::string_view key);

}  // namespace muh
