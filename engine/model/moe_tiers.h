// The fused-MoE BLOCK_SIZE_M tier family: get_default_config's chain
// `if numel <= B1: … elif numel <= B2: … else: …`, sized as a whole. Each
// tier's BLOCK_SIZE_M is sized for the range of token-expert pairs the code
// gives it (DeriveMoeBlockM). With measurements at points of numel that
// cover at least as many points as there are tiers, and every bound a
// literal, the bounds and the values are chosen together (tier_split.h); a
// bound computed from a module constant is never moved, so then only the
// values are chosen, each from the points inside its tier.
//
// The rule file's functions `moe_block_m_tier(@tier, @bounds)` and
// `moe_tier_bound(@tier, @bounds)` reach it: `tier` is the 1-based tier (or
// bound) index, `bounds` the chain's bounds as the plan read them, ascending
// and space-separated, a computed one marked with a trailing `*`, and
// `else` last when the chain ends with an `else` ("64 1024 else").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/model/derivation.h"
#include "engine/model/facts.h"
#include "engine/model/tier_split.h"
#include "engine/model/workload.h"

namespace muh {

inline constexpr char kMoeTierKnob[] = "moe_block_m_tier";
inline constexpr char kMoeTierBoundKnob[] = "moe_tier_bound";

struct TierChainShape {
  std::vector<int64_t> bounds;
  std::vector<bool> computed;  // parallel to bounds
  bool has_else = false;
  // "numel <= 64", "64 < numel <= 1024", "numel > 1024": tier i's condition.
  std::string Describe(std::size_t tier) const;
  // The `@bounds` text that ParseTierChain reads back.
  std::string Text() const;
};

// Reads `@bounds`; false with `error` when it is malformed.
bool ParseTierChain(const std::string& text, TierChainShape* out, std::string* error);

// Measured points of numel for the family, and where they come from.
struct MoeTierMeasurements {
  std::string path;
  std::vector<TierPoint> points;  // ascending
};

struct MoeTierFamily {
  std::vector<Derivation> values;  // per tier
  std::vector<Derivation> bounds;  // per bound: the value to write there
};

MoeTierFamily DeriveMoeTiers(const Profile& p, const Workload& w, const TierChainShape& chain,
                             const MoeTierMeasurements* measured);

}  // namespace muh
