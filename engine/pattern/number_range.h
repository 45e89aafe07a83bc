// A `where:` range on a metavariable (`range: [1, 4096]`) as a regular
// expression over the decimal text of a Python integer literal, which the
// pattern's constraint on the metavariable checks (pattern_node.h).
#pragma once

#include <cstdint>
#include <string>

namespace muh {

// An RE2 expression that matches exactly the decimal integers from `lo` to
// `hi` (0 <= lo <= hi), written without sign, leading zeros or
// underscores, e.g. 8..12 gives `^(?:[8-9]|1[0-2])$`.
std::string DecimalRangeRegex(std::uint64_t lo, std::uint64_t hi);

}  // namespace muh
