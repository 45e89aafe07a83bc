#include "engine/rules/template_inputs.h"

#include <doctest/doctest.h>

#include <memory>

#include "engine/model/model_values.h"
#include "engine/rules/rule_loader.h"

namespace muh {

namespace {

const std::vector<std::string> kInputs = {"fact.smem_per_block", "fact.warp_size",
                                          "workload.max_model_len", "workload.topk"};

Template Parsed(const std::string& text) {
  Template t;
  std::string err;
  std::size_t at = 0;
  REQUIRE(Template::Parse(text, &t, &err, &at));
  return t;
}

// What loading a one-rule file whose template is `with` says, against the
// built-in model.
std::string Errors(const std::string& with) {
  std::string text =
      "version: 1\n"
      "rules:\n"
      "  - id: knob\n"
      "    files: vllm/a.py\n"
      "    query: \"((integer) @value)\"\n"
      "    replace: value\n"
      "    with: \"" +
      with + "\"\n";
  auto model = std::make_shared<ModelValues>(Profile::BiV100(), Workload::Defaults(),
                                             std::vector<SearchSpace>{});
  RuleSet set;
  std::vector<Diagnostic> errors;
  LoadRules("r.yaml", text, model, &set, &errors);
  std::string out;
  for (const Diagnostic& d : errors) out += d.Format() + "\n";
  return out;
}

}  // namespace

TEST_CASE("an unknown input is named with the inputs of its kind") {
  CHECK(UnknownInput("fact.warp_sise", kInputs) ==
        "unknown hardware fact 'fact.warp_sise' (did you mean 'fact.warp_size'?) (facts: "
        "fact.smem_per_block, fact.warp_size)");
  CHECK(UnknownInput("workload.block_size", kInputs) ==
        "unknown workload quantity 'workload.block_size' (workload: workload.max_model_len, "
        "workload.topk)");
  CHECK(UnknownInput("fact.x", {}) == "unknown hardware fact 'fact.x' (facts: none)");
}

TEST_CASE("a plain name that is an input's is pointed at the input") {
  CHECK(InputHint("warp_size", kInputs) == " (the hardware fact is 'fact.warp_size')");
  CHECK(InputHint("topk", kInputs) == " (the workload quantity is 'workload.topk')");
  CHECK(InputHint("block", kInputs) == "");
}

TEST_CASE("a template names inputs or quantities, not both") {
  std::size_t at = 0;
  CHECK(MixedInputs(Parsed("{{fact.warp_size}} * {{workload.topk}}"), &at) == "");
  CHECK(MixedInputs(Parsed("{{smem_limit_kib}} * 1024"), &at) == "");
  CHECK(MixedInputs(Parsed("{{fact.warp_size}} * {{prefix_num_warps_below_sm80}}"), &at) ==
        "'fact.warp_size' and 'prefix_num_warps_below_sm80' in one template: a template names "
        "inputs of the model (fact.NAME, workload.NAME) or its quantities, not both (a kept or "
        "pinned value is checked against one kernel domain)");
  CHECK(at == 21);
  CHECK(MixedInputs(Parsed("{{moe_block_m_for_numel(@b)}} + {{workload.topk}}"), &at) != "");
  CHECK(at == 32);
}

TEST_CASE("rules load with inputs in templates, and unknown ones are located") {
  CHECK(Errors("{{fact.smem_per_block}}") == "");
  CHECK(Errors("{{workload.max_model_len}} // 2") == "");
  CHECK(Errors("{{fact.smem_per_blok}}") ==
        "r.yaml:7:12: error: unknown hardware fact 'fact.smem_per_blok' (did you mean "
        "'fact.smem_per_block'?) (facts: fact.clock_mhz, fact.compute_capability, "
        "fact.compute_units, fact.fp16_tflops, fact.hbm_bandwidth, fact.max_regs_per_thread, "
        "fact.max_stages, fact.max_threads_per_block, fact.max_threads_per_cu, "
        "fact.prebuilt_partition_size, fact.regs_per_cu, fact.smem_per_block, fact.warp_size)\n");
  CHECK(Errors("2 * {{workload.max_modl_len}}")
            .find("r.yaml:7:16: error: unknown workload quantity 'workload.max_modl_len' (did you "
                  "mean 'workload.max_model_len'?) (workload: workload.dtype_bytes, ") == 0);
  std::string plain = Errors("{{warp_size}}");
  CHECK(plain.find("r.yaml:7:12: error: unknown value 'warp_size'") == 0);
  CHECK(plain.find("(the hardware fact is 'fact.warp_size')\n") != std::string::npos);
  CHECK(Errors("{{fact.warp_size}} * {{partition_size}}")
            .find("r.yaml:7:33: error: 'fact.warp_size' and 'partition_size' in one template") ==
        0);
}

}  // namespace muh
