#include "engine/model/fact_domain.h"

#include <doctest/doctest.h>

#include <cmath>

#include "engine/model/facts.h"

namespace muh {

TEST_CASE("every built-in fact lies inside its domain") {
  Profile p = Profile::BiV100();
  for (const std::string& name : p.Names()) {
    CHECK_MESSAGE(FactDomainProblem(name, p.Get(name)).empty(), name);
  }
}

TEST_CASE("a fact outside its domain names the domain") {
  CHECK(FactDomainProblem("smem_per_block", 49152).empty());
  CHECK(FactDomainProblem("smem_per_block", 232448).empty());  // an H200's 227 KiB
  CHECK(FactDomainProblem("smem_per_block", 12345) ==
        "it must be a multiple of 1024 from 16384 to 1048576 bytes (whole KiB: the limit every "
        "card reports)");
  CHECK_FALSE(FactDomainProblem("smem_per_block", 16384.0 * 1024).empty());  // 16 MiB
  CHECK_FALSE(FactDomainProblem("smem_per_block", 48).empty());              // KiB for bytes
  CHECK(FactDomainProblem("prebuilt_partition_size", 0).empty());
  CHECK(FactDomainProblem("prebuilt_partition_size", 1024).empty());
  CHECK(FactDomainProblem("prebuilt_partition_size", 500) ==
        "it must be 0, or a power of two from 16 to 65536 tokens (0 when the kernel accepts any "
        "size)");
  CHECK(FactDomainProblem("compute_capability", 7.5).empty());
  CHECK_FALSE(FactDomainProblem("compute_capability", 75).empty());
  CHECK_FALSE(FactDomainProblem("max_stages", 2.5).empty());
  CHECK_FALSE(FactDomainProblem("compute_units", std::nan("")).empty());
  CHECK_FALSE(FactDomainProblem("hbm_bandwidth", INFINITY).empty());
  CHECK(FactDomainProblem("no_such_fact", -1).empty());
}

TEST_CASE("--set, a profile and the tree meet the same domain") {
  Profile p = Profile::BiV100();
  std::string err;
  CHECK_FALSE(p.ApplySet("smem_per_block=16777216", &err));
  CHECK(err.rfind("smem_per_block = 16777216 is no card's: it must be a multiple of 1024", 0) == 0);
  TreeFact t;
  t.fact = "smem_per_block";
  t.value = 12345;
  t.where = "vllm/_custom_ops.py:294";
  t.text = "return 12345";
  CHECK_FALSE(p.SetFromTree(t, &err));
  CHECK(p.Get("smem_per_block") == 32768);
}

}  // namespace muh
