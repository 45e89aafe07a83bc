// What the kernels are sized for: the served model's shape (head dimension,
// heads, experts) and how it is served (tensor parallelism, batch limits).
// Declared in the rule file's `workload:` section, or read from the model's
// config.json and the serving command line (workload_sources.h); every entry
// has a stated default and records where its value came from. Heads and the
// MoE intermediate size are the model's totals; derivations use the per-rank
// values (PerRank), divided by tensor_parallel_size as vLLM does. Also the
// autotune search spaces the rule file declares.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/model/constraint.h"

namespace muh {

struct WorkloadItem {
  std::string name;
  int64_t value = 0;
  std::string meaning;
  std::string origin = "default";  // "default", "rule file", "config.json", "serve args"
};

class Workload {
 public:
  // Every entry at its default.
  static Workload Defaults();

  const std::vector<WorkloadItem>& items() const { return items_; }
  const WorkloadItem* Find(std::string_view name) const;
  int64_t Get(std::string_view name) const;  // the entry must exist
  // The per-GPU value of a model total: num_q_heads, num_kv_heads (at least
  // 1, as vLLM replicates KV heads) and moe_intermediate_size divided by
  // tensor_parallel_size; any other entry as it is.
  int64_t PerRank(std::string_view name) const;
  std::vector<std::string> Names() const;
  // Sets an entry from the rule file. `text` is a whole number, or for
  // `dtype` one of float16, bfloat16, float32. False with `error` otherwise.
  bool Set(std::string_view name, const std::string& text, std::string* error);
  // Sets an entry from `origin` ("config.json", "serve args"). `name` must be
  // a known entry (or "dtype" with `value` in bytes); the value must be in
  // range. False with `error` otherwise.
  bool SetNumber(std::string_view name, int64_t value, const std::string& origin,
                 std::string* error);

 private:
  std::vector<WorkloadItem> items_;
};

// An autotune search space: the cross product of `dims`, each a field of a
// triton.Config entry with its candidate values (Python literal text).
struct SearchSpace {
  std::string name;
  std::string kernel;  // which cost model: "attention"
  std::vector<std::pair<std::string, std::vector<std::string>>> dims;
  // Fields the backend ignores (waves_per_eu is an AMD hint): candidates that
  // differ only in these are one candidate; the first listed value is kept.
  std::vector<std::string> ignored;
  int max_new = 8;  // cap on the entries the model selects
  // What the kernel requires of an entry (`BLOCK_M % BLOCK_N == 0` where a
  // causal kernel masks whole key blocks); an entry that breaks one is never
  // emitted.
  std::vector<Constraint> constraints;
};

// Why no cost model ranks search spaces of kind `kernel` ("" when one
// does: "attention" is the only one so far).
std::string SearchSpaceKernelProblem(const std::string& kernel);

// Why the cost model of `kernel` cannot read `value` for dimension `dim`
// ("" when it can; dimensions it does not read take any value).
std::string SearchSpaceValueProblem(const std::string& kernel, const std::string& dim,
                                    const std::string& value);

}  // namespace muh
