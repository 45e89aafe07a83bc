#include "engine/rules/raw_liveness.h"

#include <doctest/doctest.h>

namespace muh {

namespace {

// `liveness:` read from `yaml`; the errors, one per line.
std::string Read(const std::string& yaml, LivenessFacts* out) {
  std::string path = "r.yaml";
  std::vector<Diagnostic> errors;
  YamlReader reader(path, yaml, &errors);
  ReadLiveness(&reader, YAML::Load(yaml)["liveness"], out);
  std::string text;
  for (const Diagnostic& d : errors) text += d.Format() + "\n";
  return text;
}

}  // namespace

TEST_CASE("liveness declares the environment, the plugins and the dynamic imports") {
  LivenessFacts f;
  std::string errors = Read(R"(liveness:
  platform: cuda
  environment:
    VLLM_ATTENTION_BACKEND: ROCM_FLASH
    VLLM_USE_TRITON_FLASH_ATTN: null
  plugins: [fast_kernels]
  dynamic-imports:
    - at: vllm/reasoning/loader.py:load_parser
      loads: [vllm.reasoning.parsers, vllm.reasoning.extra]
)",
                            &f);
  CHECK(errors == "");
  REQUIRE(f.environment.size() == 2);
  const EnvValue& backend = f.environment["VLLM_ATTENTION_BACKEND"];
  CHECK(backend.value == std::optional<std::string>("ROCM_FLASH"));
  CHECK(backend.source == "rule file");
  CHECK(backend.where == "r.yaml:4:5");
  CHECK_FALSE(backend.is_default);
  CHECK_FALSE(f.environment["VLLM_USE_TRITON_FLASH_ATTN"].value);
  CHECK(f.plugins == std::vector<std::string>{"fast_kernels"});
  CHECK(f.plugins_source == "rule file");
  REQUIRE(f.dynamic_imports.size() == 1);
  CHECK(f.dynamic_imports[0].path == "vllm/reasoning/loader.py");
  CHECK(f.dynamic_imports[0].function == "load_parser");
  CHECK(f.dynamic_imports[0].loads.size() == 2);

  LivenessFacts none;
  CHECK(Read("liveness:\n  plugins: []\n", &none) == "");
  CHECK(none.plugins.empty());
  CHECK(none.plugins_source == "rule file");
}

TEST_CASE("liveness's declarations are checked where they stand") {
  LivenessFacts f;
  CHECK(Read("liveness:\n  environment:\n    HOME: /root\n", &f)
            .find("r.yaml:3:5: error: 'HOME' is not a VLLM_* variable") != std::string::npos);
  CHECK(Read("liveness:\n  environment: [VLLM_X]\n", &f).find("'environment' must map") !=
        std::string::npos);
  CHECK(Read("liveness:\n  plugins: fast\n", &f).find("'plugins' must be a list") !=
        std::string::npos);
  CHECK(Read("liveness:\n  dynamic-imports:\n    - at: \"loader.py:\"\n      loads: [a]\n", &f)
            .find("needs 'at: FILE:FUNCTION'") != std::string::npos);
  LivenessFacts top;
  CHECK(Read("liveness:\n  dynamic-imports:\n    - at: app/main.py\n      loads: [a]\n", &top) ==
        "");
  CHECK(top.dynamic_imports.at(0).function.empty());
  CHECK(Read("liveness:\n  dynamic-imports:\n    - at: a.py:f\n      loads: []\n", &f)
            .find("needs 'loads'") != std::string::npos);
  CHECK(Read("liveness:\n  dynamic-imports:\n    - at: a.py:f\n      loads: [a..b]\n", &f)
            .find("'a..b' is not a dotted module name") != std::string::npos);
  CHECK(Read("liveness:\n  dynamic-import: []\n", &f).find("did you mean 'dynamic-imports'") !=
        std::string::npos);
}

}  // namespace muh
