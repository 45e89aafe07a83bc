// The arithmetic under every derived value: shared memory of a tile,
// registers per thread, occupancy, and how a grid falls into waves over the
// compute units. Pure functions of integers; the formulas are SPEC's.
#pragma once

#include <cstdint>
#include <string>

namespace muh {

// Upper bound on an attention tile's shared memory, which held for all 274
// tiles Triton 3.6 compiled in our measurement (exact for 86):
//   bytes * D * (BM + 2 * BN * stages)
int64_t AttentionTileSmem(int64_t head_dim, int64_t block_m, int64_t block_n, int64_t stages,
                          int64_t bytes);

// A GEMM tile: operands (BM*BK + BK*BN) * bytes * stages, but never below the
// epilogue's layout-conversion scratch BM * BN * bytes.
int64_t GemmTileSmem(int64_t block_m, int64_t block_n, int64_t block_k, int64_t stages,
                     int64_t bytes);

// Estimated 32-bit registers per thread of a flash-attention tile: the fp32
// accumulator (BM*D), the Q tile (BM*D fp16 values, two per register), the
// score tile (BM*BN fp32), spread over the threads, plus a fixed overhead for
// addresses, loop state and softmax statistics.
int64_t AttentionRegsPerThread(int64_t head_dim, int64_t block_m, int64_t block_n, int64_t threads);
inline constexpr int64_t kRegisterOverhead = 32;

// Estimated 32-bit registers per thread of a GEMM tile: the fp32 accumulator
// (BM*BN) and the A and B operand tiles (fp16, two per register) spread over
// the threads, plus the same fixed overhead.
int64_t GemmRegsPerThread(int64_t block_m, int64_t block_n, int64_t block_k, int64_t threads);

// Blocks of one kernel resident on a compute unit at once, limited by shared
// memory (one block's worth per CU is all we know), registers and threads.
struct Occupancy {
  int64_t blocks = 0;
  const char* limited_by = "";  // "shared memory", "registers", "threads"
};
Occupancy BlocksPerCu(int64_t smem_per_block_used, int64_t smem_per_cu, int64_t regs_per_thread,
                      int64_t threads, int64_t regs_per_cu, int64_t max_threads_per_cu);

// A grid of `blocks` over `slots` = compute units * resident blocks:
// waves = ceil(blocks / slots); efficiency = blocks / (waves * slots).
struct Waves {
  int64_t waves = 0;
  int64_t tail_blocks = 0;  // blocks in the last wave
  double efficiency = 0;
};
Waves GridWaves(int64_t blocks, int64_t slots);

int64_t CeilDiv(int64_t a, int64_t b);

}  // namespace muh
