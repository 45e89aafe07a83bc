#include "engine/model/moe_knobs.h"

#include <doctest/doctest.h>

namespace muh {

namespace {
Profile With(std::initializer_list<const char*> sets) {
  Profile p = Profile::BiV100();
  std::string err;
  for (const char* s : sets) REQUIRE_MESSAGE(p.ApplySet(s, &err), err);
  return p;
}
// The fork's deployment: Qwen3-30B-A3B-shaped, -tp 4, 16384 batched tokens.
Workload Deployment() {
  Workload w = Workload::Defaults();
  std::string err;
  for (auto [k, v] : {std::pair{"hidden_size", "2048"},
                      {"moe_intermediate_size", "768"},
                      {"tensor_parallel_size", "4"},
                      {"max_batched_tokens", "16384"}}) {
    REQUIRE(w.Set(k, v, &err));
  }
  return w;
}
}  // namespace

TEST_CASE("each MoE tier is sized for its own range of token-expert pairs") {
  Profile p = With({});
  Workload w = Deployment();  // 128 experts, top-8: up to 131072 pairs
  // numel <= 64: 1..64 pairs, one row per expert -> 16.
  CHECK(DeriveMoeTierBlockM(p, w, 64, "q").value == "16");
  // 65..1024: the middle sqrt(65*1024) = 258 pairs over 128 experts = 3 rows -> 16.
  Derivation medium = DeriveMoeTierBlockM(p, w, 1024, "q");
  CHECK(medium.value == "16");
  CHECK(medium.sized_for.rfind("65 to 1024 token-expert pairs", 0) == 0);
  // The large tier, 1025..131072: sqrt(1025*131072) = 11591 pairs = 91 rows -> 128,
  // not the 256 that 131072 pairs (1024 rows) alone would ask for.
  Derivation large = DeriveMoeBlockM(p, w, 1024, MoeMaxPairs(w), "q", "large");
  CHECK(large.value == "128");
  CHECK(large.sized_for.rfind("1025 to 131072", 0) == 0);
  // A bound above what the largest batch brings is capped there.
  CHECK(DeriveMoeTierBlockM(p, w, 1 << 20, "q").sized_for.rfind("1025 to 131072", 0) == 0);
}

TEST_CASE("the MoE BLOCK_SIZE_M names its consumer and that its facts are assumed for it") {
  Derivation d = DeriveMoeTierBlockM(With({}), Deployment(), 64, "q");
  CHECK(d.consumer.rfind("ixformer's fused MoE, a prebuilt kernel", 0) == 0);
  CHECK(d.consumer.find("assumed for ixformer") != std::string::npos);
  CHECK(d.consumer.find("probe --backend tree") != std::string::npos);
  CHECK(FormatDerivation(d, 0).find("\n  consumer: ixformer's fused MoE") != std::string::npos);
}

TEST_CASE("MoE tiles prefer the stage limit and fall back to fewer stages") {
  Workload w = Deployment();
  // 32 KiB at 2 stages: 256x32x32 needs (8192 + 1024)*2*2 = 36864 > 32768; it
  // would fit at 1 stage, but 128 fits at 2.
  Derivation m = DeriveMoeBlockM(With({}), w, 1024, 1 << 20, "q", "t");
  CHECK(m.value == "128");
  // 16 KiB with 4 stages (cc 8): 16x32x32 needs (512 + 1024)*2*4 = 12288 fits,
  // so every quantity has a value.
  Profile p16 = With({"smem_per_block=16384", "compute_capability=8.0", "max_stages=4"});
  Derivation m16 = DeriveMoeBlockM(p16, w, 1024, MoeMaxPairs(w), "q", "t");
  REQUIRE(m16.error.empty());
  Derivation n16 = DeriveMoeBlockNK(p16, w, std::stoll(m16.value), 129, "q", 'n');
  CHECK(n16.error.empty());
  // At 4 stages 128x64x32 does not fit 16 KiB, and fewer stages are tried:
  // (4096 + 2048) * 2 bytes = 12288 at 1 stage.
  MoeTileFit f = FitMoeTile(p16, w, 128, 64, 32);
  CHECK(f.stages == 1);
}

TEST_CASE("BLOCK_SIZE_N does not starve the compute units") {
  Workload w = Deployment();  // N of the smaller GEMM: min(2*768/4, 2048) = 384
  // One token: 8 pairs in 8 M-tiles. 16 CUs: N = 128 gives 8 * 3 = 24 CTAs.
  CHECK(DeriveMoeBlockNK(With({}), w, 16, 1, "q", 'n').value == "128");
  // 132 CUs and N = 1536 (hidden 768, intermediate 768 at tp 1): 128 gives
  // 8 * 12 = 96 CTAs, 64 gives 192 -> 64.
  Workload wide = Workload::Defaults();
  std::string err;
  REQUIRE(wide.Set("hidden_size", "1536", &err));
  REQUIRE(wide.Set("moe_intermediate_size", "768", &err));
  Derivation n = DeriveMoeBlockNK(With({"compute_units=132"}), wide, 16, 1, "q", 'n');
  CHECK(n.value == "64");
  CHECK(n.decided_by.find("192 CTAs for 132 CUs") != std::string::npos);
}

TEST_CASE("MoE tiles check the register file") {
  // 32-wide warps: 4 warps = 128 threads. 256x128x64: (32768 + (16384 + 8192)/2)
  // / 128 + 32 = 384 registers > 255.
  Profile p = With({"warp_size=32", "smem_per_block=232448"});
  MoeTileFit f = FitMoeTile(p, Workload::Defaults(), 256, 128, 64);
  CHECK(f.stages == 0);
  CHECK(f.problem.rfind("registers: ~384 per thread", 0) == 0);
}

}  // namespace muh
