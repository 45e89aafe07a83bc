// The deployment's assumptions a liveness verdict may rest on (the rule
// file's `liveness:` section, the serving command's environment, vLLM's
// defaults): the VLLM_* variables, the plugins installed. How a variable
// decides a platform marker, how each assumption reads, and the facts
// with one variable changed (what LivenessAnalysis compares a verdict
// against to know whether it rests on that variable). Pure.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/liveness/liveness_types.h"

namespace muh {

// The variable that selects vLLM's attention backend on any platform.
inline constexpr const char* kAttentionBackendEnv = "VLLM_ATTENTION_BACKEND";

// What a condition may rest on besides the environment's variables
// (ConditionContext::consulted): the platform's answers, its predicates
// and its compute capability, one assumption. An empty platform and a
// capability of 0 are any: nothing that rests on them is decided.
inline constexpr const char* kPlatformAssumption = "@platform";

// How assumption `key` (a variable, or one of the two above) stands in
// `facts`: EnvText for a variable, "platform cuda, compute capability
// 7.0" for the platform.
std::string AssumptionText(const LivenessFacts& facts, const std::string& key);

// The facts with assumption `key` at any value (AnyEnvValue for a
// variable).
LivenessFacts WithAny(const LivenessFacts& facts, const std::string& key);

// Whether `name` is a member of vLLM 0.6.3's _Backend enum.
bool IsVllmBackendName(std::string_view name);

// Whether marker `m` decides its comparison (the code of its platform is
// not taken) under the facts' environment. A marker without `env` always
// does. One with `env` does when the variable is unset, or names another
// backend of vLLM's; not when it names the marker's own, or a value the
// analysis cannot evaluate, or is not known.
bool MarkerDecides(const PlatformMarker& m, const LivenessFacts& facts);

// How the variable `name` stands: "VLLM_ATTENTION_BACKEND unset (vLLM's
// default)", "VLLM_ATTENTION_BACKEND=ROCM_FLASH (serve args)".
std::string EnvText(const std::string& name, const EnvValue& v);
// The same for the facts' value of `name` (vLLM's default when absent).
std::string EnvText(const LivenessFacts& facts, const std::string& name);

// vLLM's default for `name`, read from the text of its vllm/envs.py, where
// it reads `"NAME": lambda: os.getenv("NAME"[, DEFAULT])` (or
// os.environ.get): unset for no default or None, the string for a string
// literal; not known for anything else, or when the entry is not there.
// `line` is set to the entry's 1-based line when found.
EnvValue EnvDefault(std::string_view envs_py, const std::string& name, int* line = nullptr);

// The facts with `name` set to `value`.
LivenessFacts WithEnv(const LivenessFacts& facts, const std::string& name, const EnvValue& value);
// A value the analysis cannot evaluate: what any other value could do.
EnvValue AnyEnvValue();

// "no plugin installed (vLLM's default)", or "plugins installed: a, b
// (rule file)".
std::string PluginsText(const LivenessFacts& facts);

// One assumption in force, as status prints it.
struct Assumption {
  std::string text;
  bool is_default = false;
};

// The platform, the compute capability, each variable of the facts'
// environment, the plugins, the loads taken on assumption (unpickling,
// dictConfig), and what a written value is trusted to do on its way to the
// kernel (kPassedAssumption, kCarriedAssumption), in that order.
std::vector<Assumption> AssumptionsInForce(const LivenessFacts& facts);

}  // namespace muh
