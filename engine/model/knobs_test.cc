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
Workload HeadDim(const char* d) {
  Workload w = Workload::Defaults();
  std::string err;
  REQUIRE(w.Set("head_dim", d, &err));
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

TEST_CASE("the reported shared-memory limit changes only from a measured or user-given fact") {
  // Built in: the conflicting fact takes the safe 32 KiB, what the fork's code
  // reports, so the rule rewrites nothing.
  Derivation d = DeriveSmemLimitKib(With(nullptr));
  CHECK(d.value == "32");
  CHECK(d.decided_by.rfind("not measured", 0) == 0);
  REQUIRE(d.warnings.size() == 1);
  CHECK(d.warnings[0].find("conflicting") != std::string::npos);
  CHECK(d.warnings[0].find("49152") != std::string::npos);
  Derivation measured = DeriveSmemLimitKib(With("smem_per_block=49152"));
  CHECK(measured.value == "48");
  CHECK(measured.decided_by.rfind("reported as-is", 0) == 0);
  // A limit of no whole KiB is no card's: the fact refuses it (fact_domain.h).
  Profile odd = Profile::BiV100();
  std::string err;
  CHECK_FALSE(odd.ApplySet("smem_per_block=32769", &err));
}

TEST_CASE("prefix-prefill BLOCK below SM80 is sized for the served head_dim") {
  // Head dim 128, 16-bit, one stage, BLOCK_M = BLOCK_N = B: 2*128*(B + 2B) = 768*B.
  // 32 KiB: 768*64 = 49152 does not fit, 768*32 = 24576 does -> 32; fp32 halves
  // it to 16 using 4*128*(16 + 32) = 24576.
  Derivation d = DerivePrefixBlock(With(nullptr), Workload::Defaults());
  CHECK(d.value == "32");
  CHECK(d.rejected.size() == 2);  // 128 and 64
  CHECK(d.sized_for == "the served head_dim 128");
  // 48 KiB at head dim 128: 768*64 = 49152 fits -> 64; fp32: 4*128*(32 + 64) = 49152.
  CHECK(DerivePrefixBlock(With("smem_per_block=49152"), Workload::Defaults()).value == "64");
  // 48 KiB at head dim 256: 1536*32 = 49152 fits -> 32.
  CHECK(DerivePrefixBlock(With("smem_per_block=49152"), HeadDim("256")).value == "32");
  // 32 KiB at head dim 256: 1536*32 = 49152 > 32768, and 16 would halve to 8 <
  // 16: the error names shared memory at the smallest usable BLOCK.
  Derivation none = DerivePrefixBlock(With(nullptr), HeadDim("256"));
  CHECK(none.value.empty());
  CHECK(none.error ==
        "shared memory: the smallest BLOCK whose fp32 half-tile meets tl.dot's minimum of 16 is "
        "32, and at head_dim 256 its 16-bit tile needs 49152 bytes > smem_per_block = 32768");
}

TEST_CASE("prefix-prefill NUM_WARPS below SM80") {
  // B = 32: 1024 scores. 64-wide warps: 4 warps = 256 threads -> 4 scores each;
  // 8 warps = 512 threads -> 2 each, below 4. Registers at D = 128:
  // (32*128 + 1.5*32*32 + 32*128/2) / 256 = (4096 + 1536 + 2048) / 256 = 30, + 40 = 70.
  Derivation d = DerivePrefixNumWarps(With(nullptr), Workload::Defaults(), 32);
  CHECK(d.value == "4");
  CHECK(d.decided_by.find("~70 registers") != std::string::npos);
  // 32-wide warps: 8 warps = 256 threads -> 4 scores each.
  CHECK(DerivePrefixNumWarps(With("warp_size=32"), Workload::Defaults(), 32).value == "8");
  // B = 64 at 64-wide warps: 4096 scores / 4 = 1024 threads = 16 warps, but the
  // fp32 32x32 half-tile (1024 scores) still keeps 1024 threads busy -> 16.
  CHECK(DerivePrefixNumWarps(With(nullptr), Workload::Defaults(), 64).value == "16");
}

TEST_CASE("NUM_WARPS checks the register file: BLOCK 128 at 16 warps does not fit") {
  // B = 128 at head dim 256 with 16 warps = 1024 threads:
  // (128*256 + 1.5*128*128 + 128*256/2) / 1024 + 40 = 72 + 40 = 112 registers,
  // and 112 * 1024 = 114688 > 65536 -> 8 warps: 144 + 40 = 184, 184 * 512 =
  // 94208 > 65536 -> 4 warps: 288 + 40 = 328 > 255 per thread. Nothing fits.
  Derivation d = DerivePrefixNumWarps(With("smem_per_block=232448"), HeadDim("256"), 128);
  REQUIRE(d.value.empty());
  CHECK(d.rejected[0].reason.rfind("register file: ~112 registers x 1024 threads", 0) == 0);
  CHECK(d.error.find("registers") != std::string::npos);
  // So BLOCK itself steps down to 64 there, which 8 warps fit:
  // (64*256 + 1.5*64*64 + 64*256/2) / 512 + 40 = 100 registers, 51200 <= 65536.
  CHECK(DerivePrefixBlock(With("smem_per_block=232448"), HeadDim("256")).value == "64");
  // Head dim 128: 16 warps need 88 x 1024 > 65536, 8 warps 136 x 512 = 69632 >
  // 65536; 4 warps 232 x 256 fit.
  Derivation d128 = DerivePrefixNumWarps(With("smem_per_block=232448"), HeadDim("128"), 128);
  CHECK(d128.value == "4");
}

TEST_CASE("v1 and partition thresholds from shared memory and compute units") {
  // (32768 - 2*128*4) / 4 = 7936 tokens -> 4096.
  CHECK(DeriveV1MaxContext(With(nullptr), Workload::Defaults()).value == "4096");
  // (49152 - 1024) / 4 = 12032 -> 8192.
  CHECK(DeriveV1MaxContext(With("smem_per_block=49152"), Workload::Defaults()).value == "8192");
  // A v1 block at 4096 tokens holds 4096*4 + 1024 = 17408 bytes: 1 per CU of
  // 32 KiB, so 16 CUs x 1 = 16 blocks fill the device.
  CHECK(DeriveV1MinWork(With(nullptr), Workload::Defaults()).value == "16");
  CHECK(DeriveV1MinWork(With("compute_units=64"), Workload::Defaults()).value == "64");
}

TEST_CASE("_PARTITION_SIZE keeps the prebuilt kernel's 512 unless a fact says otherwise") {
  Derivation d = DerivePartitionSize(With(nullptr), Workload::Defaults());
  CHECK(d.value == "512");
  CHECK(d.decided_by.find("prebuilt") != std::string::npos);
  // A kernel that accepts any size: P*4 <= 32768/2 -> P <= 4096; 32 heads x 1
  // partition of a 4096-token context = 32 >= 16 CUs.
  CHECK(DerivePartitionSize(With("prebuilt_partition_size=0"), Workload::Defaults()).value ==
        "4096");
  // 16 KiB: P*4 <= 8192 -> 2048.
  Profile small = With("smem_per_block=16384");
  std::string err;
  REQUIRE(small.ApplySet("prebuilt_partition_size=0", &err));
  CHECK(DerivePartitionSize(small, Workload::Defaults()).value == "2048");
  // A rebuilt kernel for 1024.
  CHECK(DerivePartitionSize(With("prebuilt_partition_size=1024"), Workload::Defaults()).value ==
        "1024");
}

}  // namespace muh
