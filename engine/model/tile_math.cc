#include "engine/model/tile_math.h"

#include <algorithm>

namespace muh {

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

int64_t AttentionTileSmem(int64_t head_dim, int64_t block_m, int64_t block_n, int64_t stages,
                          int64_t bytes) {
  return bytes * head_dim * (block_m + 2 * block_n * stages);
}

int64_t GemmTileSmem(int64_t block_m, int64_t block_n, int64_t block_k, int64_t stages,
                     int64_t bytes) {
  int64_t operands = (block_m * block_k + block_k * block_n) * bytes * stages;
  return std::max(operands, block_m * block_n * bytes);
}

int64_t AttentionRegsPerThread(int64_t head_dim, int64_t block_m, int64_t block_n,
                               int64_t threads) {
  int64_t values = block_m * head_dim + 3 * block_m * block_n / 2 + block_n * head_dim / 2;
  return CeilDiv(values, threads) + kAttentionRegisterOverhead;
}

RegisterAllocation AllocateRegisters(int64_t need, int64_t threads, int64_t max_regs_per_thread,
                                     int64_t regs_per_cu) {
  int64_t cap = std::min(max_regs_per_thread, regs_per_cu / std::max<int64_t>(threads, 1));
  RegisterAllocation a;
  a.regs = std::min(std::max(need, kMinRegsPerThread), cap);
  a.spill = std::max<int64_t>(0, need - cap);
  return a;
}

double CausalWorkEfficiency(int64_t seq_len, int64_t block_m, int64_t block_n) {
  if (seq_len <= 0 || block_m <= 0 || block_n <= 0) return 0;
  double computed = 0;
  for (int64_t m = 0; m * block_m < seq_len; ++m) {
    int64_t cols = std::min(seq_len, (m + 1) * block_m);
    computed += static_cast<double>(CeilDiv(cols, block_n) * block_n * block_m);
  }
  double needed = static_cast<double>(seq_len) * static_cast<double>(seq_len + 1) / 2;
  return needed / computed;
}

int64_t GemmRegsPerThread(int64_t block_m, int64_t block_n, int64_t block_k, int64_t threads) {
  int64_t values = block_m * block_n + (block_m * block_k + block_k * block_n) / 2;
  return CeilDiv(values, threads) + kRegisterOverhead;
}

Occupancy BlocksPerCu(int64_t smem_per_block_used, int64_t smem_per_cu, int64_t regs_per_thread,
                      int64_t threads, int64_t regs_per_cu, int64_t max_threads_per_cu) {
  int64_t by_smem = smem_per_block_used > 0 ? smem_per_cu / smem_per_block_used : 1 << 20;
  int64_t by_regs = regs_per_cu / (regs_per_thread * threads);
  int64_t by_threads = max_threads_per_cu / threads;
  Occupancy o{by_smem, "shared memory"};
  if (by_regs < o.blocks) o = {by_regs, "registers"};
  if (by_threads < o.blocks) o = {by_threads, "threads"};
  return o;
}

Waves GridWaves(int64_t blocks, int64_t slots) {
  Waves w;
  if (blocks <= 0 || slots <= 0) return w;
  w.waves = CeilDiv(blocks, slots);
  w.tail_blocks = blocks - (w.waves - 1) * slots;
  w.efficiency = static_cast<double>(blocks) / static_cast<double>(w.waves * slots);
  return w;
}

}  // namespace muh
