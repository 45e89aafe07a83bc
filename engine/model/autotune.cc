#include "engine/model/autotune.h"

#include <fmt/format.h>

#include <algorithm>

#include "engine/model/knobs.h"
#include "engine/model/tile_math.h"

namespace muh {

namespace {

int64_t IntField(const ConfigEntry& e, const char* key) {
  const std::string* v = e.Get(key);
  return v ? std::stoll(*v) : 0;
}

std::string EntryText(const ConfigEntry& e) {
  std::string out;
  for (const auto& [k, v] : e.fields) out += (out.empty() ? "" : ", ") + k + "=" + v;
  return out;
}

}  // namespace

AutotuneResult DeriveAutotune(const Profile& p, const Workload& w, const SearchSpace& space) {
  AutotuneResult r;
  Derivation& d = r.derivation;
  d.quantity = space.name;
  d.formula =
      "score = BM*BN/(BM+BN) (K/V reuse per loaded row) x wave efficiency of a "
      "ceil(prefill length/BM) x heads per GPU grid over compute_units x resident blocks x "
      "min(1, resident threads per CU / 512) (latency hiding); distinct tile shapes first";
  for (const char* f :
       {"warp_size", "smem_per_block", "max_stages", "compute_capability", "max_threads_per_block",
        "max_regs_per_thread", "regs_per_cu", "max_threads_per_cu", "compute_units"}) {
    d.UseFact(*p.Find(f));
  }
  int64_t dmax = w.Get("head_dim");
  int64_t bytes = w.Get("dtype_bytes");
  int64_t seq =
      std::min({w.Get("prefill_seq_len"), w.Get("max_batched_tokens"), w.Get("max_model_len")});
  int64_t heads = w.PerRank("num_q_heads");
  d.UseInput("head_dim", dmax, "workload");
  d.UseInput("prefill length", seq,
             "workload: min(prefill_seq_len, max_batched_tokens, max_model_len)");
  d.UseInput("num_q_heads per GPU", heads, "workload: num_q_heads / tensor_parallel_size");
  d.safety =
      "every entry fits smem_per_block at head_dim (bytes*D*(BM + 2*BN*stages)), the stage "
      "limit, max_threads_per_block, max_regs_per_thread and the register file (registers x "
      "threads <= regs_per_cu); Triton's autotuner also skips entries that fail at run time";
  d.sized_for = fmt::format("head_dim {}, a {}-token prefill, {} heads per GPU", dmax, seq, heads);
  for (const char* required : {"BLOCK_M", "BLOCK_N", "num_stages", "num_warps"}) {
    bool found = false;
    for (const auto& dim : space.dims) found = found || dim.first == required;
    if (!found) {
      d.error = fmt::format("search space '{}' has no '{}' dimension", space.name, required);
      return r;
    }
  }
  int64_t stage_limit = std::stoll(DeriveStageLimit(p).value);
  int64_t warp = static_cast<int64_t>(p.Get("warp_size"));
  int64_t smem_limit = static_cast<int64_t>(p.Get("smem_per_block"));
  int64_t cus = static_cast<int64_t>(p.Get("compute_units"));

  // Odometer over the dimensions, last dimension fastest.
  std::vector<std::size_t> idx(space.dims.size(), 0);
  bool done = space.dims.empty();
  for (const auto& dim : space.dims) done = done || dim.second.empty();
  while (!done) {
    ++r.enumerated;
    ConfigEntry e;
    bool merged = false;
    for (std::size_t i = 0; i < space.dims.size(); ++i) {
      const auto& [key, values] = space.dims[i];
      bool ignored =
          std::find(space.ignored.begin(), space.ignored.end(), key) != space.ignored.end();
      merged = merged || (ignored && idx[i] != 0);
      e.fields.emplace_back(key, values[idx[i]]);
    }
    for (std::size_t i = space.dims.size(); i-- > 0;) {
      if (++idx[i] < space.dims[i].second.size()) break;
      idx[i] = 0;
      if (i == 0) done = true;
    }
    if (merged) {
      ++r.merged;
      continue;
    }
    AutotuneCandidate c;
    c.entry = e;
    c.block_m = IntField(e, "BLOCK_M");
    c.block_n = IntField(e, "BLOCK_N");
    c.stages = IntField(e, "num_stages");
    c.warps = IntField(e, "num_warps");
    c.threads = c.warps * warp;
    c.smem = AttentionTileSmem(dmax, c.block_m, c.block_n, c.stages, bytes);
    c.regs = AttentionRegsPerThread(dmax, c.block_m, c.block_n, std::max<int64_t>(c.threads, 1));
    if (c.stages > stage_limit) {
      ++r.pruned[fmt::format("num_stages > {} (stage limit)", stage_limit)];
      continue;
    }
    if (c.threads > static_cast<int64_t>(p.Get("max_threads_per_block"))) {
      ++r.pruned["threads > max_threads_per_block"];
      continue;
    }
    if (c.smem > smem_limit) {
      ++r.pruned[fmt::format("shared memory > {} bytes at head dim {}", smem_limit, dmax)];
      continue;
    }
    if (c.regs > static_cast<int64_t>(p.Get("max_regs_per_thread"))) {
      ++r.pruned["registers > max_regs_per_thread"];
      continue;
    }
    if (c.regs * c.threads > static_cast<int64_t>(p.Get("regs_per_cu"))) {
      ++r.pruned["registers x threads > regs_per_cu (the register file)"];
      continue;
    }
    if (c.block_m * c.block_n < kMinScoresPerThread * c.threads) {
      ++r.pruned[fmt::format("fewer than {} scores of the BM x BN tile per thread",
                             kMinScoresPerThread)];
      continue;
    }
    if (c.block_m < kMinDotSize || c.block_n < kMinDotSize) {
      ++r.pruned["a block dimension below tl.dot's minimum"];
      continue;
    }
    Occupancy occ = BlocksPerCu(c.smem, smem_limit, c.regs, c.threads,
                                static_cast<int64_t>(p.Get("regs_per_cu")),
                                static_cast<int64_t>(p.Get("max_threads_per_cu")));
    if (occ.blocks < 1) {
      ++r.pruned[fmt::format("no block fits on a compute unit ({})", occ.limited_by)];
      continue;
    }
    c.resident = occ.blocks;
    int64_t grid = CeilDiv(seq, c.block_m) * heads;
    Waves waves = GridWaves(grid, cus * c.resident);
    double reuse =
        static_cast<double>(c.block_m * c.block_n) / static_cast<double>(c.block_m + c.block_n);
    double hiding = std::min(1.0, static_cast<double>(c.resident * c.threads) /
                                      static_cast<double>(kTargetResidentThreads));
    c.score = reuse * waves.efficiency * hiding;
    r.valid.push_back(std::move(c));
  }
  std::stable_sort(r.valid.begin(), r.valid.end(),
                   [](const AutotuneCandidate& a, const AutotuneCandidate& b) {
                     if (a.score != b.score) return a.score > b.score;
                     if (a.stages != b.stages) return a.stages < b.stages;
                     if (a.warps != b.warps) return a.warps < b.warps;
                     return false;  // stable: declared order
                   });
  // Pick distinct tile shapes (BM, BN, stages, warps) first, so the cap is
  // not spent on variants that differ only in flags; then fill by rank.
  std::size_t keep = std::min<std::size_t>(r.valid.size(), static_cast<std::size_t>(space.max_new));
  std::vector<bool> taken(r.valid.size(), false);
  std::vector<std::vector<int64_t>> shapes;
  for (int pass = 0; pass < 2; ++pass) {
    for (std::size_t i = 0; i < r.valid.size() && r.selected.size() < keep; ++i) {
      const AutotuneCandidate& c = r.valid[i];
      std::vector<int64_t> shape{c.block_m, c.block_n, c.stages, c.warps};
      bool seen = std::find(shapes.begin(), shapes.end(), shape) != shapes.end();
      if (taken[i] || (pass == 0 && seen)) continue;
      taken[i] = true;
      shapes.push_back(shape);
      r.selected.push_back(c);
    }
  }

  int64_t pruned_total = 0;
  for (const auto& [reason, n] : r.pruned) {
    pruned_total += n;
    d.rejected.push_back({fmt::format("{} candidates", n), reason});
  }
  if (r.merged > 0) {
    d.rejected.push_back({fmt::format("{} candidates", r.merged),
                          fmt::format("equal to another but for fields the backend ignores ({})",
                                      fmt::join(space.ignored, ", "))});
  }
  if (r.valid.size() > keep) {
    d.rejected.push_back({fmt::format("{} candidates", r.valid.size() - keep),
                          fmt::format("valid but ranked below the cap of {}", space.max_new)});
  }
  d.decided_by = fmt::format(
      "enumerated {}, merged {}, pruned {}, valid {}, selected the top {} by score, distinct "
      "shapes first (entries already in the file are then dropped)",
      r.enumerated, r.merged, pruned_total, r.valid.size(), keep);
  std::vector<std::string> lines;
  for (const AutotuneCandidate& c : r.selected) {
    lines.push_back(fmt::format("{} (smem {} B, {} threads, ~{} regs, {} resident, score {:.2f})",
                                EntryText(c.entry), c.smem, c.threads, c.regs, c.resident,
                                c.score));
  }
  d.value = fmt::format("{} entries", keep);
  for (const std::string& l : lines) d.inputs.push_back("selected: " + l);
  if (keep == 0) {
    std::string biggest;
    int64_t most = -1;
    for (const auto& [reason, n] : r.pruned) {
      if (n > most) {
        most = n;
        biggest = reason;
      }
    }
    d.error = fmt::format(
        "no candidate of the search space is valid on this profile (most were pruned by: {})",
        biggest.empty() ? "nothing enumerated" : biggest);
  }
  return r;
}

}  // namespace muh
