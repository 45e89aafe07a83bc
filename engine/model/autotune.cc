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

// The first of the space's constraints that `e` breaks, as the derivation
// names it ("" when it breaks none). A constraint that cannot be evaluated
// for `e` (a division by zero) rejects it too: the model emits only entries
// it has shown to satisfy every constraint.
std::string BrokenConstraint(const SearchSpace& space, const ConfigEntry& e, const Workload& w) {
  auto value = [&](std::string_view name) -> std::optional<int64_t> {
    if (const std::string* v = e.Get(std::string(name))) {
      if (*v == "True" || *v == "False") return *v == "True" ? 1 : 0;
      try {
        std::size_t used = 0;
        int64_t n = std::stoll(*v, &used);
        if (used == v->size()) return n;
      } catch (const std::exception&) {
      }
      return std::nullopt;
    }
    if (const WorkloadItem* item = w.Find(name)) return item->value;
    return std::nullopt;
  };
  for (const Constraint& c : space.constraints) {
    ConstraintValue v = EvaluateConstraint(c, value);
    if (v.holds) continue;
    std::string why = c.reason.empty() ? "" : fmt::format(": {}", c.reason);
    if (!v.error.empty())
      return fmt::format("constraint '{}' cannot be evaluated ({}){}", c.text, v.error, why);
    return fmt::format("breaks the kernel's constraint '{}'{}", c.text, why);
  }
  return "";
}

// What the attention score needs besides the candidate itself.
struct AttentionModel {
  int64_t head_dim = 0, bytes = 0, seq = 0, grid_rows = 0, cus = 0;
  double balance = 0;         // flops per L2-served K/V byte at which loads match the MMAs
  double inflight_bytes = 0;  // bytes a CU keeps in flight to cover memory latency
  int64_t reg_cap_max = 0, regs_per_cu = 0, max_threads_per_cu = 0;
};

double AttentionScore(const AutotuneCandidate& c, const AttentionModel& m, int64_t need_regs) {
  double bm = static_cast<double>(c.block_m);
  double bn = static_cast<double>(c.block_n);
  double mma = std::min(1.0, bm / static_cast<double>(kMmaRowsPerWarp * c.warps));
  double t_mma = 1.0 / mma;
  double t_mem = m.balance / bm;
  double t_softmax = kSoftmaxStepCost / bn;
  double t = c.stages <= 1 ? t_mma + t_mem + t_softmax : std::max(t_mma, t_mem) + t_softmax;
  double occupancy = static_cast<double>(c.resident * c.threads) /
                     static_cast<double>(std::max<int64_t>(m.max_threads_per_cu, 1));
  t += kExposedLatencyCost * std::max(0.0, 1.0 - occupancy / kOccupancyTarget);
  double tile_bytes = static_cast<double>(2 * c.block_n * m.head_dim * m.bytes);
  double hiding = std::min(1.0, static_cast<double>(c.resident * c.stages) * tile_bytes /
                                    std::max(m.inflight_bytes, 1.0));
  double cap =
      static_cast<double>(std::min(m.reg_cap_max, m.regs_per_cu / std::max<int64_t>(c.threads, 1)));
  double excess =
      std::max(0.0, static_cast<double>(need_regs) - kRegisterPressureStart * cap) / cap;
  double pressure = 1.0 / (1.0 + kRegisterPressureWeight * excess * excess);
  int64_t grid = CeilDiv(m.seq, c.block_m) * m.grid_rows;
  Waves waves = GridWaves(grid, m.cus * c.resident);
  double causal = CausalWorkEfficiency(m.seq, c.block_m, c.block_n);
  return waves.efficiency * hiding * pressure * causal / t;
}

}  // namespace

AutotuneResult DeriveAutotune(const Profile& p, const Workload& w, const SearchSpace& space) {
  AutotuneResult r;
  Derivation& d = r.derivation;
  d.quantity = space.name;
  d.formula = fmt::format(
      "score = wave efficiency x latency hiding x register pressure x causal efficiency / time "
      "per key step; time = t_mma + t_mem + t_softmax at 1 stage, max(t_mma, t_mem) + "
      "t_softmax when stages >= 2 prefetch the next K/V tile, plus {} x max(0, 1 - occupancy / "
      "{}) (dependent MMA and softmax latency that too few resident warps leave exposed; "
      "occupancy = resident blocks x threads / max_threads_per_cu); t_mma = 1 / min(1, BM / "
      "({} x warps)) (rows per warp's MMA), t_mem = balance / BM (K/V reuse across BM rows; "
      "balance = fp16_tflops / (hbm_bandwidth x {} L2 reads)), t_softmax = {} / BN (the Q "
      "rows' softmax step amortized over BN keys); latency hiding = min(1, resident blocks x "
      "stages x K/V tile bytes / (hbm_bandwidth / compute_units x {} ns)); register pressure = "
      "1 / (1 + {} x max(0, estimate - {} x allocatable)^2 / allocatable^2); waves of a "
      "ceil(L/BM) x heads x prompts grid over compute_units x resident blocks; distinct tile "
      "shapes first",
      kExposedLatencyCost, kOccupancyTarget, kMmaRowsPerWarp, kL2Reuse, kSoftmaxStepCost,
      kMemoryLatencyNs, kRegisterPressureWeight, kRegisterPressureStart);
  for (const char* f : {"warp_size", "smem_per_block", "max_stages", "compute_capability",
                        "max_threads_per_block", "max_regs_per_thread", "regs_per_cu",
                        "max_threads_per_cu", "compute_units", "fp16_tflops", "hbm_bandwidth"}) {
    d.UseFact(*p.Find(f));
  }
  int64_t dmax = w.Get("head_dim");
  int64_t bytes = w.Get("dtype_bytes");
  int64_t seq =
      std::min({w.Get("prefill_seq_len"), w.Get("max_batched_tokens"), w.Get("max_model_len")});
  int64_t heads = w.PerRank("num_q_heads");
  // Prompts of `seq` tokens batched together, up to max_num_seqs.
  int64_t batch = std::clamp<int64_t>(w.Get("max_batched_tokens") / std::max<int64_t>(seq, 1), 1,
                                      std::max<int64_t>(w.Get("max_num_seqs"), 1));
  d.UseInput("head_dim", dmax, "workload");
  d.UseInput("prefill length", seq,
             "workload: min(prefill_seq_len, max_batched_tokens, max_model_len)");
  d.UseInput("num_q_heads per GPU", heads, "workload: num_q_heads / tensor_parallel_size");
  d.UseInput("prompts per batch", batch,
             "workload: max_batched_tokens / prefill length, at most max_num_seqs");
  d.safety =
      "every entry fits smem_per_block at head_dim (bytes*D*(BM + 2*BN*stages)), the stage "
      "limit and max_threads_per_block, and keeps more registers than it spills (the compiler "
      "caps registers at min(max_regs_per_thread, regs_per_cu / threads)); Triton's autotuner "
      "also skips entries that fail at run time";
  if (!space.constraints.empty()) {
    std::vector<std::string> texts;
    for (const Constraint& c : space.constraints) texts.push_back(c.text);
    d.safety += fmt::format("; and every entry satisfies the kernel's declared constraints ({})",
                            fmt::join(texts, "; "));
  }
  d.sized_for = fmt::format("head_dim {}, {} causal {}-token prefill(s), {} heads per GPU", dmax,
                            batch, seq, heads);
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
  int64_t max_regs = static_cast<int64_t>(p.Get("max_regs_per_thread"));
  int64_t regs_per_cu = static_cast<int64_t>(p.Get("regs_per_cu"));
  AttentionModel model;
  model.head_dim = dmax;
  model.bytes = bytes;
  model.seq = seq;
  model.grid_rows = heads * batch;
  model.cus = cus;
  model.balance = p.Get("fp16_tflops") * 1e12 / (p.Get("hbm_bandwidth") * 1e9 * kL2Reuse);
  model.inflight_bytes =
      p.Get("hbm_bandwidth") * 1e9 / static_cast<double>(cus) * kMemoryLatencyNs * 1e-9;
  model.reg_cap_max = max_regs;
  model.regs_per_cu = regs_per_cu;
  model.max_threads_per_cu = static_cast<int64_t>(p.Get("max_threads_per_cu"));

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
    int64_t need =
        AttentionRegsPerThread(dmax, c.block_m, c.block_n, std::max<int64_t>(c.threads, 1));
    RegisterAllocation alloc = AllocateRegisters(need, c.threads, max_regs, regs_per_cu);
    c.regs = alloc.regs;
    c.spill = alloc.spill;
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
    if (c.spill > c.regs) {
      ++r.pruned
            ["spills more registers than it keeps (estimate > 2 x min(max_regs_per_thread, "
             "regs_per_cu / threads))"];
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
    std::string broken = BrokenConstraint(space, e, w);
    if (!broken.empty()) {
      ++r.pruned[broken];
      continue;
    }
    Occupancy occ = BlocksPerCu(c.smem, smem_limit, c.regs, c.threads, regs_per_cu,
                                static_cast<int64_t>(p.Get("max_threads_per_cu")));
    if (occ.blocks < 1) {
      ++r.pruned[fmt::format("no block fits on a compute unit ({})", occ.limited_by)];
      continue;
    }
    c.resident = occ.blocks;
    c.score = AttentionScore(c, model, need);
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
    lines.push_back(fmt::format("{} (smem {} B, {} threads, ~{} regs{}, {} resident, score {:.2f})",
                                EntryText(c.entry), c.smem, c.threads, c.regs,
                                c.spill > 0 ? fmt::format(" + {} spilled", c.spill) : "",
                                c.resident, c.score));
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
