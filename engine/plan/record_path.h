// A path as a patch's preamble records it (hand_tuned_record.h,
// left_record.h): a status line lists its records as `, `-separated
// entries after `; `-started parts, so a path holding `,` or `;` (or a line
// break, which would end the line) would split or cut its entry, and the
// site it names would go unwatched (a helper review of 68f0163). Those
// bytes, and `%` itself, are written as `%XX` (two upper-case hex digits);
// every other byte as is, so an ordinary path reads the same either way.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace muh {

std::string RecordPath(std::string_view path);

// The path RecordPath wrote; nullopt for a `%` not followed by two hex
// digits.
std::optional<std::string> ReadRecordPath(std::string_view recorded);

}  // namespace muh
