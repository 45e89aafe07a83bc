#include "engine/liveness/assumptions.h"

#include <doctest/doctest.h>

#include "engine/liveness/condition.h"
#include "engine/liveness/liveness.h"

namespace muh {

namespace {

EnvValue Declared(std::optional<std::string> value) {
  EnvValue v;
  v.value = std::move(value);
  v.source = "rule file";
  return v;
}

}  // namespace

TEST_CASE("VLLM_ATTENTION_BACKEND decides the backend markers only where it rules them out") {
  LivenessFacts facts;
  facts.markers = VllmBackendMarkers();
  ConditionContext ctx;
  ctx.facts = &facts;
  std::vector<std::string> consulted;
  ctx.consulted = [&consulted](const std::string& env) { consulted.push_back(env); };
  // Unset (vLLM's default): the ROCm backend is never selected on cuda.
  ConditionResult unset = EvaluateCondition("backend == _Backend.ROCM_FLASH", ctx);
  CHECK(unset.value == Tri::kFalse);
  CHECK(unset.why.find("with VLLM_ATTENTION_BACKEND unset (vLLM's default)") != std::string::npos);
  CHECK(consulted == std::vector<std::string>{kPlatformAssumption, "VLLM_ATTENTION_BACKEND"});
  // Any platform, any capability: nothing that rests on them is decided.
  LivenessFacts any = WithAny(facts, kPlatformAssumption);
  ctx.facts = &any;
  CHECK(EvaluateCondition("backend == _Backend.ROCM_FLASH", ctx).value == Tri::kUnknown);
  CHECK(EvaluateCondition("is_hip()", ctx).value == Tri::kUnknown);
  CHECK(EvaluateCondition("cfg.device_type == \"neuron\"", ctx).value == Tri::kUnknown);
  CHECK(EvaluateCondition("current_platform.has_device_capability(80)", ctx).value ==
        Tri::kUnknown);
  CHECK(AssumptionText(facts, kPlatformAssumption) == "platform cuda, compute capability 7.0");
  ctx.facts = &facts;
  // It names the marker's own backend: the selector returns it on cuda.
  facts.environment["VLLM_ATTENTION_BACKEND"] = Declared("ROCM_FLASH");
  CHECK(EvaluateCondition("backend == _Backend.ROCM_FLASH", ctx).value == Tri::kUnknown);
  CHECK(EvaluateCondition("backend == _Backend.IPEX", ctx).value == Tri::kFalse);
  // Another backend of vLLM's: still not ROCm's.
  facts.environment["VLLM_ATTENTION_BACKEND"] = Declared("XFORMERS");
  CHECK(EvaluateCondition("backend == _Backend.ROCM_FLASH", ctx).value == Tri::kFalse);
  // A value the analysis cannot evaluate, or one nobody knows: undecided.
  facts.environment["VLLM_ATTENTION_BACKEND"] = Declared("rocm_flash");
  CHECK(EvaluateCondition("backend == _Backend.ROCM_FLASH", ctx).value == Tri::kUnknown);
  facts.environment["VLLM_ATTENTION_BACKEND"] = AnyEnvValue();
  CHECK(EvaluateCondition("backend != _Backend.ROCM_FLASH", ctx).value == Tri::kUnknown);
  // The device markers rest on no variable.
  CHECK(EvaluateCondition("cfg.device_type == \"neuron\"", ctx).value == Tri::kFalse);
}

TEST_CASE("vLLM's default of a variable is read from its envs.py") {
  int line = 0;
  EnvValue none = EnvDefault(
      "environment_variables = {\n"
      "    \"VLLM_ATTENTION_BACKEND\":\n"
      "    lambda: os.getenv(\"VLLM_ATTENTION_BACKEND\", None),\n"
      "    'VLLM_X': lambda: os.environ.get('VLLM_X', \"auto\"),\n"
      "    'VLLM_Y': lambda: os.getenv('VLLM_Y'),\n"
      "    'VLLM_Z': lambda: int(os.getenv('VLLM_Z', '0')),\n"
      "}\n",
      "VLLM_ATTENTION_BACKEND", &line);
  CHECK(none.known);
  CHECK_FALSE(none.value);
  CHECK(none.is_default);
  CHECK(line == 2);
  std::string envs =
      "x = {'VLLM_X': lambda: os.environ.get('VLLM_X', \"auto\"),\n"
      "     'VLLM_Y': lambda: os.getenv('VLLM_Y'),\n"
      "     'VLLM_Z': lambda: int(os.getenv('VLLM_Z', '0'))}\n";
  CHECK(EnvDefault(envs, "VLLM_X").value == std::optional<std::string>("auto"));
  CHECK(EnvDefault(envs, "VLLM_Y").known);
  CHECK_FALSE(EnvDefault(envs, "VLLM_Y").value);
  CHECK_FALSE(EnvDefault(envs, "VLLM_Z").known);  // computed
  CHECK_FALSE(EnvDefault(envs, "VLLM_W").known);  // not there
  // The call's value goes on: the default is not the call's (a helper
  // probe of f751cf4). A comment after the entry is no code.
  std::string on =
      "x = {'A': lambda: os.getenv('A') or f\"{V}_FLASH\",\n"
      "     'B': lambda: os.getenv('B', None) and None or 'X',\n"
      "     'C': lambda: os.getenv('C') if os.getenv('C') else 'ROCM_FLASH',\n"
      "     'D': lambda: os.getenv('D', 'auto') + '_FLASH',\n"
      "     'E': lambda: os.getenv('E')  # the default\n"
      "     ,\n"
      "     'F': lambda: os.getenv('F', 'x')}\n";
  for (const char* name : {"A", "B", "C", "D"}) {
    CAPTURE(name);
    CHECK_FALSE(EnvDefault(on, name).known);
  }
  CHECK(EnvDefault(on, "E").known);
  CHECK(EnvDefault(on, "F").value == std::optional<std::string>("x"));
}

TEST_CASE("assumptions read as status prints them, and a variable varies both ways") {
  LivenessFacts facts;
  CHECK(EnvText(facts, "VLLM_ATTENTION_BACKEND") ==
        "VLLM_ATTENTION_BACKEND unset (vLLM's default)");
  facts.environment["VLLM_ATTENTION_BACKEND"] = Declared("ROCM_FLASH");
  CHECK(EnvText(facts, "VLLM_ATTENTION_BACKEND") ==
        "VLLM_ATTENTION_BACKEND=ROCM_FLASH (rule file)");
  CHECK(PluginsText(facts) == "no plugin is installed (vLLM's default)");
  std::vector<Assumption> in_force = AssumptionsInForce(facts);
  REQUIRE(in_force.size() == 5);
  CHECK(in_force[0].text == "platform cuda, compute capability 7.0");
  CHECK_FALSE(in_force[1].is_default);
  CHECK(in_force[2].is_default);
  CHECK(in_force[3].text.find("unpickled data") == 0);
  // What the check that a written value reaches its kernel takes on trust.
  CHECK(in_force[4].text.find("a function that takes the value as an argument") == 0);

  EnvValue unset{true, std::nullopt, "vLLM's default", true, ""};
  LivenessFacts back = WithEnv(facts, "VLLM_ATTENTION_BACKEND", unset);
  CHECK(EnvText(back, "VLLM_ATTENTION_BACKEND") == "VLLM_ATTENTION_BACKEND unset (vLLM's default)");
  LivenessFacts open = WithEnv(back, "VLLM_ATTENTION_BACKEND", AnyEnvValue());
  CHECK_FALSE(open.environment["VLLM_ATTENTION_BACKEND"].known);

  facts.plugins = {"a", "b"};
  facts.plugins_source = "rule file";
  CHECK(PluginsText(facts) == "plugins installed: a, b (rule file)");
}

}  // namespace muh
