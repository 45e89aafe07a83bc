// The value of a tier chain's bound (tier_chain.h) as the code computes it:
// a whole number, or integer arithmetic (`*`, `//`, `%`, `+`, `-`,
// parentheses) over module-level constants that are themselves such
// expressions (`_BI100_MAX_BLOCKS * 64` with `_BI100_MAX_BLOCKS = 160`).
// Pure: the constants come as text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace muh {

struct TierBoundValue {
  int64_t value = 0;
  bool literal = false;            // written as a whole number: a literal to rewrite
  std::vector<std::string> names;  // the constants it was computed from, in order
  std::string error;               // "" when evaluated
};

// A module-level name a rewrite's proof reads as fixed for a run, and the
// byte the rewrite is at: a constant a tier bound was computed from (the
// bound's first byte), or a name or attribute the condition of a wrap
// reads (`current_platform`, `has_device_capability`; the wrapped value's
// first byte). Another module must not rebind it (rebound_constants.h).
struct BoundConstant {
  std::string name;
  std::size_t bound_at = 0;
  bool in_wrap = false;
  bool kept = false;  // a hand-tuned value kept at the site names it
  bool site = false;  // the site is this module constant's value
};

// Evaluates `text` with `constants` (name -> its value's text). A name
// without a constant, a call, an attribute, a comparison or a chain of
// constants deeper than 8 is an error that names it.
TierBoundValue EvaluateTierBound(std::string_view text,
                                 const std::map<std::string, std::string>& constants);

}  // namespace muh
