#include "engine/model/serve_args.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "engine/model/vllm_options.h"

namespace muh {

TEST_CASE("serve args: the fork's command line") {
  std::ifstream in(std::string(MUHPATCH_SOURCE_DIR) + "/rules/examples/serve-args.txt");
  std::stringstream text;
  text << in.rdbuf();
  Workload w = Workload::Defaults();
  std::vector<std::string> errors;
  REQUIRE(WorkloadFromServeArgs(text.str(), &w, &errors));
  CHECK(w.Get("tensor_parallel_size") == 4);
  CHECK(w.Get("max_num_seqs") == 1);
  CHECK(w.Get("max_model_len") == 100000);
  CHECK(w.Get("max_batched_tokens") == 16384);
  CHECK(w.Find("max_num_seqs")->origin == "serve args");
  CHECK(w.Find("head_dim")->origin == "default");
}

TEST_CASE("serve args: --opt=value, quoting, the last occurrence wins, dtype") {
  Workload w = Workload::Defaults();
  std::vector<std::string> errors;
  REQUIRE(WorkloadFromServeArgs(
      "vllm serve 'my model' --tensor-parallel-size=2 --max-num-seqs \"64\" --max-num-seqs 32 "
      "--dtype half # -tp 8\n",
      &w, &errors));
  CHECK(w.Get("tensor_parallel_size") == 2);
  CHECK(w.Get("max_num_seqs") == 32);
  CHECK(w.Get("dtype_bytes") == 2);
  REQUIRE(WorkloadFromServeArgs("--dtype float32", &w, &errors));
  CHECK(w.Get("dtype_bytes") == 4);
  REQUIRE(WorkloadFromServeArgs("--dtype auto", &w, &errors));
  CHECK(w.Get("dtype_bytes") == 4);
}

TEST_CASE("serve args: errors name the option, and nothing is set") {
  Workload w = Workload::Defaults();
  std::vector<std::string> errors;
  CHECK_FALSE(
      WorkloadFromServeArgs("-tp 4 --max-num-seqs many --max-model-len --dtype fp8 "
                            "--max-num-batched-tokens",
                            &w, &errors));
  CHECK(errors == std::vector<std::string>{
                      "'--max-num-seqs' expects a positive whole number, got 'many'",
                      "'--max-model-len' needs a value",
                      "'--dtype' must be auto, float16, half, bfloat16, float32 or float, got "
                      "'fp8'",
                      "'--max-num-batched-tokens' needs a value"});
  CHECK(w.Get("tensor_parallel_size") == 1);
  errors.clear();
  CHECK_FALSE(WorkloadFromServeArgs("-tp 0", &w, &errors));
  CHECK(errors == std::vector<std::string>{"'-tp' expects a positive whole number, got '0'"});
  errors.clear();
  CHECK_FALSE(WorkloadFromServeArgs("--model 'unterminated", &w, &errors));
  CHECK(errors == std::vector<std::string>{"unterminated single quote at byte 8"});
}

TEST_CASE("shell words: continuations, escapes, comments") {
  std::vector<std::string> words;
  std::string err;
  REQUIRE(SplitShellWords("a \\\n  b\\ c \"d \\\"e\\\"\" 'f\\g' # h i\nj", &words, &err));
  CHECK(words == std::vector<std::string>{"a", "b c", "d \"e\"", "f\\g", "j"});
}

}  // namespace muh

namespace muh {

namespace {
// The warnings' messages, and the byte of each.
std::vector<std::string> Warned(const std::string& args, Workload* w) {
  std::vector<std::string> errors;
  std::vector<ServeArgWarning> warnings;
  REQUIRE(WorkloadFromServeArgs(args, w, &errors, &warnings));
  std::vector<std::string> out;
  for (const ServeArgWarning& x : warnings)
    out.push_back(std::to_string(x.offset) + " " + x.message);
  return out;
}
}  // namespace

TEST_CASE("serve args: an unambiguous prefix is the option, as in argparse") {
  Workload w = Workload::Defaults();
  CHECK(Warned("vllm serve m --max-num-batched-token 4096 --max-model 2048 --tensor-p=2", &w)
            .empty());
  CHECK(w.Get("max_batched_tokens") == 4096);
  CHECK(w.Get("max_model_len") == 2048);
  CHECK(w.Get("tensor_parallel_size") == 2);
  // FlexibleArgumentParser: `_` for `-` in a `--` name.
  CHECK(Warned("--max_num_seqs 3", &w).empty());
  CHECK(w.Get("max_num_seqs") == 3);
  // Other options, whole or abbreviated, are read as nothing, without a word.
  CHECK(Warned("--enforce-eager --gpu-memory-util 0.9 --seed -1 --trust-remote", &w).empty());
}

TEST_CASE("serve args: a typo or an ambiguous prefix is warned, with the likeliest option") {
  Workload w = Workload::Defaults();
  CHECK(Warned("vllm serve m \\\n  --max-num-bached-tokens 4096 --max-num 8", &w) ==
        std::vector<std::string>{
            "17 '--max-num-bached-tokens' is not an option of vLLM 0.6.3's `vllm serve` (did "
            "you mean '--max-num-batched-tokens'?); vLLM refuses it, and nothing is read from it",
            "46 '--max-num' is ambiguous to vLLM 0.6.3: it could be --max-num-batched-tokens, "
            "--max-num-seqs; vLLM refuses it, and nothing is read from it"});
  CHECK(w.Get("max_batched_tokens") == Workload::Defaults().Get("max_batched_tokens"));
  CHECK(Warned("--config serve.yaml", &w) ==
        std::vector<std::string>{"0 '--config' loads options from a file that muhpatch does not "
                                 "read: give the options that size the kernels on the command "
                                 "line"});
}

TEST_CASE("the option list: vLLM 0.6.3's, sorted, with the ones the model reads") {
  const std::vector<std::string>& o = VllmServeOptions();
  CHECK(std::is_sorted(o.begin(), o.end()));
  CHECK(o.size() == 120);
  for (const char* need : {"-tp", "--tensor-parallel-size", "--max-num-seqs",
                           "--max-num-batched-tokens", "--max-model-len", "--dtype", "--port"}) {
    CHECK(std::binary_search(o.begin(), o.end(), std::string(need)));
  }
  CHECK(MatchVllmOption("--max-num-seq").option == "--max-num-seqs");
  CHECK(MatchVllmOption("--max").ambiguous.size() > 2);
  CHECK(MatchVllmOption("--nope").option.empty());
}

}  // namespace muh

namespace muh {

TEST_CASE("serve args: the environment assignments before the command") {
  std::vector<EnvAssignment> env;
  std::string err;
  REQUIRE(LeadingEnvAssignments(
      "VLLM_ATTENTION_BACKEND=ROCM_FLASH HOME='/a b' vllm serve m --dtype=half X=1", &env, &err));
  REQUIRE(env.size() == 2);
  CHECK(env[0].name == "VLLM_ATTENTION_BACKEND");
  CHECK(env[0].value == "ROCM_FLASH");
  CHECK(env[0].offset == 0);
  CHECK(env[1].name == "HOME");
  CHECK(env[1].value == "/a b");
  CHECK(env[1].offset == 34);
  env.clear();
  REQUIRE(LeadingEnvAssignments("env VLLM_X= \\\n  python -m vllm.entrypoints.openai.api_server",
                                &env, &err));
  REQUIRE(env.size() == 1);
  CHECK(env[0].value.empty());
  env.clear();
  REQUIRE(LeadingEnvAssignments("vllm serve m VLLM_X=1", &env, &err));
  CHECK(env.empty());
  CHECK_FALSE(LeadingEnvAssignments("VLLM_X='1 vllm serve", &env, &err));
  // The workload reads past them.
  Workload w = Workload::Defaults();
  std::vector<std::string> errors;
  CHECK(WorkloadFromServeArgs("VLLM_ATTENTION_BACKEND=ROCM_FLASH vllm serve m --max-num-seqs 8", &w,
                              &errors));
  CHECK(errors.empty());
}

}  // namespace muh
