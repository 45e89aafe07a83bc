#include "engine/model/facts.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("the built-in profile records the smem conflict and the unconfirmed CU count") {
  Profile p = Profile::BiV100();
  const Fact* smem = p.Find("smem_per_block");
  REQUIRE(smem != nullptr);
  // The value that cannot break a kernel.
  CHECK(smem->value == 32768);
  CHECK(smem->confidence == Confidence::kConflicting);
  CHECK(smem->alternative.find("49152") != std::string::npos);
  CHECK_FALSE(smem->user_given);
  const Fact* partition = p.Find("prebuilt_partition_size");
  REQUIRE(partition != nullptr);
  CHECK(partition->value == 512);
  CHECK(partition->confidence == Confidence::kVendor);
  CHECK(p.Find("compute_units")->confidence == Confidence::kClaimed);
  CHECK(p.Get("warp_size") == 64);
  CHECK(p.Get("max_stages") == 2);
  for (const char* name :
       {"warp_size", "compute_units", "smem_per_block", "compute_capability", "max_stages",
        "regs_per_cu", "max_threads_per_cu", "hbm_bandwidth", "clock_mhz"}) {
    CHECK_MESSAGE(p.Find(name) != nullptr, name);
  }
}

TEST_CASE("--set overrides a fact and marks it as measured") {
  Profile p = Profile::BiV100();
  std::string err;
  REQUIRE(p.ApplySet("smem_per_block=32768", &err));
  CHECK(p.Get("smem_per_block") == 32768);
  CHECK(p.Find("smem_per_block")->confidence == Confidence::kMeasured);
  CHECK(p.Find("smem_per_block")->alternative.empty());
  CHECK(p.Find("smem_per_block")->user_given);
  REQUIRE(p.ApplySet("compute_capability=7.5", &err));
  CHECK(p.Get("compute_capability") == 7.5);
}

TEST_CASE("--set rejects unknown facts and silly values") {
  Profile p = Profile::BiV100();
  std::string err;
  CHECK_FALSE(p.ApplySet("smem_per_blok=1", &err));
  CHECK(err.rfind("unknown hardware fact 'smem_per_blok' (did you mean 'smem_per_block'?)", 0) ==
        0);
  CHECK_FALSE(p.ApplySet("warp_size=48", &err));
  CHECK(err ==
        "warp_size = 48 is no card's: it must be a power of two from 32 to 64 threads (NVIDIA's "
        "32 or AMD's and Iluvatar's 64)");
  CHECK_FALSE(p.ApplySet("compute_units=abc", &err));
  CHECK(err == "--set compute_units: 'abc' is not a number");
  CHECK_FALSE(p.ApplySet("compute_units", &err));
  CHECK_FALSE(p.ApplySet("compute_units=-3", &err));
  CHECK_FALSE(p.ApplySet("compute_units=0", &err));
  // 0 is meaningful for one fact: the v2 kernel accepts any partition size.
  CHECK(p.ApplySet("prebuilt_partition_size=0", &err));
}

}  // namespace muh

namespace muh {

TEST_CASE("the tree's value sits above the built-in default, below --hw and --set") {
  Profile p = Profile::BiV100();
  std::string err;
  REQUIRE(
      p.SetFromTree({"smem_per_block", 49152, "vllm/_custom_ops.py:892", "return 49152"}, &err));
  const Fact* smem = p.Find("smem_per_block");
  CHECK(smem->value == 49152);
  CHECK(smem->from_tree);
  CHECK_FALSE(smem->user_given);
  CHECK(smem->source == "the tree's value: vllm/_custom_ops.py:892: `return 49152`");
  REQUIRE(smem->passed_over.size() == 1);
  CHECK(smem->passed_over[0] ==
        "32768 (the built-in default, the value that cannot break a kernel)");
  REQUIRE(p.ApplySet("smem_per_block=40960", &err));
  CHECK(smem->value == 40960);
  CHECK_FALSE(smem->from_tree);
  REQUIRE(smem->passed_over.size() == 2);
  CHECK(smem->passed_over[1] ==
        "49152 (the tree's value: vllm/_custom_ops.py:892: `return 49152`)");
  CHECK_FALSE(p.SetFromTree({"smem_per_block", 0, "a.py:1", "return 0"}, &err));
}

}  // namespace muh
