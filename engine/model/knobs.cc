#include "engine/model/knobs.h"

#include <fmt/format.h>

#include <algorithm>

#include "engine/model/tile_math.h"

namespace muh {

namespace {

int64_t Fact64(const Profile& p, const char* name) { return static_cast<int64_t>(p.Get(name)); }

// Contexts longer than v1's limit go to v2; the shortest of them is where v2
// has the fewest partitions. Without a v1 limit, the longest context.
int64_t V2ShortestContext(const Profile& p, const Workload& w) {
  Derivation v1 = DeriveV1MaxContext(p, w);
  return v1.error.empty() ? std::stoll(v1.value) : w.Get("max_model_len");
}

}  // namespace

int64_t FloorPow2(int64_t v) {
  int64_t r = 1;
  while (r * 2 <= v) r *= 2;
  return r;
}

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
  d.safety = "tiles are sized at this many stages or fewer";
  return d;
}

Derivation DeriveSmemLimitBytes(const Profile& p) {
  Derivation d = NewDerivation("smem_limit_bytes", "smem_per_block");
  const Fact& f = *p.Find("smem_per_block");
  d.UseFact(f);
  d.value = std::to_string(Fact64(p, "smem_per_block"));
  d.safety =
      "Triton sizes every kernel against this limit: a value above the card's real limit makes "
      "kernels fail to launch, so the limit changes only from a measured or user-given fact, "
      "and the tree's own value stays";
  if (f.user_given || f.confidence == Confidence::kMeasured) {
    d.decided_by = "reported as-is: the fact is measured or given by the user";
  } else if (f.from_tree) {
    d.decided_by =
        "the tree's own value, kept: no --set or --hw replaced it; measure the card and pass "
        "--set smem_per_block=N or --hw FILE to change it";
  } else {
    d.decided_by =
        "not measured: the built-in profile's safe choice; measure the card and pass --set "
        "smem_per_block=N or --hw FILE to change it";
  }
  d.sized_for = "the card, not the workload";
  return d;
}

std::string ReportedFact(std::string_view quantity) {
  return quantity == "smem_limit_bytes" || quantity == "smem_limit_kib" ? "smem_per_block" : "";
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
  Derivation d = NewDerivation(
      "v1_max_context", "floor_pow2((smem_per_block - scratch) / 4), scratch = 2 * head_dim * 4");
  d.UseFact(*p.Find("smem_per_block"));
  int64_t dim = w.Get("head_dim");
  d.UseInput("head_dim", dim, "workload");
  int64_t smem = Fact64(p, "smem_per_block");
  int64_t scratch = 2 * dim * 4;
  int64_t room = (smem - scratch) / kLogitBytes;
  d.safety =
      "v1 keeps the logits of the whole context and its fp32 scratch in shared memory: "
      "context * 4 + scratch <= smem_per_block";
  d.sized_for = fmt::format("head_dim {}", dim);
  if (room < 1) {
    d.error = fmt::format(
        "shared memory: v1's fp32 scratch for head_dim {} (2 * {} * 4 = {} bytes) leaves no room "
        "for logits in smem_per_block = {}",
        dim, dim, scratch, smem);
    return d;
  }
  int64_t v = FloorPow2(room);
  d.value = std::to_string(v);
  d.decided_by = fmt::format(
      "v1 keeps {} bytes of fp32 logits per context token in shared memory: ({} - {}) / {} = {} "
      "tokens fit; rounded down to a power of two",
      kLogitBytes, smem, scratch, kLogitBytes, room);
  d.rejected.push_back({std::to_string(v * 2), fmt::format("{} tokens of logits need {} bytes",
                                                           v * 2, v * 2 * kLogitBytes + scratch)});
  return d;
}

Derivation DeriveV1MinWork(const Profile& p, const Workload& w) {
  Derivation d = NewDerivation("v1_min_work", "compute_units * resident v1 blocks per CU");
  d.UseFact(*p.Find("compute_units"));
  d.UseFact(*p.Find("smem_per_block"));
  Derivation v1 = DeriveV1MaxContext(p, w);
  if (!v1.error.empty()) {
    d.error = "depends on v1_max_context, which has no value: " + v1.error;
    return d;
  }
  int64_t ctx = std::stoll(v1.value);
  int64_t per_block = ctx * kLogitBytes + 2 * w.Get("head_dim") * 4;
  int64_t resident = std::max<int64_t>(1, Fact64(p, "smem_per_block") / per_block);
  int64_t v = Fact64(p, "compute_units") * resident;
  d.value = std::to_string(v);
  d.decided_by = fmt::format(
      "v1 launches one block per (sequence, head); at a {}-token context a block holds {} bytes, "
      "so {} fit per CU and {} x {} = {} blocks fill the device; fewer leave CUs idle, and v2's "
      "partitions help",
      ctx, per_block, resident, Fact64(p, "compute_units"), resident, v);
  d.safety = "a threshold only: either kernel runs on either side of it";
  d.sized_for = fmt::format("a {}-token context at head_dim {}", ctx, w.Get("head_dim"));
  return d;
}

Derivation DerivePartitionSize(const Profile& p, const Workload& w) {
  Derivation d = NewDerivation(
      "partition_size",
      "prebuilt_partition_size when the v2 kernel is prebuilt; else the largest power of two P "
      "in [256, 8192] with P * 4 <= smem_per_block / 2 and heads per GPU * ceil(context / P) >= "
      "compute_units at the shortest context v2 serves (v1_max_context)");
  d.UseFact(*p.Find("prebuilt_partition_size"));
  d.UseFact(*p.Find("smem_per_block"));
  d.UseFact(*p.Find("compute_units"));
  int64_t heads = w.PerRank("num_q_heads");
  d.UseInput("num_q_heads per GPU", heads, "workload: num_q_heads / tensor_parallel_size");
  int64_t smem = Fact64(p, "smem_per_block");
  int64_t cus = Fact64(p, "compute_units");
  int64_t ctx = V2ShortestContext(p, w);
  d.sized_for = fmt::format("{} heads per GPU at a {}-token context", heads, ctx);
  // The model's own choice, for a kernel that accepts any size.
  int64_t own = 0, most_partitions = 0;
  std::vector<Rejected> own_rejected;
  for (int64_t pp = 8192; pp >= 256; pp /= 2) {
    if (pp * kLogitBytes > smem / kTargetResidentBlocks) {
      own_rejected.push_back(
          {std::to_string(pp),
           fmt::format("{} bytes of logits exceed half of {} (two resident blocks)",
                       pp * kLogitBytes, smem)});
      continue;
    }
    most_partitions = pp;
    if (own == 0 && heads * CeilDiv(ctx, pp) >= cus) {
      own = pp;
    } else if (own == 0) {
      own_rejected.push_back(
          {std::to_string(pp), fmt::format("{} heads x {} partitions of a {}-token context leave "
                                           "some of {} CUs idle",
                                           heads, CeilDiv(ctx, pp), ctx, cus)});
    }
  }
  std::string own_why;
  if (own == 0 && most_partitions != 0) {
    own = most_partitions;
    own_why = " (no size fills every CU; the one with the most partitions)";
  }
  int64_t prebuilt = Fact64(p, "prebuilt_partition_size");
  d.safety =
      "_PARTITION_SIZE must match the v2 kernel: a prebuilt kernel keeps the size it was built "
      "for";
  if (prebuilt > 0) {
    d.value = std::to_string(prebuilt);
    d.decided_by = fmt::format(
        "the prebuilt paged_attention_v2_launcher takes {} tokens per partition; kept{}", prebuilt,
        own != 0 && own != prebuilt
            ? fmt::format(" (the model would choose {} for a kernel that accepts it: set "
                          "prebuilt_partition_size to the size a rebuilt kernel takes, or 0)",
                          own)
            : "");
    if (own != 0 && own != prebuilt) {
      d.rejected.push_back({std::to_string(own), "the prebuilt kernel is not built for it"});
    }
    return d;
  }
  d.rejected = own_rejected;
  if (own == 0) {
    d.error = fmt::format(
        "shared memory: a 256-token partition's logits (1024 bytes) exceed half of "
        "smem_per_block = {}",
        smem);
    return d;
  }
  d.value = std::to_string(own);
  d.decided_by = fmt::format(
      "the largest partition whose logits ({} bytes) leave room for {} resident blocks{}; fewer, "
      "longer partitions mean less cross-partition reduction",
      own * kLogitBytes, kTargetResidentBlocks, own_why);
  return d;
}

std::string PrefixBlockProblem(const Profile& p, const Workload& w, int64_t b) {
  int64_t dim = w.Get("head_dim");
  int64_t smem = Fact64(p, "smem_per_block");
  if (b < 1 || (b & (b - 1)) != 0) return fmt::format("{} is not a power of two (tl.arange)", b);
  int64_t main = AttentionTileSmem(dim, b, b, 1, 2);
  if (main > smem) return fmt::format("2*{}*({} + 2*{}) = {} bytes > {}", dim, b, b, main, smem);
  int64_t half = b / 2;
  if (half < kMinDotSize) {
    return fmt::format("the fp32 path halves it to {}, below tl.dot's minimum of {}", half,
                       kMinDotSize);
  }
  int64_t fp32 = AttentionTileSmem(dim, half, half, 1, 4);
  if (fp32 > smem) {
    return fmt::format("the fp32 tile 4*{}*({} + 2*{}) = {} bytes > {}", dim, half, half, fp32,
                       smem);
  }
  Derivation warps = DerivePrefixNumWarps(p, w, b);
  if (!warps.error.empty()) return "no warp count fits: " + warps.error;
  return "";
}

Derivation DerivePrefixBlock(const Profile& p, const Workload& w) {
  Derivation d = NewDerivation(
      "prefix_block_below_sm80",
      "largest B in {128, 64, 32, 16} with 2*D*(B + 2*B) <= smem_per_block (16-bit, one "
      "stage, BLOCK_M = BLOCK_N = B) and, for the fp32 halving, B/2 >= 16 and "
      "4*D*(B/2 + B) <= smem_per_block");
  d.UseFact(*p.Find("smem_per_block"));
  int64_t dim = w.Get("head_dim");
  d.UseInput("head_dim", dim, "workload: the served model's");
  int64_t smem = Fact64(p, "smem_per_block");
  d.safety =
      "the 16-bit tile and the fp32 half-tile both fit smem_per_block (the upper bound "
      "that held for every tile Triton compiled); the half-tile meets tl.dot's minimum; "
      "some warp count fits its registers (prefix_num_warps_below_sm80)";
  d.sized_for = fmt::format("the served head_dim {}", dim);
  for (int64_t b : {128, 64, 32, 16}) {
    std::string problem = PrefixBlockProblem(p, w, b);
    if (!problem.empty()) {
      d.rejected.push_back({std::to_string(b), problem});
      continue;
    }
    int64_t main = AttentionTileSmem(dim, b, b, 1, 2);
    int64_t half = b / 2;
    int64_t fp32 = AttentionTileSmem(dim, half, half, 1, 4);
    Derivation warps = DerivePrefixNumWarps(p, w, b);
    d.value = std::to_string(b);
    d.decided_by = fmt::format(
        "largest tile that fits: 2*{}*({} + 2*{}) = {} <= {} bytes; fp32 halves it to {} using {} "
        "bytes; {} warps fit its registers",
        dim, b, b, main, smem, half, fp32, warps.value);
    return d;
  }
  // Every B failed; the smallest B whose half-tile meets tl.dot's minimum
  // shows which limit binds.
  int64_t b = 2 * kMinDotSize;
  Derivation warps = DerivePrefixNumWarps(p, w, b);
  int64_t main = AttentionTileSmem(dim, b, b, 1, 2);
  int64_t fp32 = AttentionTileSmem(dim, b / 2, b / 2, 1, 4);
  if (main <= smem && fp32 <= smem) {
    d.error = fmt::format(
        "the smallest BLOCK whose fp32 half-tile meets tl.dot's minimum of {} is {}, and at "
        "head_dim {} no warp count fits it: {}",
        kMinDotSize, b, dim, warps.error);
    return d;
  }
  d.error = fmt::format(
      "shared memory: the smallest BLOCK whose fp32 half-tile meets tl.dot's minimum of {} is "
      "{}, and at head_dim {} its {} tile needs {} bytes > smem_per_block = {}",
      kMinDotSize, b, dim, main > smem ? "16-bit" : "fp32", std::max(main, fp32), smem);
  return d;
}

Derivation DerivePrefixNumWarps(const Profile& p, const Workload& w, int64_t block) {
  Derivation d = NewDerivation(
      "prefix_num_warps_below_sm80",
      "largest W in {16, 8, 4, 2, 1} with W*warp_size <= max_threads_per_block, "
      "B*B/(W*warp_size) >= 4 scores per thread, the fp32 half-tile keeping every thread "
      "busy, the register estimate <= max_regs_per_thread and registers x threads <= "
      "regs_per_cu");
  d.UseFact(*p.Find("warp_size"));
  d.UseFact(*p.Find("max_threads_per_block"));
  d.UseFact(*p.Find("max_regs_per_thread"));
  d.UseFact(*p.Find("regs_per_cu"));
  d.UseInput("BLOCK", block, "prefix_block_below_sm80");
  int64_t warp = Fact64(p, "warp_size");
  int64_t dim = w.Get("head_dim");
  d.safety =
      "threads <= max_threads_per_block; registers per thread <= max_regs_per_thread "
      "and x threads <= regs_per_cu (the register file)";
  d.sized_for = fmt::format("a {}x{} tile at the served head_dim {}", block, block, dim);
  std::string last;
  for (int64_t wn : {16, 8, 4, 2, 1}) {
    int64_t threads = wn * warp;
    std::string v = std::to_string(wn);
    int64_t scores = block * block / threads;
    int64_t half = block / 2;
    int64_t regs = AttentionRegsPerThread(dim, block, block, threads);
    if (threads > Fact64(p, "max_threads_per_block")) {
      last = fmt::format("threads: {} > max_threads_per_block = {}", threads,
                         Fact64(p, "max_threads_per_block"));
    } else if (scores < kMinScoresPerThread) {
      last = fmt::format(
          "scores per thread: {}x{} scores over {} threads is {} per thread, "
          "below {}",
          block, block, threads, scores, kMinScoresPerThread);
    } else if (half * half < threads) {
      last = fmt::format("idle threads: the fp32 {}x{} tile leaves some of {} threads idle", half,
                         half, threads);
    } else if (regs > Fact64(p, "max_regs_per_thread")) {
      last = fmt::format("registers: ~{} per thread > max_regs_per_thread = {}", regs,
                         Fact64(p, "max_regs_per_thread"));
    } else if (regs * threads > Fact64(p, "regs_per_cu")) {
      last = fmt::format("register file: ~{} registers x {} threads = {} > regs_per_cu = {}", regs,
                         threads, regs * threads, Fact64(p, "regs_per_cu"));
    } else {
      d.value = v;
      d.decided_by = fmt::format(
          "most warps that still give each of {} threads {} scores of the {}x{} tile (~{} "
          "registers per thread at head dim {}, {} of the register file's {})",
          threads, scores, block, block, regs, dim, regs * threads, Fact64(p, "regs_per_cu"));
      return d;
    }
    d.rejected.push_back({v, last});
  }
  d.error = "even 1 warp is rejected by " + last;
  return d;
}

}  // namespace muh
