// The fused-MoE knobs of get_default_config: BLOCK_SIZE_M per numel tier and
// per dict, BLOCK_SIZE_N and BLOCK_SIZE_K per dict. Each is sized for the
// range of token-expert pairs where it applies, prefers tiles that fit at
// the stage limit (the dicts set no num_stages) and falls back to fewer
// stages, with a warning, only when none does, checks registers against the
// register file, and keeps enough CTAs for the compute units where the
// problem allows.
#pragma once

#include <cstdint>
#include <string>

#include "engine/model/derivation.h"
#include "engine/model/facts.h"
#include "engine/model/workload.h"

namespace muh {

// Warps of a fused-MoE launch: get_default_config's dicts set no num_warps,
// so Triton's default applies.
inline constexpr int64_t kMoeNumWarps = 4;

// Token-expert pairs the largest batch brings: max_batched_tokens * topk.
int64_t MoeMaxPairs(const Workload& w);

// BLOCK_SIZE_M for a tier or dict that serves more than `numel_lo` and at most
// `numel_hi` token-expert pairs (numel = tokens * topk).
Derivation DeriveMoeBlockM(const Profile& p, const Workload& w, int64_t numel_lo, int64_t numel_hi,
                           const std::string& quantity, const std::string& tier);

// BLOCK_SIZE_M for the tier `numel <= bound` of get_default_config: its range
// starts above the largest known tier bound below `bound` (workload
// moe_small_tier_max, moe_medium_tier_max) and is capped at MoeMaxPairs.
Derivation DeriveMoeTierBlockM(const Profile& p, const Workload& w, int64_t bound,
                               const std::string& quantity);

// BLOCK_SIZE_N or BLOCK_SIZE_K (`which` is 'n' or 'k') for a dict whose
// BLOCK_SIZE_M is `block_m` and that serves batches of at least `min_tokens`
// tokens.
Derivation DeriveMoeBlockNK(const Profile& p, const Workload& w, int64_t block_m,
                            int64_t min_tokens, const std::string& quantity, char which);

// Whether an M x N x K tile fits: the most stages up to the stage limit at
// which it fits shared memory, its registers, and the binding constraint
// when it does not fit.
struct MoeTileFit {
  int64_t stages = 0;   // the most stages that fit; 0: does not fit
  int64_t limit = 0;    // the stage limit (num_stages_max)
  int64_t smem = 0;     // at `stages` (or at 1 stage when it does not fit)
  int64_t regs = 0;     // per thread
  std::string problem;  // the binding constraint when it does not fit
};
MoeTileFit FitMoeTile(const Profile& p, const Workload& w, int64_t m, int64_t n, int64_t k);

}  // namespace muh
