#include "engine/model/tile_math.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("attention tile shared memory, worked by hand") {
  // 64x64 fp16 tile, head dim 128, one stage:
  //   2 bytes * 128 * (64 + 2*64*1) = 256 * 192 = 49152 bytes (exactly 48 KiB).
  CHECK(AttentionTileSmem(128, 64, 64, 1, 2) == 49152);
  // Prefix-prefill at head dim 256, BLOCK 32, fp16: 2 * 256 * (32 + 64) = 49152.
  CHECK(AttentionTileSmem(256, 32, 32, 1, 2) == 49152);
  // ... and its fp32 half-size tile: 4 * 256 * (16 + 32) = 49152, the same.
  CHECK(AttentionTileSmem(256, 16, 16, 1, 4) == 49152);
  // Two stages double the K/V part: 2 * 128 * (64 + 2*32*2) = 256 * 192 = 49152.
  CHECK(AttentionTileSmem(128, 64, 32, 2, 2) == 49152);
}

TEST_CASE("GEMM tile shared memory includes the epilogue scratch") {
  // SPEC's measurement: 128x128x32, one stage, fp16. Operands
  // (128*32 + 32*128) * 2 * 1 = 16384, epilogue 128*128*2 = 32768 -> 32 KiB.
  CHECK(GemmTileSmem(128, 128, 32, 1, 2) == 32768);
  // 64x64x32, two stages: operands (2048 + 2048) * 2 * 2 = 16384 > 64*64*2 = 8192.
  CHECK(GemmTileSmem(64, 64, 32, 2, 2) == 16384);
}

TEST_CASE("registers, occupancy and waves") {
  // D=128, 64x64 tile, 4 warps of 64 = 256 threads:
  //   64*128 + 1.5*64*64 + 64*128/2 = 8192 + 6144 + 4096 = 18432 values,
  //   18432 / 256 = 72 per thread, + 40 overhead = 112; the compiler
  //   allocates the floor of 128.
  CHECK(AttentionRegsPerThread(128, 64, 64, 256) == 112);
  CHECK(AllocateRegisters(112, 256, 255, 65536).regs == 128);
  CHECK(AllocateRegisters(112, 256, 255, 65536).spill == 0);
  // D=256, 128x64, 8 warps of 32 (the H200's best tile, 254 compiled):
  //   32768 + 12288 + 8192 = 53248 / 256 = 208, + 40 = 248.
  CHECK(AttentionRegsPerThread(256, 128, 64, 256) == 248);
  // The compiler caps 248 at 65536 / 512 = 128 for 512 threads: 120 spill.
  RegisterAllocation a = AllocateRegisters(248, 512, 255, 65536);
  CHECK(a.regs == 128);
  CHECK(a.spill == 120);
  // 96 regs * 256 threads = 24576 per block; 65536 / 24576 = 2 blocks by
  // registers; 49152 / 24576 = 2 by smem; 2048 / 256 = 8 by threads.
  Occupancy o = BlocksPerCu(24576, 49152, 96, 256, 65536, 2048);
  CHECK(o.blocks == 2);
  CHECK(std::string(o.limited_by) == "shared memory");
  Occupancy r = BlocksPerCu(12288, 49152, 96, 256, 65536, 2048);
  CHECK(r.blocks == 2);
  CHECK(std::string(r.limited_by) == "registers");
  // 40 blocks over 16 CUs x 2 = 32 slots: 2 waves, 8 in the tail, 40/64 = 0.625.
  Waves w = GridWaves(40, 32);
  CHECK(w.waves == 2);
  CHECK(w.tail_blocks == 8);
  CHECK(w.efficiency == doctest::Approx(0.625));
}

TEST_CASE("causal work efficiency") {
  // L=4, BM=BN=2: blocks compute 2x2 and 2x4 = 12 pairs for 4*5/2 = 10 needed.
  CHECK(CausalWorkEfficiency(4, 2, 2) == doctest::Approx(10.0 / 12.0));
  // One 4x4 tile: 16 computed.
  CHECK(CausalWorkEfficiency(4, 4, 4) == doctest::Approx(10.0 / 16.0));
  CHECK(CausalWorkEfficiency(8192, 64, 64) > CausalWorkEfficiency(512, 64, 64));
}

}  // namespace muh
