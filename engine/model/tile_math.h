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

// Estimated 32-bit registers per thread a flash-attention tile asks for: the
// fp32 accumulator (BM*D), the fp32 scores and their fp16 copy for the second
// dot (1.5*BM*BN), a K or V fragment (BN*D fp16, half a register each),
// spread over the threads, plus kAttentionRegisterOverhead for addresses,
// loop state and softmax statistics. Fitted to the n_regs Triton 3.6 compiled
// for 1909 attention kernels (bench/probe/h200): Q stays in shared memory (a
// Q term overshot every large tile).
int64_t AttentionRegsPerThread(int64_t head_dim, int64_t block_m, int64_t block_n, int64_t threads);
inline constexpr int64_t kRegisterOverhead = 32;
inline constexpr int64_t kAttentionRegisterOverhead = 40;
inline constexpr int64_t kMinRegsPerThread = 128;

// What the compiler gives a kernel of `threads` threads that needs `need`
// registers per thread: at least kMinRegsPerThread (it spends them on small
// tiles anyway: unrolled loads, addresses), at most max_regs_per_thread, and
// few enough that one block fits the register file (Triton compiles with the
// block size as launch bound); what does not fit spills to local memory.
struct RegisterAllocation {
  int64_t regs = 0;   // allocated per thread
  int64_t spill = 0;  // registers per thread that spill
};
RegisterAllocation AllocateRegisters(int64_t need, int64_t threads, int64_t max_regs_per_thread,
                                     int64_t regs_per_cu);

// Share of a causal attention tile's work that is not masked: the L*(L+1)/2
// query-key pairs over the BM*BN tiles the kernel computes (each query block
// runs over whole BN tiles up to the diagonal).
double CausalWorkEfficiency(int64_t seq_len, int64_t block_m, int64_t block_n);

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
