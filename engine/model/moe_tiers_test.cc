#include "engine/model/moe_tiers.h"

#include <doctest/doctest.h>

#include "engine/model/moe_knobs.h"

namespace muh {

namespace {

// 16384 batched tokens of top-8 routing over 128 experts: up to 131072 pairs
// (BLOCK_SIZE_M depends on nothing else of the workload).
Workload Deployment() {
  Workload w = Workload::Defaults();
  std::string err;
  REQUIRE(w.Set("max_batched_tokens", "16384", &err));
  return w;
}

TierChainShape Chain(const std::string& text) {
  TierChainShape c;
  std::string error;
  REQUIRE_MESSAGE(ParseTierChain(text, &c, &error), error);
  return c;
}

// bench/probe/h200/moe-tiers.json's points: numel = 8 * M, M = 16 .. 16384.
MoeTierMeasurements H200() {
  return {"h200.json",
          {{128, {{"16", 55.38}, {"64", 75.89}}},
           {512, {{"16", 79.31}, {"64", 100.22}}},
           {2048, {{"64", 85.21}, {"128", 109.0}}},
           {8192, {{"64", 109.03}, {"128", 116.75}}},
           {32768, {{"128", 238.85}}},
           {131072, {{"128", 744.36}}}}};
}

}  // namespace

TEST_CASE("the @bounds text: ascending bounds, computed ones marked, else last") {
  TierChainShape c = Chain("64 1024 5120* 10240* else");
  CHECK(c.bounds == std::vector<int64_t>{64, 1024, 5120, 10240});
  CHECK(c.computed == std::vector<bool>{false, false, true, true});
  CHECK(c.has_else);
  CHECK(c.Text() == "64 1024 5120* 10240* else");
  CHECK(c.Describe(0) == "numel <= 64");
  CHECK(c.Describe(2) == "1024 < numel <= 5120");
  CHECK(c.Describe(4) == "numel > 10240");
  std::string error;
  CHECK_FALSE(ParseTierChain("64 32 else", &c, &error));
  CHECK(error == "the tier bounds '64 32 else' do not ascend");
  CHECK_FALSE(ParseTierChain("else 64", &c, &error));
  CHECK_FALSE(ParseTierChain("x1", &c, &error));
}

TEST_CASE("without measurements each tier is sized for the range the code gives it") {
  Profile p = Profile::BiV100();
  Workload w = Deployment();
  MoeTierFamily f = DeriveMoeTiers(p, w, Chain("64 1024 else"), nullptr);
  REQUIRE(f.values.size() == 3);
  // The same values the fixed ranges gave: 16, 16, 128.
  CHECK(f.values[0].value == DeriveMoeBlockM(p, w, 0, 64, "q", "t").value);
  CHECK(f.values[1].value == "16");
  CHECK(f.values[2].value == "128");
  CHECK(f.values[2].quantity == "moe_block_m_tier[numel > 1024]");
  CHECK(f.values[2].sized_for.rfind("1025 to 131072 token-expert pairs", 0) == 0);
  // The bounds stay: nothing measured them.
  REQUIRE(f.bounds.size() == 2);
  CHECK(f.bounds[1].value == "1024");
  CHECK(f.bounds[1].decided_by.rfind("kept as the code has it", 0) == 0);
  // Five tiers: the else covers numel > 10240 only.
  MoeTierFamily five = DeriveMoeTiers(p, w, Chain("64 1024 5120* 10240* else"), nullptr);
  REQUIRE(five.values.size() == 5);
  CHECK(five.values[4].sized_for.rfind("10241 to 131072 token-expert pairs", 0) == 0);
  CHECK(five.values[3].sized_for.rfind("5121 to 10240 token-expert pairs", 0) == 0);
}

TEST_CASE("measurements choose the literal bounds and the values together") {
  Profile p = Profile::BiV100();
  Workload w = Deployment();
  MoeTierMeasurements m = H200();
  MoeTierFamily f = DeriveMoeTiers(p, w, Chain("64 1024 else"), &m);
  REQUIRE(f.values.size() == 3);
  CHECK(f.values[0].value == "16");
  CHECK(f.values[1].value == "64");
  CHECK(f.values[2].value == "128");
  CHECK(f.values[1].quantity == "moe_block_m_tier[1024 < numel <= 16384]");
  CHECK(f.values[1].measured.find("numel 2048: 64 85.21 us, 128 109 us") != std::string::npos);
  CHECK(f.bounds[0].value == "1024");
  CHECK(f.bounds[1].value == "16384");
  CHECK(f.bounds[1].decided_by.find("between numel 8192 (tier 2) and 32768 (tier 3); the code "
                                    "had 1024") != std::string::npos);
}

TEST_CASE("a computed bound keeps the code's bounds, and measured values still decide inside") {
  Profile p = Profile::BiV100();
  Workload w = Deployment();
  MoeTierMeasurements m = H200();
  MoeTierFamily f = DeriveMoeTiers(p, w, Chain("64 1024 5120* 10240* else"), &m);
  REQUIRE(f.bounds.size() == 4);
  CHECK(f.bounds[1].value == "1024");
  CHECK(f.bounds[1].decided_by.find("bound 3 (5120) is computed from a module constant") !=
        std::string::npos);
  CHECK(f.bounds[2].decided_by == "computed from a module constant: never rewritten");
  CHECK(f.values[1].value == "16");   // 512 alone
  CHECK(f.values[2].value == "64");   // 2048
  CHECK(f.values[3].value == "64");   // 8192
  CHECK(f.values[4].value == "128");  // 32768 and 131072
  // No point in (0, 64]: the model sizes it.
  CHECK(f.values[0].measured.empty());
  CHECK(f.values[0].decided_by.find("no measured point") != std::string::npos);
}

}  // namespace muh
