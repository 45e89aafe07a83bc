#include "engine/model/autotune.h"

#include <doctest/doctest.h>

#include "engine/model/knobs.h"
#include "engine/model/tile_math.h"

namespace muh {

namespace {
SearchSpace DesignNotesSpace() {
  SearchSpace s;
  s.name = "flash_attn_fwd";
  s.kernel = "attention";
  s.max_new = 8;
  s.ignored = {"waves_per_eu"};
  s.dims = {{"BLOCK_M", {"32", "64", "128", "256"}}, {"BLOCK_N", {"16", "32", "64", "128"}},
            {"waves_per_eu", {"2", "0", "1", "3"}},  {"PRE_LOAD_V", {"False", "True"}},
            {"num_stages", {"1", "2", "3"}},         {"num_warps", {"1", "2", "4", "8"}}};
  return s;
}
}  // namespace

TEST_CASE("a design-notes-like space: 4*4*4*2*3*4 = 1536 candidates") {
  AutotuneResult r = DeriveAutotune(Profile::BiV100(), Workload::Defaults(), DesignNotesSpace());
  CHECK(r.enumerated == 1536);
  CHECK(r.merged == 1536 * 3 / 4);  // three of four waves_per_eu values fold away
  CHECK(r.selected.size() == 8);
  CHECK(r.derivation.error.empty());
  int64_t pruned = 0;
  for (const auto& [reason, n] : r.pruned) pruned += n;
  CHECK(r.enumerated == r.merged + pruned + static_cast<int64_t>(r.valid.size()));
}

TEST_CASE("the ranking is deterministic") {
  AutotuneResult a = DeriveAutotune(Profile::BiV100(), Workload::Defaults(), DesignNotesSpace());
  AutotuneResult b = DeriveAutotune(Profile::BiV100(), Workload::Defaults(), DesignNotesSpace());
  REQUIRE(a.selected.size() == b.selected.size());
  for (std::size_t i = 0; i < a.selected.size(); ++i) {
    CHECK(a.selected[i].entry.fields == b.selected[i].entry.fields);
  }
}

// Every emitted entry respects the profile's shared memory, thread and stage
// limits, for the built-in profile and for each override the issue names.
TEST_CASE("property: emitted entries respect every limit") {
  for (const char* set : {"", "smem_per_block=49152", "warp_size=32", "compute_units=64"}) {
    CAPTURE(set);
    Profile p = Profile::BiV100();
    std::string err;
    if (*set != '\0') REQUIRE(p.ApplySet(set, &err));
    Workload w = Workload::Defaults();
    AutotuneResult r = DeriveAutotune(p, w, DesignNotesSpace());
    REQUIRE(!r.selected.empty());
    int64_t stage_limit = std::stoll(DeriveStageLimit(p).value);
    for (const AutotuneCandidate& c : r.valid) {
      int64_t smem = AttentionTileSmem(w.Get("head_dim"), c.block_m, c.block_n, c.stages,
                                       w.Get("dtype_bytes"));
      CHECK(smem <= static_cast<int64_t>(p.Get("smem_per_block")));
      CHECK(c.warps * static_cast<int64_t>(p.Get("warp_size")) <=
            static_cast<int64_t>(p.Get("max_threads_per_block")));
      CHECK(c.stages <= stage_limit);
      CHECK(c.regs <= static_cast<int64_t>(p.Get("max_regs_per_thread")));
      CHECK(c.regs * c.threads <= static_cast<int64_t>(p.Get("regs_per_cu")));
      CHECK(c.block_m * c.block_n >= kMinScoresPerThread * c.threads);
    }
  }
}

TEST_CASE("property: the prefix-prefill tile fits every profile that has a value") {
  for (const char* set :
       {"", "smem_per_block=32768", "warp_size=32", "compute_units=64", "smem_per_block=65536"}) {
    CAPTURE(set);
    Profile p = Profile::BiV100();
    std::string err;
    if (*set != '\0') REQUIRE(p.ApplySet(set, &err));
    for (const char* dim : {"64", "128", "256"}) {
      Workload w = Workload::Defaults();
      REQUIRE(w.Set("head_dim", dim, &err));
      Derivation b = DerivePrefixBlock(p, w);
      if (!b.error.empty()) continue;  // reported as an error, never emitted
      int64_t block = std::stoll(b.value);
      int64_t smem = static_cast<int64_t>(p.Get("smem_per_block"));
      CHECK(AttentionTileSmem(w.Get("head_dim"), block, block, 1, 2) <= smem);
      CHECK(AttentionTileSmem(w.Get("head_dim"), block / 2, block / 2, 1, 4) <= smem);
      CHECK(block / 2 >= kMinDotSize);
      Derivation wn = DerivePrefixNumWarps(p, w, block);
      REQUIRE(wn.error.empty());
      CHECK(std::stoll(wn.value) * static_cast<int64_t>(p.Get("warp_size")) <=
            static_cast<int64_t>(p.Get("max_threads_per_block")));
    }
  }
}

}  // namespace muh
