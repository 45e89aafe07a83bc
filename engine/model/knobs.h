// The per-knob derivations of the BI-V100 model. Each is a pure function of
// the hardware profile and the workload that returns the value together with
// its derivation (see derivation.h).
#pragma once

#include <cstdint>

#include "engine/model/derivation.h"
#include "engine/model/facts.h"
#include "engine/model/workload.h"

namespace muh {

// Minimum M, N and K of Triton's tl.dot.
inline constexpr int64_t kMinDotSize = 16;
// A thread should own at least this many elements of the attention score
// tile on the main (fp16/bf16) path; fewer leaves lanes idle in the softmax.
inline constexpr int64_t kMinScoresPerThread = 4;
// Blocks we want resident per compute unit for latency hiding (v2 partitions).
inline constexpr int64_t kTargetResidentBlocks = 2;
// Threads we want resident per compute unit to hide memory latency (an
// assumption: eight 64-wide warps, as on the reference card).
inline constexpr int64_t kTargetResidentThreads = 512;
// Bytes of fp32 logits a paged-attention block keeps per context token.
inline constexpr int64_t kLogitBytes = 4;

Derivation DeriveStageLimit(const Profile& p);
Derivation DeriveSmemLimitBytes(const Profile& p);
Derivation DeriveSmemLimitKib(const Profile& p);
Derivation DeriveV1MaxContext(const Profile& p, const Workload& w);
Derivation DeriveV1MinWork(const Profile& p, const Workload& w);
Derivation DerivePartitionSize(const Profile& p, const Workload& w);
Derivation DerivePrefixBlock(const Profile& p, const Workload& w);
// `block` is the derived prefix-prefill BLOCK.
Derivation DerivePrefixNumWarps(const Profile& p, const Workload& w, int64_t block);
// The fused-MoE knobs are in moe_knobs.h.

// The largest power of two <= v (1 for v < 2).
int64_t FloorPow2(int64_t v);

}  // namespace muh
