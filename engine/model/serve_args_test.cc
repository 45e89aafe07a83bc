#include "engine/model/serve_args.h"

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

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
