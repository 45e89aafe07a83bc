#include "engine/model/profile_yaml.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("a profile file overrides facts with their source") {
  Profile p = Profile::BiV100();
  std::vector<Diagnostic> errs;
  REQUIRE(ApplyProfileYaml("card.yaml",
                           "profile: lab-7\n"
                           "facts:\n"
                           "  smem_per_block: 32768\n"
                           "  compute_units: {value: 16, source: ixsmi -q, confidence: measured}\n",
                           &p, &errs));
  CHECK(p.Get("smem_per_block") == 32768);
  CHECK(p.Find("smem_per_block")->source == "card.yaml");
  CHECK(p.Find("smem_per_block")->confidence == Confidence::kMeasured);
  CHECK(p.Find("compute_units")->source == "ixsmi -q");
  // Reports print the profile's own name, not the built-in one's.
  CHECK(p.name() == "lab-7");
  Profile unnamed = Profile::BiV100();
  REQUIRE(ApplyProfileYaml("cards/x.yaml", "facts:\n  compute_units: 16\n", &unnamed, &errs));
  CHECK(unnamed.name() == "cards/x.yaml");
  CHECK(Profile::BiV100().name() == "bi100");
}

TEST_CASE("profile errors are located in the file") {
  Profile p = Profile::BiV100();
  std::vector<Diagnostic> errs;
  CHECK_FALSE(
      ApplyProfileYaml("card.yaml", "facts:\n  smem_per_blok: 1\n  warp_size: 48\n", &p, &errs));
  REQUIRE(errs.size() == 2);
  CHECK(errs[0].Format().rfind(
            "card.yaml:2:3: error: unknown hardware fact 'smem_per_blok' (did you mean "
            "'smem_per_block'?)",
            0) == 0);
  CHECK(errs[1].Format() ==
        "card.yaml:3:3: error: warp_size = 48 is no card's: it must be a power of two from 32 to "
        "64 threads (NVIDIA's 32 or AMD's and Iluvatar's 64)");
}

TEST_CASE("a duplicate key in a profile is an error, not the last value") {
  Profile p = Profile::BiV100();
  std::vector<Diagnostic> errs;
  CHECK_FALSE(ApplyProfileYaml(
      "card.yaml",
      "facts:\n  smem_per_block: 32768\n  smem_per_block:\n    value: 65536\n    value: 1\n", &p,
      &errs));
  REQUIRE(errs.size() == 2);
  CHECK(errs[0].Format() ==
        "card.yaml:3:3: error: duplicate key 'smem_per_block' (first at line 2)");
  CHECK(errs[1].Format() == "card.yaml:5:5: error: duplicate key 'value' (first at line 4)");
  errs.clear();
  CHECK_FALSE(ApplyProfileYaml("card.yaml", "facts: {}\nfacts: {}\n", &p, &errs));
  REQUIRE_FALSE(errs.empty());
  CHECK(errs[0].Format() == "card.yaml:2:1: error: duplicate key 'facts' (first at line 1)");
}

}  // namespace muh
