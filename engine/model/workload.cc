#include "engine/model/workload.h"

#include <fmt/format.h>

#include <algorithm>

#include "engine/base/edit_distance.h"

namespace muh {

Workload Workload::Defaults() {
  Workload w;
  w.items_ = {
      {"head_dim_max", 256, "largest attention head dimension served; vLLM's kernels go to 256",
       false},
      {"head_dim", 128,
       "head dimension the autotune list is sized for; Triton's autotuner skips entries that run "
       "out of resources at run time, so other head dimensions lose only those entries",
       false},
      {"dtype_bytes", 2,
       "activation dtype: float16/bfloat16 = 2 bytes; float32 prefill halves BLOCK", false},
      {"num_q_heads", 32, "query heads per GPU", false},
      {"num_kv_heads", 8, "KV heads per GPU (recorded; no derivation uses it yet)", false},
      {"num_experts", 128, "MoE experts", false},
      {"topk", 8, "experts per token", false},
      {"max_num_seqs", 256, "largest decode batch (recorded; no derivation uses it yet)", false},
      {"max_batched_tokens", 8192, "largest prefill batch in tokens", false},
      {"prefill_seq_len", 2048, "representative prompt length for autotune ranking", false},
  };
  return w;
}

const WorkloadItem* Workload::Find(std::string_view name) const {
  for (const WorkloadItem& i : items_) {
    if (i.name == name) return &i;
  }
  return nullptr;
}

int64_t Workload::Get(std::string_view name) const {
  const WorkloadItem* i = Find(name);
  return i ? i->value : 0;
}

std::vector<std::string> Workload::Names() const {
  std::vector<std::string> names;
  for (const WorkloadItem& i : items_) names.push_back(i.name);
  return names;
}

bool Workload::Set(std::string_view name, const std::string& text, std::string* error) {
  std::string key(name);
  if (key == "dtype") {
    int64_t bytes = text == "float16" || text == "bfloat16" ? 2 : text == "float32" ? 4 : 0;
    if (bytes == 0) {
      *error = fmt::format("dtype must be float16, bfloat16 or float32, got '{}'", text);
      return false;
    }
    key = "dtype_bytes";
    for (WorkloadItem& i : items_) {
      if (i.name == key) {
        i.value = bytes;
        i.from_rules = true;
      }
    }
    return true;
  }
  for (WorkloadItem& i : items_) {
    if (i.name != key || key == "dtype_bytes") continue;
    int64_t v = 0;
    std::size_t used = 0;
    try {
      v = std::stoll(text, &used);
    } catch (...) {
      used = 0;
    }
    if (used != text.size() || text.empty() || v <= 0 || v > (int64_t{1} << 30)) {
      *error = fmt::format("workload '{}' must be a positive whole number, got '{}'", key, text);
      return false;
    }
    i.value = v;
    i.from_rules = true;
    return true;
  }
  std::vector<std::string> names = Names();
  names.erase(std::remove(names.begin(), names.end(), "dtype_bytes"), names.end());
  names.push_back("dtype");
  *error = fmt::format("unknown workload entry '{}'{} (known: {})", key, DidYouMean(key, names),
                       fmt::join(names, ", "));
  return false;
}

std::string SearchSpaceKernelProblem(const std::string& kernel) {
  if (kernel == "attention") return "";
  return "search space 'kernel' must be 'attention' (the only cost model so far)";
}

std::string SearchSpaceValueProblem(const std::string& kernel, const std::string& dim,
                                    const std::string& value) {
  if (kernel != "attention") return "";
  // The attention cost model reads these as whole numbers.
  if (dim != "BLOCK_M" && dim != "BLOCK_N" && dim != "num_stages" && dim != "num_warps") return "";
  bool ok = !value.empty() && value.size() <= 5 &&
            std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; }) &&
            std::stoi(value) >= 1 && std::stoi(value) <= 4096;
  return ok ? "" : fmt::format("'{}' values must be whole numbers from 1 to 4096", dim);
}

}  // namespace muh
