// The per-knob derivations of the BI-V100 model. Each is a pure function of
// the hardware profile and the workload that returns the value together with
// its derivation (see derivation.h).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

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
// The attention cost model (autotune.cc), each judged and then checked
// against the H200 measurements (bench/probe/h200; calibration_test.cc):
// Rows of one warp's tensor-core instruction (mma m16, and a Hopper warpgroup
// of 4 warps covers 64 rows): fewer rows per warp leave the MMA part idle.
inline constexpr int64_t kMmaRowsPerWarp = 16;
// How many times each K/V byte from HBM is read by the blocks of a head (and
// the query heads of a GQA group) out of L2: divides the flop:byte balance.
inline constexpr double kL2Reuse = 4;
// Cost of the online softmax per key tile (rescaling the BM x D accumulator
// and the row statistics on the scalar units), in units of one BM x D x
// 1-key tensor-core step: amortized over BLOCK_N keys.
inline constexpr double kSoftmaxStepCost = 8;
// Memory latency a CU must cover with loads in flight (Little's law:
// hbm_bandwidth / compute_units x latency bytes in flight).
inline constexpr double kMemoryLatencyNs = 2400;
// Register pressure: above this share of the registers the compiler can give,
// it serialises loads and spills; the penalty is 1 / (1 + k x excess^2). 0.9,
// not lower: the fastest D256 tile on the H200 (128x64, 8 warps) compiled to
// 254 of 255 registers without a spill; the margin covers the estimate's error.
inline constexpr double kRegisterPressureStart = 0.9;
inline constexpr double kRegisterPressureWeight = 8;
// Occupancy: each warp's MMA -> softmax -> MMA chain is dependent, so a CU
// hides its latency only with other resident warps; below this share of
// max_threads_per_cu (4 warps per scheduler of a 4-scheduler H100/H200 SM)
// the latency shows. On the H200, 64x128 and 128x128 tiles at D64 (8 resident
// warps) ran 0.77-0.93 of 64x64 with 4 warps and 128x64 with 8 (16 warps).
inline constexpr double kOccupancyTarget = 0.25;
// The exposed latency at an idle CU, in units of one key step's full-rate MMA
// time: the step time grows by k x (1 - occupancy / kOccupancyTarget). Judged
// (softmax and MMA latencies are of the order of a quarter of a step); the
// replay keeps every first entry >= 0.90 for k from 0.15 to 0.7.
inline constexpr double kExposedLatencyCost = 0.25;
// Bytes of fp32 logits a paged-attention block keeps per context token.
inline constexpr int64_t kLogitBytes = 4;

Derivation DeriveStageLimit(const Profile& p);
Derivation DeriveSmemLimitBytes(const Profile& p);
Derivation DeriveSmemLimitKib(const Profile& p);
// Why the prefix-prefill kernel below SM80 cannot run BLOCK = `b` ("" when
// it can): not a power of two, a 16-bit or fp32 tile over smem_per_block,
// a half-tile below tl.dot's minimum, or no warp count that fits.
std::string PrefixBlockProblem(const Profile& p, const Workload& w, int64_t b);
// The fact a quantity reports as it is ("smem_per_block" for smem_limit_bytes
// and smem_limit_kib): the code a rule writes it into states that fact, so
// the value found there is the tree's value of the fact. "" for others.
std::string ReportedFact(std::string_view quantity);
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
