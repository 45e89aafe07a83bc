#include "engine/model/hf_config.h"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

namespace muh {

namespace {
std::string Example(const char* name) {
  std::ifstream in(std::string(MUHPATCH_SOURCE_DIR) + "/rules/examples/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
}  // namespace

TEST_CASE("config.json: the Qwen3-MoE example") {
  Workload w = Workload::Defaults();
  std::vector<std::string> errors;
  REQUIRE(WorkloadFromHfConfig(Example("qwen3-moe-config.json"), &w, &errors));
  CHECK(errors.empty());
  CHECK(w.Get("head_dim") == 128);
  CHECK(w.Get("num_q_heads") == 32);
  CHECK(w.Get("num_kv_heads") == 4);
  CHECK(w.Get("hidden_size") == 2048);
  CHECK(w.Get("num_experts") == 128);
  CHECK(w.Get("topk") == 8);
  CHECK(w.Get("moe_intermediate_size") == 768);
  CHECK(w.Get("dtype_bytes") == 2);
  CHECK(w.Find("head_dim")->origin == "config.json");
  CHECK(w.Find("max_num_seqs")->origin == "default");
  // Per GPU at -tp 4: 8 query heads, 1 KV head, 192 intermediate.
  std::string err;
  REQUIRE(w.SetNumber("tensor_parallel_size", 4, "serve args", &err));
  CHECK(w.PerRank("num_q_heads") == 8);
  CHECK(w.PerRank("num_kv_heads") == 1);
  CHECK(w.PerRank("moe_intermediate_size") == 192);
  CHECK(w.PerRank("num_experts") == 128);
}

TEST_CASE("config.json: head_dim from hidden_size, Mixtral's names, text_config") {
  Workload w = Workload::Defaults();
  std::vector<std::string> errors;
  REQUIRE(WorkloadFromHfConfig(R"({"hidden_size": 4096, "num_attention_heads": 32,
      "num_key_value_heads": 8, "num_local_experts": 8, "num_experts_per_tok": 2,
      "intermediate_size": 14336, "torch_dtype": "float32"})",
                               &w, &errors));
  CHECK(w.Get("head_dim") == 128);
  CHECK(w.Get("num_experts") == 8);
  CHECK(w.Get("topk") == 2);
  CHECK(w.Get("moe_intermediate_size") == 14336);
  CHECK(w.Get("dtype_bytes") == 4);
  Workload v = Workload::Defaults();
  REQUIRE(WorkloadFromHfConfig(R"({"model_type": "x", "text_config": {"hidden_size": 2560,
      "num_attention_heads": 20, "head_dim": 256}})",
                               &v, &errors));
  CHECK(v.Get("head_dim") == 256);
  CHECK(v.Get("num_kv_heads") == 20);  // absent: as many as the query heads
  CHECK(v.Get("num_experts") == 128);  // a dense model leaves the MoE entries alone
}

TEST_CASE("config.json: errors name the key, and nothing is set") {
  Workload w = Workload::Defaults();
  std::vector<std::string> errors;
  CHECK_FALSE(WorkloadFromHfConfig(R"({"hidden_size": 4096, "num_attention_heads": 0,
      "num_experts": 64, "torch_dtype": "float8"})",
                                   &w, &errors));
  CHECK(errors == std::vector<std::string>{
                      "'num_attention_heads' must be a positive whole number, got 0",
                      "'torch_dtype' must be float16, bfloat16 or float32, got \"float8\"",
                      "'num_experts' is set but 'num_experts_per_tok' is missing",
                      "'num_experts' is set but neither 'moe_intermediate_size' nor "
                      "'intermediate_size' is"});
  CHECK(w.Get("hidden_size") == 4096);
  CHECK(w.Find("hidden_size")->origin == "default");
  errors.clear();
  CHECK_FALSE(
      WorkloadFromHfConfig(R"({"hidden_size": 100, "num_attention_heads": 3})", &w, &errors));
  CHECK(errors == std::vector<std::string>{"no 'head_dim', and hidden_size 100 is not a multiple "
                                           "of num_attention_heads 3"});
  errors.clear();
  CHECK_FALSE(WorkloadFromHfConfig("{\"hidden_size\": 4096,\n  \"x\": }", &w, &errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].rfind("malformed JSON: parse error at line 2, column 8", 0) == 0);
  errors.clear();
  // A number out of range is bad input too, not an internal error.
  CHECK_FALSE(WorkloadFromHfConfig(R"({"num_attention_heads": 1e400})", &w, &errors));
  CHECK(errors == std::vector<std::string>{"malformed JSON: number overflow parsing '1e400'"});
  errors.clear();
  CHECK_FALSE(WorkloadFromHfConfig("[1, 2]", &w, &errors));
  CHECK(errors == std::vector<std::string>{"a config.json must be a JSON object"});
}

}  // namespace muh
