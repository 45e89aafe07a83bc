// A rule's `tiers:` block, checked: the rule's pattern is the statement that
// sets the knob in each clause of a chain `if V <= B1: … elif V <= B2: …
// else: …`, and one rule covers every tier. The plan reads each chain from
// the tree (engine/python/tier_chain.h), evaluates its bounds, and hands
// the templates two captures besides the pattern's: `@tier` (the clause,
// from 1) and `@bounds` (the chain's bounds, engine/model/moe_tiers.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/rules/template.h"

namespace muh {

struct TierSpec {
  std::string variable;  // `variable:` V
  // `means:` what V must count where the chain reads it (`M * topk`),
  // proved from the chain's function (variable_means.h); empty: unchecked.
  std::string means;
  std::vector<int64_t> bounds;  // `bounds:` what `muhpatch model` assumes without a tree
  // `bound-with:` the template written over each literal bound (a bound
  // computed from a module constant is never rewritten); empty: bounds stay.
  Template bound_with;
  bool has_bound_with = false;
  // `upstream:` the values the chain's tiers hold upstream, by tier; a
  // site holding one of them was not tuned by hand.
  std::vector<std::string> upstream;
};

// The captures a `tiers:` rule's templates may name besides its pattern's.
inline bool IsTierCapture(const std::string& name) { return name == "tier" || name == "bounds"; }

}  // namespace muh
