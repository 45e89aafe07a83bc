// Suggestions for typos: "did you mean ...?" in the CLI and the rule loader.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace muh {

// Levenshtein distance between two byte strings.
int EditDistance(std::string_view a, std::string_view b);

// The candidate closest to `word` if it is close enough to be a likely typo
// (distance at most a third of its length, and at least 1), else "".
// Ties go to the earlier candidate, so the result is deterministic.
std::string ClosestMatch(std::string_view word, const std::vector<std::string>& candidates);

// " (did you mean 'x'?)" or "" when nothing is close.
std::string DidYouMean(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace muh
