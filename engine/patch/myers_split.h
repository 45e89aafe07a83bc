// The middle-snake recursion of Myers' O(ND) diff, with the choices git's
// default diff makes: which path wins a tie, where a range is split, and the
// two shortcuts it takes once a range costs more than a few hundred lines.
// Pure; no I/O.
#pragma once

#include <cstddef>
#include <vector>

namespace muh {

// Marks with 1 every element of `a` and of `b` that is not on the edit path
// git's default (non-minimal) Myers diff finds between them; the elements
// are line ids, equal when the lines are equal. `a_changed` and
// `b_changed` have the sizes of `a` and `b` and start all 0. The path is a
// shortest one unless a range costs more than 256 (git's heuristics then
// cut it, as git does).
void MarkChanges(const std::vector<int>& a, const std::vector<int>& b, std::vector<char>* a_changed,
                 std::vector<char>* b_changed);

// A power of two near sqrt(n), rounded as git's xdl_bogosqrt rounds it;
// git sizes its limits with it.
std::size_t RoughSqrt(std::size_t n);

}  // namespace muh
