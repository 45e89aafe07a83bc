// Deciding a condition from facts: constant module flags, the platform
// served, the device's compute capability. Three-valued: what the facts do
// not settle is unknown, never a guess. Parses the condition alone with
// tree-sitter (a few bytes), never its file.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/liveness/liveness_types.h"

namespace muh {

enum class Tri { kFalse, kTrue, kUnknown };

Tri Not(Tri t);

// A module-level name bound to one constant, with where it is bound.
struct ConstantFlag {
  std::string canonical;  // CanonicalLiteral's spelling: "False", "0", "'x'"
  Evidence evidence;
};

struct ConditionContext {
  // The constant a bare name denotes in the condition's module, if any.
  std::function<std::optional<ConstantFlag>(std::string_view name)> flag;
  // Whether the first name of a predicate's callee (`current_platform` of
  // `current_platform.is_rocm()`, `is_hip` of `is_hip()`) is the platform's
  // own in the condition's module; when unset, every such name is.
  std::function<bool(std::string_view name)> platform_name;
  const LivenessFacts* facts = nullptr;
  // Told of each variable of the environment a marker of the condition
  // rests on (PlatformMarker::env), whether or not it decides.
  std::function<void(const std::string& env)> consulted;
  // Where the tree itself makes a marker's value (`backend =
  // _Backend.ROCM_FLASH`, `global_force_attn_backend(_Backend.ROCM_FLASH)`)
  // in code the served platform may run: the marker then decides nothing,
  // whatever the environment. Unset: nowhere.
  std::function<std::optional<Evidence>(const PlatformMarker&)> marker_made;
  // Where the tree defines a predicate otherwise than vLLM does
  // (predicate_definitions.h): it then decides nothing. Unset: nowhere.
  std::function<std::optional<Evidence>(std::string_view name)> predicate_redefined;
};

struct ConditionResult {
  Tri value = Tri::kUnknown;
  std::string why;                 // what decided it: "HAS_TRITON is False"
  std::vector<Evidence> evidence;  // the facts it rests on (flags' definitions)
};

// The value of the Python expression `text` in `ctx`. Decides: True, False,
// None and numbers; names that ctx.flag resolves; not/and/or and
// parentheses; platform predicates (`is_hip()`, `current_platform.is_rocm()`,
// `is_cuda_alike()` ...) from facts->platform; `has_device_capability(N)`
// from facts->compute_capability; `==`/`!=` against a platform marker of
// another platform, as far as the environment lets it decide
// (MarkerDecides, assumptions.h).
ConditionResult EvaluateCondition(std::string_view text, const ConditionContext& ctx);

// For `A if COND else B` expressions: which branch of each conditional
// expression in `text` holds byte `offset` (relative to `text`), and whether
// that branch is taken. kTrue when every enclosing conditional's branch is
// taken or none encloses it; kFalse with the deciding condition otherwise.
ConditionResult BranchTaken(std::string_view text, std::size_t offset, const ConditionContext& ctx);

}  // namespace muh
