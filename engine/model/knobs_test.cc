#include "engine/model/knobs.h"

#include <doctest/doctest.h>

namespace muh {

namespace {
Profile With(const char* set) {
  Profile p = Profile::BiV100();
  std::string err;
  if (set != nullptr) REQUIRE_MESSAGE(p.ApplySet(set, &err), err);
  return p;
}
Workload HeadDimMax(const char* d) {
  Workload w = Workload::Defaults();
  std::string err;
  REQUIRE(w.Set("head_dim_max", d, &err));
  return w;
}
}  // namespace

TEST_CASE("stage limit: vendor Triton allows 2 stages below cc 8") {
  CHECK(DeriveStageLimit(With(nullptr)).value == "2");
  CHECK(DeriveStageLimit(With("max_stages=4")).value == "2");
  Profile p = With("compute_capability=8.0");
  std::string err;
  REQUIRE(p.ApplySet("max_stages=4", &err));
  CHECK(DeriveStageLimit(p).value == "4");
}

TEST_CASE("shared-memory limit reports the profile's value and its conflict") {
  Derivation d = DeriveSmemLimitKib(With(nullptr));
  CHECK(d.value == "48");  // 49152 / 1024
  REQUIRE(d.warnings.size() == 1);
  CHECK(d.warnings[0].find("conflicting") != std::string::npos);
  CHECK(DeriveSmemLimitKib(With("smem_per_block=32768")).value == "32");
  CHECK(DeriveSmemLimitKib(With("smem_per_block=32769")).value.empty());
  CHECK(DeriveSmemLimitBytes(With("smem_per_block=32769")).value == "32769");
}

TEST_CASE("prefix-prefill BLOCK below SM80") {
  // Head dim 256, fp16, one stage, BLOCK_M = BLOCK_N = B: 2*256*(B + 2B) = 1536*B.
  // 48 KiB: 1536*32 = 49152 fits, 1536*64 = 98304 does not -> 32. fp32 halves it to
  // 16 (>= 16 for tl.dot) using 4*256*(16 + 32) = 49152 bytes.
  Derivation d = DerivePrefixBlock(With(nullptr), Workload::Defaults());
  CHECK(d.value == "32");
  CHECK(d.rejected.size() == 2);  // 128 and 64
  // Head dim 128: 768*64 = 49152 fits -> 64; fp32: 4*128*(32 + 64) = 49152.
  CHECK(DerivePrefixBlock(With(nullptr), HeadDimMax("128")).value == "64");
  // 32 KiB at head dim 128: 768*64 = 49152 > 32768, 768*32 = 24576 fits -> 32.
  CHECK(DerivePrefixBlock(With("smem_per_block=32768"), HeadDimMax("128")).value == "32");
  // 32 KiB at head dim 256: 1536*32 = 49152 > 32768, and 16 would halve to 8 < 16.
  Derivation none = DerivePrefixBlock(With("smem_per_block=32768"), Workload::Defaults());
  CHECK(none.value.empty());
  CHECK(none.error.rfind("no BLOCK fits head_dim_max = 256 in 32768 bytes", 0) == 0);
}

TEST_CASE("prefix-prefill NUM_WARPS below SM80") {
  // B = 32: 1024 scores. 64-wide warps: 4 warps = 256 threads -> 4 scores each;
  // 8 warps = 512 threads -> 2 each, below 4. Registers at D = 256:
  // (32*256 + 32*256/2 + 32*32) / 256 = (8192 + 4096 + 1024) / 256 = 52, + 32 = 84.
  Derivation d = DerivePrefixNumWarps(With(nullptr), Workload::Defaults(), 32);
  CHECK(d.value == "4");
  CHECK(d.decided_by.find("~84 registers") != std::string::npos);
  // 32-wide warps: 8 warps = 256 threads -> 4 scores each.
  CHECK(DerivePrefixNumWarps(With("warp_size=32"), Workload::Defaults(), 32).value == "8");
  // B = 64 at 64-wide warps: 4096 scores / 4 = 1024 threads = 16 warps, but the
  // fp32 32x32 half-tile (1024 scores) still keeps 1024 threads busy -> 16.
  CHECK(DerivePrefixNumWarps(With(nullptr), Workload::Defaults(), 64).value == "16");
}

TEST_CASE("v1 and partition thresholds from shared memory and compute units") {
  // (49152 - 2*256*4) / 4 = (49152 - 2048) / 4 = 11776 tokens -> 8192.
  CHECK(DeriveV1MaxContext(With(nullptr), Workload::Defaults()).value == "8192");
  // (32768 - 2048) / 4 = 7680 -> 4096.
  CHECK(DeriveV1MaxContext(With("smem_per_block=32768"), Workload::Defaults()).value == "4096");
  // A v1 block at 8192 tokens holds 8192*4 + 2048 = 34816 bytes: 1 per CU,
  // so 16 CUs x 1 = 16 blocks fill the device.
  CHECK(DeriveV1MinWork(With(nullptr), Workload::Defaults()).value == "16");
  CHECK(DeriveV1MinWork(With("compute_units=64"), Workload::Defaults()).value == "64");
  // Partition: P*4 <= 49152/2 = 24576 -> P <= 6144 -> 4096; 32 heads x 2
  // partitions of 8192 tokens = 64 >= 16 CUs.
  CHECK(DerivePartitionSize(With(nullptr), Workload::Defaults()).value == "4096");
  // 16 KiB: P*4 <= 8192 -> 2048.
  CHECK(DerivePartitionSize(With("smem_per_block=16384"), Workload::Defaults()).value == "2048");
}

TEST_CASE("fused-MoE BLOCK_SIZE_M tiers") {
  Workload w = Workload::Defaults();  // 128 experts
  // numel <= 64 pairs over 128 experts: ceil(64/128) = 1 per expert -> 16.
  CHECK(DeriveMoeBlockM(With(nullptr), w, 64, "q", "t").value == "16");
  // 1024 / 128 = 8 per expert -> 16.
  CHECK(DeriveMoeBlockM(With(nullptr), w, 1024, "q", "t").value == "16");
  // 8192 tokens * 8 = 65536 pairs / 128 = 512 per expert -> capped at 256:
  // max((256*32 + 32*64)*2*2, 256*64*2) = max(40960, 32768) = 40960 <= 49152.
  CHECK(DeriveMoeBlockM(With(nullptr), w, 65536, "q", "t").value == "256");
  // 32 KiB: 256 needs 40960 > 32768; 128 needs max((4096 + 2048)*4, 16384) = 24576 -> 128.
  CHECK(DeriveMoeBlockM(With("smem_per_block=32768"), w, 65536, "q", "t").value == "128");
  // N/K for M = 16 at 2 stages: 16x128x64 needs max((1024 + 8192)*2*2, 4096) = 36864.
  CHECK(DeriveMoeBlockNK(With(nullptr), w, 16, "q", 'n').value == "128");
  CHECK(DeriveMoeBlockNK(With(nullptr), w, 16, "q", 'k').value == "64");
  // M = 256: 128-wide N needs >= 256*128*2 = 65536 for the epilogue; 64x64
  // needs (16384 + 4096)*4 = 81920; 64x32 needs (8192 + 2048)*4 = 40960.
  CHECK(DeriveMoeBlockNK(With(nullptr), w, 256, "q", 'n').value == "64");
  CHECK(DeriveMoeBlockNK(With(nullptr), w, 256, "q", 'k').value == "32");
}

}  // namespace muh
