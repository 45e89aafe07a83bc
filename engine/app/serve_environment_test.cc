#include "engine/app/serve_environment.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("the serving command's VLLM_* assignments fill in the environment") {
  LivenessFacts facts;
  std::vector<Diagnostic> errors;
  REQUIRE(EnvironmentFromServeArgs("serve.txt",
                                   "HOME=/root \\\n VLLM_ATTENTION_BACKEND=ROCM_FLASH vllm serve m",
                                   &facts, &errors));
  CHECK(errors.empty());
  REQUIRE(facts.environment.count("VLLM_ATTENTION_BACKEND") == 1);
  const EnvValue& v = facts.environment["VLLM_ATTENTION_BACKEND"];
  CHECK(v.value == std::optional<std::string>("ROCM_FLASH"));
  CHECK(v.source == "serve args");
  CHECK(v.where == "serve.txt:2:2");
  CHECK(facts.environment.count("HOME") == 0);
}

TEST_CASE("a serving command that contradicts the rule file is an error naming both") {
  LivenessFacts facts;
  facts.environment["VLLM_ATTENTION_BACKEND"] =
      EnvValue{true, std::nullopt, "rule file", false, "rules.yaml:7:5"};
  std::vector<Diagnostic> errors;
  CHECK_FALSE(EnvironmentFromServeArgs(
      "serve.txt", "VLLM_ATTENTION_BACKEND=ROCM_FLASH vllm serve m", &facts, &errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].Format() ==
        "serve.txt:1:1: error: the serving command sets VLLM_ATTENTION_BACKEND=ROCM_FLASH, but "
        "the rule file declares VLLM_ATTENTION_BACKEND unset (rule file) at rules.yaml:7:5: make "
        "them agree");
  CHECK_FALSE(facts.environment["VLLM_ATTENTION_BACKEND"].value);
  // The same value twice is no conflict; a default is no declaration.
  facts.environment["VLLM_ATTENTION_BACKEND"] =
      EnvValue{true, "ROCM_FLASH", "rule file", false, "rules.yaml:7:5"};
  facts.environment["VLLM_OTHER"] = EnvValue{true, std::nullopt, "vLLM's default", true, ""};
  errors.clear();
  CHECK(EnvironmentFromServeArgs("s", "VLLM_ATTENTION_BACKEND=ROCM_FLASH VLLM_OTHER=1 vllm serve",
                                 &facts, &errors));
  CHECK(facts.environment["VLLM_ATTENTION_BACKEND"].source == "rule file");
  CHECK(facts.environment["VLLM_OTHER"].value == std::optional<std::string>("1"));
}

}  // namespace muh
