// The value types the liveness analysis hands out and takes in.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace muh {

enum class Liveness { kLive, kDead, kUnknown };

// "live", "dead", "unknown".
const char* LivenessName(Liveness l);

// One piece of evidence: where, and what is there.
struct Evidence {
  std::string path;
  int line = 0;
  std::string what;  // e.g. "HAS_TRITON = False"
};

inline bool operator==(const Evidence& a, const Evidence& b) {
  return a.path == b.path && a.line == b.line && a.what == b.what;
}

// A condition that names a platform other than the one served is false:
// `text` is matched against an operand of `==` or `!=` exactly
// (`backend == _Backend.ROCM_FLASH`), and, when `other_suffix` is set, the
// other operand's text must end with it (`device_config.device_type == "xpu"`).
// When `env` is set, the variable of that name can select the marker's
// backend on any platform (VLLM_ATTENTION_BACKEND=ROCM_FLASH makes vLLM's
// selector return _Backend.ROCM_FLASH on cuda): the marker then decides
// only under an environment that rules `env_value` out (assumptions.h).
struct PlatformMarker {
  std::string text;
  std::string platform;
  std::string other_suffix;
  std::string env = {};
  std::string env_value = {};
};

// A VLLM_* variable as the deployment has it: unset (no value) or a
// string, and who says so ("rule file", "serve args", "vLLM's default").
// `known` is false where nobody can say (the tree's default could not be
// read): nothing that rests on the variable is then decided.
struct EnvValue {
  bool known = true;
  std::optional<std::string> value;
  std::string source;
  bool is_default = false;
  std::string where = {};  // FILE:LINE:COL of the declaration, when declared
};

// `dynamic-imports:`: the dynamic imports in the def `function` of `path`
// load only modules named by `loads` (each a module and everything under
// it).
struct DeclaredDynamicImport {
  std::string path;
  std::string function;
  std::vector<std::string> loads;
};

// What lies behind a binary, stated with its source. `callee` is a
// function of the tree (`path` and its name) or, with `path` empty, an
// out-of-tree function by its dotted import name
// (`ixformer.functions.fused_moe`).
struct DeclaredFact {
  enum class Kind {
    kReadsKeys,       // the callee reads only `reads_keys` of a dict passed to it
    kImportsNothing,  // the dynamic imports in `callee` load no module of the tree
  };
  Kind kind = Kind::kReadsKeys;
  std::string path;
  std::string callee;
  std::vector<std::string> reads_keys;
  std::string source;
};

struct LivenessFacts {
  std::string entry_module = "vllm.entrypoints.openai.api_server";
  std::string platform = "cuda";  // cuda, rocm, xpu, cpu, tpu, hpu, neuron, openvino
  double compute_capability = 7.0;
  std::vector<PlatformMarker> markers;
  std::vector<DeclaredFact> declared;
  // The deployment's environment, by variable; a variable not here has
  // vLLM's default (LivenessAnalysis fills in those it needs from the
  // tree's vllm/envs.py).
  std::map<std::string, EnvValue> environment;
  // The vllm.general_plugins entry points installed; none is vLLM's default.
  std::vector<std::string> plugins;
  std::string plugins_source;  // who declares them; empty: the default
  std::vector<DeclaredDynamicImport> dynamic_imports;
};

// The built-in markers of vLLM 0.6's attention backends (`_Backend.ROCM_FLASH`
// is ROCm's, `_Backend.IPEX` XPU's ...), for LivenessFacts::markers.
std::vector<PlatformMarker> VllmBackendMarkers();

// A read of a knob's value that changes it, or carries it where the
// analysis does not follow, before a call takes it (value_use.h):
// `kernel(BLOCK=max(config['BLOCK_SIZE_M'], 32))`. `expression` is the
// code that changes it; `at.line` is its physical line (`at.what` the
// logical line's code) and `column` its 1-based column, in bytes.
struct ChangedRead {
  Evidence at;
  int column = 0;
  std::string expression;
};

struct SiteLiveness {
  Liveness state = Liveness::kUnknown;
  std::string reason;  // one sentence: why
  std::vector<Evidence> evidence;
  // The declared or default assumptions the verdict rests on: changing one
  // changes the verdict ("VLLM_ATTENTION_BACKEND unset (vLLM's default)").
  std::vector<std::string> assumptions = {};
};

}  // namespace muh
