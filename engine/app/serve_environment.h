// The serving command's environment as an input of liveness: the VLLM_*
// assignments a --serve-args file starts with
// (`VLLM_ATTENTION_BACKEND=ROCM_FLASH vllm serve ...`) fill in the rule
// file's `liveness: environment:`. Pure: the file's name and text in.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/liveness/liveness_types.h"

namespace muh {

// Sets each VLLM_* variable the command line `text` (of `file`) assigns
// before its command, marked as from "serve args". One the rule file
// declares with another value (or unset) is an error at the assignment
// that names the rule file's place; false then, with `facts` unchanged.
// Other variables (HOME=...) are not vLLM's and are left alone.
bool EnvironmentFromServeArgs(const std::string& file, std::string_view text, LivenessFacts* facts,
                              std::vector<Diagnostic>* errors);

}  // namespace muh
