#include "engine/model/moe_knobs.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "engine/model/knobs.h"
#include "engine/model/tile_math.h"

namespace muh {

namespace {

int64_t Fact64(const Profile& p, const char* name) { return static_cast<int64_t>(p.Get(name)); }

constexpr int64_t kBlockMs[] = {16, 32, 64, 128, 256};
// The smallest N and K a dict may take: BLOCK_SIZE_M must leave room for them.
constexpr int64_t kMinNK = 32;
// A BLOCK_SIZE_M whose M x 64 x 32 tile (64: the middle of the dicts' N)
// needs more than this share of max_regs_per_thread leaves too few registers
// for the pipelined operand loads: on the H200, M = 256 reached 0.82 (w1) and
// 0.79 (w2) of the best at 4096 tokens, where 128 reached 1.0 and 0.98.
constexpr int64_t kRegCheckN = 64;
constexpr double kMaxRegisterShare = 0.5;

// Rows one expert's GEMM gets when `numel` pairs spread over the experts.
int64_t RowsPerExpert(int64_t numel, int64_t experts) {
  return CeilDiv(numel, std::max<int64_t>(1, std::min(experts, numel)));
}

// M-tiles of a batch of `numel` pairs: every active expert pads its rows to
// whole tiles (moe_align_block_size).
int64_t MTiles(int64_t numel, int64_t experts, int64_t block_m) {
  int64_t active = std::max<int64_t>(1, std::min(experts, numel));
  return active * CeilDiv(RowsPerExpert(numel, experts), block_m);
}

}  // namespace

int64_t MoeMaxPairs(const Workload& w) { return w.Get("max_batched_tokens") * w.Get("topk"); }

MoeTileFit FitMoeTile(const Profile& p, const Workload& w, int64_t m, int64_t n, int64_t k) {
  MoeTileFit f;
  int64_t limit = std::stoll(DeriveStageLimit(p).value);
  f.limit = limit;
  int64_t bytes = w.Get("dtype_bytes");
  int64_t smem = Fact64(p, "smem_per_block");
  int64_t threads = kMoeNumWarps * Fact64(p, "warp_size");
  f.regs = GemmRegsPerThread(m, n, k, threads);
  f.smem = GemmTileSmem(m, n, k, 1, bytes);
  for (int64_t s = limit; s >= 1; --s) {
    int64_t need = GemmTileSmem(m, n, k, s, bytes);
    if (need <= smem) {
      f.stages = s;
      f.smem = need;
      break;
    }
  }
  if (f.stages == 0) {
    f.problem = fmt::format(
        "shared memory: {}x{}x{} needs {} bytes even at 1 stage > "
        "smem_per_block = {}",
        m, n, k, f.smem, smem);
  } else if (f.regs > Fact64(p, "max_regs_per_thread")) {
    f.problem = fmt::format("registers: ~{} per thread of {} > max_regs_per_thread = {}", f.regs,
                            threads, Fact64(p, "max_regs_per_thread"));
  } else if (f.regs * threads > Fact64(p, "regs_per_cu")) {
    f.problem = fmt::format("register file: ~{} registers x {} threads = {} > regs_per_cu = {}",
                            f.regs, threads, f.regs * threads, Fact64(p, "regs_per_cu"));
  }
  if (!f.problem.empty()) f.stages = 0;
  return f;
}

Derivation DeriveMoeBlockM(const Profile& p, const Workload& w, int64_t numel_lo, int64_t numel_hi,
                           const std::string& quantity, const std::string& tier) {
  Derivation d = NewDerivation(
      quantity,
      "smallest M in {16, 32, 64, 128, 256} >= the rows per expert at the geometric middle of "
      "the tier's range of token-expert pairs, among tiles M x 32 x 32 that fit "
      "max((M*K + K*N)*bytes*stages, M*N*bytes) <= smem_per_block at some stages <= the limit "
      "and whose registers fit, the M x 64 x 32 tile within half of max_regs_per_thread");
  d.consumer =
      "ixformer's fused MoE, a prebuilt kernel: the fork's invoke_fused_moe_kernel hands it the "
      "config and returns before its Triton launch, so the tile facts below are Triton's, "
      "assumed for ixformer; the owner's probe measures the card instead "
      "(run_kernels.py probe --backend tree: muhpatch(1), FILES)";
  for (const char* f :
       {"smem_per_block", "max_stages", "warp_size", "max_regs_per_thread", "regs_per_cu"}) {
    d.UseFact(*p.Find(f));
  }
  int64_t experts = w.Get("num_experts");
  d.UseInput("num_experts", experts, "workload");
  int64_t lo = numel_lo + 1;
  int64_t hi = std::max(numel_hi, lo);
  std::string reach =
      numel_hi < lo
          ? fmt::format(" (never reached: the largest batch brings {} pairs)", MoeMaxPairs(w))
          : "";
  d.UseInput("numel from", lo, tier);
  d.UseInput("numel to", hi, "min(tier bound, max_batched_tokens * topk)");
  int64_t mid = static_cast<int64_t>(
      std::llround(std::sqrt(static_cast<double>(lo) * static_cast<double>(hi))));
  int64_t rows = RowsPerExpert(mid, experts);
  d.sized_for = fmt::format("{} to {} token-expert pairs{} ({} to {} rows per expert)", lo, hi,
                            reach, RowsPerExpert(lo, experts), RowsPerExpert(hi, experts));
  // Tiles that fit at the stage limit first; fewer stages only when none does.
  std::vector<std::pair<int64_t, MoeTileFit>> fits;
  std::string smallest_problem;
  for (int64_t m : kBlockMs) {
    MoeTileFit f = FitMoeTile(p, w, m, kMinNK, kMinNK);
    int64_t threads = kMoeNumWarps * Fact64(p, "warp_size");
    int64_t wide_regs = GemmRegsPerThread(m, kRegCheckN, kMinNK, threads);
    double reg_budget = kMaxRegisterShare * static_cast<double>(Fact64(p, "max_regs_per_thread"));
    if (f.stages == 0) {
      if (smallest_problem.empty()) smallest_problem = f.problem;
      d.rejected.push_back({std::to_string(m), f.problem});
    } else if (!fits.empty() && static_cast<double>(wide_regs) > reg_budget) {
      d.rejected.push_back(
          {std::to_string(m),
           fmt::format("register pressure: ~{} registers per thread at {}x{}x{} over {} threads "
                       "> {} x max_regs_per_thread",
                       wide_regs, m, kRegCheckN, kMinNK, threads, kMaxRegisterShare)});
    } else {
      fits.emplace_back(m, f);
    }
  }
  if (fits.empty()) {
    d.error = "no BLOCK_SIZE_M fits: " + smallest_problem;
    return d;
  }
  bool any_at_limit = std::any_of(fits.begin(), fits.end(),
                                  [](const auto& c) { return c.second.stages == c.second.limit; });
  if (any_at_limit) {
    for (auto it = fits.begin(); it != fits.end();) {
      if (it->second.stages == it->second.limit) {
        ++it;
        continue;
      }
      d.rejected.push_back(
          {std::to_string(it->first),
           fmt::format("fits only at {} of {} stages (the dicts set no num_stages)",
                       it->second.stages, it->second.limit)});
      it = fits.erase(it);
    }
  }
  int64_t chosen = fits.back().first;
  MoeTileFit chosen_fit = fits.back().second;
  for (const auto& [m, f] : fits) {
    if (m >= rows) {
      chosen = m;
      chosen_fit = f;
      break;
    }
  }
  if (!any_at_limit) {
    d.warnings.push_back(fmt::format(
        "no tile fits at the stage limit of {}: {} fits at {} stage(s), so the launch must not "
        "use more",
        chosen_fit.limit, chosen, chosen_fit.stages));
  }
  for (const auto& [m, f] : fits) {
    if (m == chosen) continue;
    if (m < chosen) {
      d.rejected.push_back(
          {std::to_string(m), fmt::format("{} tiles per expert at the middle of the range ({} "
                                          "rows); each tile reloads the expert's weights",
                                          CeilDiv(rows, m), rows)});
    } else {
      d.rejected.push_back({std::to_string(m), fmt::format("pads {} rows per expert to {}",
                                                           RowsPerExpert(mid, experts), m)});
    }
  }
  d.value = std::to_string(chosen);
  d.decided_by = fmt::format(
      "{}: sized at the geometric middle of {} to {} pairs, {} pairs over {} experts = {} rows "
      "per expert; {} rows cover them with the least padding{}",
      tier, lo, hi, mid, experts, rows, chosen,
      chosen < rows ? " that fits shared memory and registers" : "");
  d.safety = fmt::format(
      "{}x{}x{} (the smallest N and K a dict takes) fits smem_per_block at {} stage(s) ({} "
      "bytes; fewer stages are tried when the limit's do not fit) with ~{} registers per thread",
      chosen, kMinNK, kMinNK, chosen_fit.stages, chosen_fit.smem, chosen_fit.regs);
  return d;
}

Derivation DeriveMoeTierBlockM(const Profile& p, const Workload& w, int64_t bound,
                               const std::string& quantity) {
  int64_t lo = 0;
  for (const char* name : {"moe_small_tier_max", "moe_medium_tier_max"}) {
    int64_t b = w.Get(name);
    if (b < bound) lo = std::max(lo, b);
  }
  Derivation d =
      DeriveMoeBlockM(p, w, lo, std::min(bound, MoeMaxPairs(w)), quantity,
                      fmt::format("tier `numel <= {}` (above the tier bound {})", bound, lo));
  return d;
}

Derivation DeriveMoeBlockNK(const Profile& p, const Workload& w, int64_t block_m,
                            int64_t min_tokens, const std::string& quantity, char which) {
  Derivation d = NewDerivation(
      quantity,
      "largest N in {128, 64, 32} whose grid (M-tiles x ceil(N_gemm / N)) gives every compute "
      "unit a CTA at the dict's smallest batch, else the N with the most CTAs; then the largest "
      "K in {64, 32}; each tile fits max((M*K + K*N)*bytes*stages, M*N*bytes) <= "
      "smem_per_block at some stages <= the limit, and its registers fit. Only the Triton path "
      "reads N and K (ixformer ignores them)");
  for (const char* f : {"smem_per_block", "max_stages", "compute_units", "warp_size",
                        "max_regs_per_thread", "regs_per_cu"}) {
    d.UseFact(*p.Find(f));
  }
  d.UseInput("BLOCK_SIZE_M", block_m, "derived for this dict");
  int64_t experts = w.Get("num_experts");
  int64_t numel = min_tokens * w.Get("topk");
  int64_t m_tiles = MTiles(numel, experts, block_m);
  int64_t n_gemm = std::min(2 * w.PerRank("moe_intermediate_size"), w.Get("hidden_size"));
  int64_t cus = Fact64(p, "compute_units");
  d.UseInput("N of the smaller GEMM", n_gemm,
             "workload: min(2 * moe_intermediate_size / tensor_parallel_size, hidden_size)");
  d.sized_for = fmt::format(
      "batches from {} token(s): {} token-expert pairs in {} M-tiles of {}, over N = {}",
      min_tokens, numel, m_tiles, block_m, n_gemm);
  struct Pick {
    int64_t n = 0, k = 0, ctas = 0;
    MoeTileFit fit;
  };
  std::vector<Pick> fits;
  std::string smallest_problem;
  for (int64_t n : {128, 64, 32}) {
    for (int64_t k : {64, 32}) {
      MoeTileFit f = FitMoeTile(p, w, block_m, n, k);
      if (f.stages == 0) {
        d.rejected.push_back({fmt::format("N={} K={}", n, k), f.problem});
        smallest_problem = f.problem;
        continue;
      }
      fits.push_back({n, k, m_tiles * CeilDiv(n_gemm, n), f});
    }
  }
  if (fits.empty()) {
    d.error = "no BLOCK_SIZE_N/K fits: " + smallest_problem;
    return d;
  }
  bool any_at_limit = std::any_of(fits.begin(), fits.end(),
                                  [](const Pick& c) { return c.fit.stages == c.fit.limit; });
  if (any_at_limit) {
    for (auto it = fits.begin(); it != fits.end();) {
      if (it->fit.stages == it->fit.limit) {
        ++it;
        continue;
      }
      d.rejected.push_back(
          {fmt::format("N={} K={}", it->n, it->k),
           fmt::format("fits only at {} of {} stages (the dicts set no num_stages)", it->fit.stages,
                       it->fit.limit)});
      it = fits.erase(it);
    }
  }
  // The largest K that fits each N.
  fits.erase(std::unique(fits.begin(), fits.end(),
                         [](const Pick& a, const Pick& b) { return a.n == b.n; }),
             fits.end());
  if (!any_at_limit) {
    d.warnings.push_back(fmt::format(
        "no tile fits at the stage limit of {}: the chosen one fits at fewer stages, so the "
        "launch must not use more",
        fits.front().fit.limit));
  }
  const Pick* pick = nullptr;
  for (const Pick& c : fits) {
    if (c.ctas >= cus) {
      pick = &c;
      break;
    }
  }
  std::string why;
  if (pick == nullptr) {
    pick = &fits.back();  // the smallest N: the most CTAs
    why = fmt::format("; no N gives all {} CUs a CTA at {} token(s), so the most CTAs", cus,
                      min_tokens);
  }
  for (const Pick& c : fits) {
    if (c.n > pick->n) {
      d.rejected.push_back(
          {fmt::format("N={}", c.n), fmt::format("{} CTAs at {} token(s) leave some of {} CUs idle",
                                                 c.ctas, min_tokens, cus)});
    } else if (c.n < pick->n) {
      d.rejected.push_back({fmt::format("N={}", c.n),
                            "narrower than needed to fill the CUs: more CTAs reload the same A"});
    }
  }
  d.value = std::to_string(which == 'n' ? pick->n : pick->k);
  d.decided_by = fmt::format("{}x{}x{}: {} CTAs for {} CUs{}", block_m, pick->n, pick->k,
                             pick->ctas, cus, why);
  d.safety = fmt::format(
      "fits smem_per_block at {} stage(s) ({} bytes; fewer stages are tried when the limit's "
      "do not fit) with ~{} registers per thread x {} threads",
      pick->fit.stages, pick->fit.smem, pick->fit.regs, kMoeNumWarps * Fact64(p, "warp_size"));
  return d;
}

}  // namespace muh
