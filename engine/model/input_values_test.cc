#include "engine/model/input_values.h"

#include <doctest/doctest.h>

#include "engine/model/model_values.h"

namespace muh {

TEST_CASE("every fact and workload entry is an input, written as the model prints it") {
  Profile p = Profile::BiV100();
  std::string err;
  REQUIRE(p.ApplySet("compute_capability=7.5", &err));
  Workload w = Workload::Defaults();
  REQUIRE(w.Set("max_model_len", "100000", &err));
  std::map<std::string, Value, std::less<>> in = InputValues(p, w);
  CHECK(in.size() == p.facts().size() + w.items().size());
  CHECK(in.at("fact.smem_per_block").text == "32768");
  CHECK(in.at("fact.warp_size").text == "64");
  CHECK(in.at("fact.compute_capability").text == "7.5");
  CHECK(in.at("workload.max_model_len").text == "100000");
  CHECK(in.at("workload.dtype_bytes").text == "2");
  // A model total, as declared: not divided by tensor_parallel_size.
  CHECK(in.at("workload.num_q_heads").text == std::to_string(w.Get("num_q_heads")));
  // Each says where its value comes from; a shaky fact warns.
  const Value& smem = in.at("fact.smem_per_block");
  CHECK(smem.why.find("fact.smem_per_block = 32768") == 0);
  CHECK(smem.why.find("conflicting") != std::string::npos);
  CHECK(smem.why.find("decided by: the profile bi100's value") != std::string::npos);
  CHECK(smem.warnings.size() == 1);
  CHECK(in.at("fact.compute_capability").why.find("given by --hw or --set") != std::string::npos);
  CHECK(in.at("workload.max_model_len").why.find("max_model_len = 100000 (rule file)") !=
        std::string::npos);
  CHECK(in.at("fact.warp_size").warnings.empty());
}

TEST_CASE("input names") {
  CHECK(IsInputName("fact.warp_size"));
  CHECK(IsInputName("workload.max_model_len"));
  CHECK_FALSE(IsInputName("fact."));
  CHECK_FALSE(IsInputName("warp_size"));
  CHECK_FALSE(IsInputName("factwarp_size"));
}

TEST_CASE("a site an input sizes takes the input's domain") {
  // A fact's, as fact_domain.h gives it.
  CHECK(InputDomainProblem("fact.warp_size", "64") == "");
  CHECK(InputDomainProblem("fact.warp_size", "2 ** 5") == "");
  CHECK(InputDomainProblem("fact.warp_size", "48") ==
        "48 is no card's warp_size: it must be a power of two from 32 to 64 threads (NVIDIA's 32 "
        "or AMD's and Iluvatar's 64)");
  CHECK(InputDomainProblem("fact.smem_per_block", "48 * 1024") == "");
  CHECK(InputDomainProblem("fact.smem_per_block", "1000")
            .find("1000 is no card's "
                  "smem_per_block: it must be a "
                  "multiple of 1024") == 0);
  CHECK(InputDomainProblem("fact.compute_capability", "7.5") == "");
  CHECK(InputDomainProblem("fact.compute_capability", "75.0") != "");
  // A workload entry's range.
  CHECK(InputDomainProblem("workload.max_model_len", "32768") == "");
  CHECK(InputDomainProblem("workload.max_model_len", "0") ==
        "0 is no workload's max_model_len: it must be a whole number from 1 to 1073741824");
  CHECK(InputDomainProblem("workload.dtype_bytes", "3") ==
        "3 is not a dtype's size: it must be 2 or 4 bytes");
  // What is not a literal is not known here; a name that is no input has
  // no domain of this kind.
  CHECK(InputDomainProblem("fact.warp_size", "WARP") == "");
  CHECK(InputDomainProblem("fact.warp_size", "n * 2") == "");
  CHECK(InputDomainProblem("smem_limit_bytes", "1000") == "");
}

TEST_CASE("the model answers its inputs beside its quantities") {
  Profile p = Profile::BiV100();
  std::string err;
  REQUIRE(p.ApplySet("warp_size=32", &err));
  ModelValues m(p, Workload::Defaults(), {});
  REQUIRE(m.Find("fact.warp_size") != nullptr);
  CHECK(m.Find("fact.warp_size")->text == "32");
  CHECK(m.Find("workload.max_num_seqs")->text == "256");
  CHECK(m.Find("fact.nothing") == nullptr);
  // Names() stays the quantities' (messages list them); InputNames() the inputs.
  std::vector<std::string> names = m.Names();
  CHECK(std::find(names.begin(), names.end(), "fact.warp_size") == names.end());
  std::vector<std::string> inputs = m.InputNames();
  CHECK(inputs.size() == p.facts().size() + Workload::Defaults().items().size());
  CHECK(std::is_sorted(inputs.begin(), inputs.end()));
  CHECK(std::find(inputs.begin(), inputs.end(), "workload.topk") != inputs.end());
  // The same kernel checks: the domain of the input the template names.
  CHECK(m.DomainProblem("fact.warp_size", "100") != "");
  CHECK(m.DomainProblem("fact.warp_size", "64") == "");
  // A measurement cannot decide an input: it is no quantity the model derives.
  CHECK_FALSE(m.Measurable("fact.warp_size"));
}

}  // namespace muh
