#include "engine/model/knobs.h"

#include <fmt/format.h>

#include <algorithm>

#include "engine/model/tile_math.h"

namespace muh {

namespace {

int64_t Fact64(const Profile& p, const char* name) { return static_cast<int64_t>(p.Get(name)); }

int64_t FloorPow2(int64_t v) {
  int64_t r = 1;
  while (r * 2 <= v) r *= 2;
  return r;
}

}  // namespace

Derivation DeriveStageLimit(const Profile& p) {
  Derivation d = NewDerivation("num_stages_max", "min(max_stages, 2 if compute_capability < 8)");
  d.UseFact(*p.Find("max_stages"));
  d.UseFact(*p.Find("compute_capability"));
  int64_t stages = Fact64(p, "max_stages");
  if (p.Get("compute_capability") < 8.0 && stages > 2) {
    stages = 2;
    d.decided_by = "Iluvatar's Triton prunes num_stages to {1, 2} below compute capability 8";
  } else {
    d.decided_by = "the max_stages fact";
  }
  d.value = std::to_string(stages);
  return d;
}

Derivation DeriveSmemLimitBytes(const Profile& p) {
  Derivation d = NewDerivation("smem_limit_bytes", "smem_per_block");
  d.UseFact(*p.Find("smem_per_block"));
  d.value = std::to_string(Fact64(p, "smem_per_block"));
  d.decided_by = "reported as-is: Triton sizes every kernel against this limit";
  return d;
}

Derivation DeriveSmemLimitKib(const Profile& p) {
  Derivation d = DeriveSmemLimitBytes(p);
  d.quantity = "smem_limit_kib";
  d.formula = "smem_per_block / 1024 (written as N * 1024, the file's style)";
  int64_t bytes = Fact64(p, "smem_per_block");
  if (bytes % 1024 != 0) {
    d.error = fmt::format("smem_per_block = {} is not a whole number of KiB; use smem_limit_bytes",
                          bytes);
    d.value.clear();
  } else {
    d.value = std::to_string(bytes / 1024);
  }
  return d;
}

Derivation DeriveV1MaxContext(const Profile& p, const Workload& w) {
  Derivation d =
      NewDerivation("v1_max_context",
                    "floor_pow2((smem_per_block - scratch) / 4), scratch = 2 * head_dim_max * 4");
  d.UseFact(*p.Find("smem_per_block"));
  int64_t dmax = w.Get("head_dim_max");
  d.UseInput("head_dim_max", dmax, "workload");
  int64_t scratch = 2 * dmax * 4;
  int64_t room = (Fact64(p, "smem_per_block") - scratch) / kLogitBytes;
  int64_t v = FloorPow2(std::max<int64_t>(room, 1));
  d.value = std::to_string(v);
  d.decided_by = fmt::format(
      "v1 keeps {} bytes of fp32 logits per context token in shared memory: ({} - {}) / {} = {} "
      "tokens fit; rounded down to a power of two",
      kLogitBytes, Fact64(p, "smem_per_block"), scratch, kLogitBytes, room);
  d.rejected.push_back({std::to_string(v * 2), fmt::format("{} tokens of logits need {} bytes",
                                                           v * 2, v * 2 * kLogitBytes + scratch)});
  return d;
}

Derivation DeriveV1MinWork(const Profile& p, const Workload& w) {
  Derivation d = NewDerivation("v1_min_work", "compute_units * resident v1 blocks per CU");
  d.UseFact(*p.Find("compute_units"));
  d.UseFact(*p.Find("smem_per_block"));
  int64_t ctx = std::stoll(DeriveV1MaxContext(p, w).value);
  int64_t per_block = ctx * kLogitBytes + 2 * w.Get("head_dim_max") * 4;
  int64_t resident = std::max<int64_t>(1, Fact64(p, "smem_per_block") / per_block);
  int64_t v = Fact64(p, "compute_units") * resident;
  d.value = std::to_string(v);
  d.decided_by = fmt::format(
      "v1 launches one block per (sequence, head); at a {}-token context a block holds {} bytes, "
      "so "
      "{} fit per CU and {} x {} = {} blocks fill the device; fewer leave CUs idle, and v2's "
      "partitions help",
      ctx, per_block, resident, Fact64(p, "compute_units"), resident, v);
  return d;
}

Derivation DerivePartitionSize(const Profile& p, const Workload& w) {
  Derivation d =
      NewDerivation("partition_size",
                    "largest power of two P in [256, 8192] with P * 4 <= smem_per_block / 2 and "
                    "num_q_heads * ceil(v1_max_context / P) >= compute_units");
  d.UseFact(*p.Find("smem_per_block"));
  d.UseFact(*p.Find("compute_units"));
  d.UseInput("num_q_heads", w.Get("num_q_heads"), "workload");
  int64_t smem = Fact64(p, "smem_per_block");
  int64_t cus = Fact64(p, "compute_units");
  int64_t heads = w.Get("num_q_heads");
  int64_t ctx = std::stoll(DeriveV1MaxContext(p, w).value);
  for (int64_t pp = 8192; pp >= 256; pp /= 2) {
    if (pp * kLogitBytes > smem / kTargetResidentBlocks) {
      d.rejected.push_back(
          {std::to_string(pp),
           fmt::format("{} bytes of logits exceed half of {} (two resident blocks)",
                       pp * kLogitBytes, smem)});
      continue;
    }
    if (heads * CeilDiv(ctx, pp) < cus) {
      d.rejected.push_back({std::to_string(pp),
                            fmt::format("{} heads x {} partitions of a {}-token context leave some "
                                        "of {} CUs idle",
                                        heads, CeilDiv(ctx, pp), ctx, cus)});
      continue;
    }
    d.value = std::to_string(pp);
    d.decided_by = fmt::format(
        "the largest partition whose logits ({} bytes) leave room for {} resident blocks; fewer, "
        "longer partitions mean less cross-partition reduction",
        pp * kLogitBytes, kTargetResidentBlocks);
    return d;
  }
  d.error = "no partition size satisfies the constraints";
  return d;
}

Derivation DerivePrefixBlock(const Profile& p, const Workload& w) {
  Derivation d = NewDerivation(
      "prefix_block_below_sm80",
      "largest B in {128, 64, 32, 16} with bytes*D*(B + 2*B) <= smem_per_block (fp16, one "
      "stage, BLOCK_M = BLOCK_N = B) and, for the fp32 halving, B/2 >= 16 and "
      "4*D*(B/2 + B) <= smem_per_block");
  d.UseFact(*p.Find("smem_per_block"));
  int64_t dmax = w.Get("head_dim_max");
  int64_t bytes = w.Get("dtype_bytes");
  d.UseInput("head_dim_max", dmax, "workload");
  d.UseInput("dtype_bytes", bytes, "workload");
  int64_t smem = Fact64(p, "smem_per_block");
  for (int64_t b : {128, 64, 32, 16}) {
    int64_t main = AttentionTileSmem(dmax, b, b, 1, bytes);
    if (main > smem) {
      d.rejected.push_back({std::to_string(b), fmt::format("{}*{}*({} + 2*{}) = {} bytes > {}",
                                                           bytes, dmax, b, b, main, smem)});
      continue;
    }
    int64_t half = b / 2;
    if (half < kMinDotSize) {
      d.rejected.push_back(
          {std::to_string(b),
           fmt::format("the fp32 path halves it to {}, below tl.dot's minimum of {}", half,
                       kMinDotSize)});
      continue;
    }
    int64_t fp32 = AttentionTileSmem(dmax, half, half, 1, 4);
    if (fp32 > smem) {
      d.rejected.push_back(
          {std::to_string(b), fmt::format("the fp32 tile 4*{}*({} + 2*{}) = {} bytes > {}", dmax,
                                          half, half, fp32, smem)});
      continue;
    }
    d.value = std::to_string(b);
    d.decided_by = fmt::format(
        "largest tile that fits: {}*{}*({} + 2*{}) = {} <= {} bytes; fp32 halves it to {} using {} "
        "bytes",
        bytes, dmax, b, b, main, smem, half, fp32);
    return d;
  }
  d.error = fmt::format(
      "no BLOCK fits head_dim_max = {} in {} bytes while keeping the fp32 half-tile >= {}; lower "
      "head_dim_max in the rule file's workload or measure smem_per_block",
      dmax, smem, kMinDotSize);
  return d;
}

Derivation DerivePrefixNumWarps(const Profile& p, const Workload& w, int64_t block) {
  Derivation d = NewDerivation(
      "prefix_num_warps_below_sm80",
      "largest W in {16, 8, 4, 2, 1} with W*warp_size <= max_threads_per_block, "
      "B*B/(W*warp_size) >= 4 scores per thread, the fp32 half-tile keeping every thread "
      "busy, and the register estimate <= max_regs_per_thread");
  d.UseFact(*p.Find("warp_size"));
  d.UseFact(*p.Find("max_threads_per_block"));
  d.UseFact(*p.Find("max_regs_per_thread"));
  d.UseInput("BLOCK", block, "prefix_block_below_sm80");
  int64_t warp = Fact64(p, "warp_size");
  int64_t dmax = w.Get("head_dim_max");
  for (int64_t wn : {16, 8, 4, 2, 1}) {
    int64_t threads = wn * warp;
    std::string v = std::to_string(wn);
    if (threads > Fact64(p, "max_threads_per_block")) {
      d.rejected.push_back({v, fmt::format("{} threads > max_threads_per_block", threads)});
      continue;
    }
    int64_t scores = block * block / threads;
    if (scores < kMinScoresPerThread) {
      d.rejected.push_back(
          {v, fmt::format("{}x{} scores over {} threads is {} per thread, below {}", block, block,
                          threads, scores, kMinScoresPerThread)});
      continue;
    }
    int64_t half = block / 2;
    if (half * half < threads) {
      d.rejected.push_back({v, fmt::format("the fp32 {}x{} tile leaves threads idle", half, half)});
      continue;
    }
    int64_t regs = AttentionRegsPerThread(dmax, block, block, threads);
    if (regs > Fact64(p, "max_regs_per_thread")) {
      d.rejected.push_back({v, fmt::format("~{} registers per thread", regs)});
      continue;
    }
    d.value = v;
    d.decided_by = fmt::format(
        "most warps that still give each of {} threads {} scores of the {}x{} tile (~{} registers "
        "per thread at head dim {})",
        threads, scores, block, block, regs, dmax);
    return d;
  }
  d.error = "no warp count satisfies the constraints";
  return d;
}

Derivation DeriveMoeBlockM(const Profile& p, const Workload& w, int64_t numel,
                           const std::string& quantity, const std::string& tier) {
  Derivation d = NewDerivation(
      quantity,
      "smallest M in {16, 32, 64, 128, 256} >= numel / num_experts (token-expert pairs per "
      "expert), capped by GEMM shared memory max((M*K + K*N)*bytes*stages, M*N*bytes) <= "
      "smem_per_block at N = 64, K = 32");
  d.UseFact(*p.Find("smem_per_block"));
  d.UseFact(*p.Find("max_stages"));
  int64_t experts = w.Get("num_experts");
  d.UseInput("numel", numel, tier);
  d.UseInput("num_experts", experts, "workload");
  int64_t per_expert = CeilDiv(numel, experts);
  int64_t stages = std::stoll(DeriveStageLimit(p).value);
  int64_t smem = Fact64(p, "smem_per_block");
  int64_t bytes = w.Get("dtype_bytes");
  int64_t chosen = 0;
  for (int64_t m : {16, 32, 64, 128, 256}) {
    int64_t need = GemmTileSmem(m, 64, 32, stages, bytes);
    if (need > smem) {
      d.rejected.push_back(
          {std::to_string(m), fmt::format("the tile needs {} bytes > {}", need, smem)});
      break;
    }
    chosen = m;
    if (m >= per_expert) break;
  }
  for (int64_t m : {16, 32, 64, 128, 256}) {
    if (m < chosen) {
      d.rejected.push_back(
          {std::to_string(m), fmt::format("smaller than the {} pairs per expert: more "
                                          "tiles per expert",
                                          per_expert)});
    } else if (m > chosen && m < 512 && GemmTileSmem(m, 64, 32, stages, bytes) <= smem &&
               chosen >= per_expert) {
      d.rejected.push_back(
          {std::to_string(m), fmt::format("pads {} pairs per expert to {} rows", per_expert, m)});
    }
  }
  if (chosen == 0) {
    d.error = "no BLOCK_SIZE_M fits in shared memory";
    return d;
  }
  d.value = std::to_string(chosen);
  d.decided_by = fmt::format(
      "{}: up to {} token-expert pairs over {} experts is {} per expert; {} rows cover them "
      "with the least padding{}",
      tier, numel, experts, per_expert, chosen,
      chosen < per_expert ? " that fits shared memory" : "");
  return d;
}

Derivation DeriveMoeBlockNK(const Profile& p, const Workload& w, int64_t block_m,
                            const std::string& quantity, char which) {
  Derivation d = NewDerivation(
      quantity,
      "largest N in {128, 64, 32}, then K in {64, 32}, with max((M*K + K*N)*bytes*stages, "
      "M*N*bytes) <= smem_per_block; only the Triton path reads N and K (ixformer ignores "
      "them)");
  d.UseFact(*p.Find("smem_per_block"));
  d.UseInput("BLOCK_SIZE_M", block_m, "derived for this dict");
  int64_t stages = std::stoll(DeriveStageLimit(p).value);
  int64_t smem = Fact64(p, "smem_per_block");
  int64_t bytes = w.Get("dtype_bytes");
  for (int64_t n : {128, 64, 32}) {
    for (int64_t k : {64, 32}) {
      int64_t need = GemmTileSmem(block_m, n, k, stages, bytes);
      std::string label = fmt::format("N={} K={}", n, k);
      if (need > smem) {
        d.rejected.push_back(
            {label, fmt::format("{} bytes at {} stages > {}", need, stages, smem)});
        continue;
      }
      d.value = std::to_string(which == 'n' ? n : k);
      d.decided_by = fmt::format("{}x{}x{} at {} stages needs {} bytes <= {}", block_m, n, k,
                                 stages, need, smem);
      return d;
    }
  }
  d.error = "no N/K fits in shared memory";
  return d;
}

}  // namespace muh
