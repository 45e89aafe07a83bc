#include "engine/model/workload.h"

#include <fmt/format.h>

#include <algorithm>

#include "engine/base/edit_distance.h"

namespace muh {

namespace {

// The rule file writes `dtype`, never `dtype_bytes`.
std::string UnknownEntry(const std::string& key, std::vector<std::string> names) {
  names.erase(std::remove(names.begin(), names.end(), "dtype_bytes"), names.end());
  names.push_back("dtype");
  return fmt::format("unknown workload entry '{}'{} (known: {})", key, DidYouMean(key, names),
                     fmt::join(names, ", "));
}

}  // namespace

Workload Workload::Defaults() {
  Workload w;
  w.items_ = {
      {"head_dim", 128,
       "attention head dimension of the served model (config.json head_dim, else hidden_size / "
       "num_attention_heads); prefix-prefill, paged attention and the autotune list are sized "
       "for it"},
      {"dtype_bytes", 2,
       "activation dtype: float16/bfloat16 = 2 bytes; float32 prefill halves BLOCK"},
      {"num_q_heads", 32,
       "attention heads of the model (num_attention_heads); per GPU: / tensor_parallel_size"},
      {"num_kv_heads", 8,
       "KV heads of the model (num_key_value_heads); per GPU: / tensor_parallel_size, at least "
       "1 (recorded; no derivation uses it yet)"},
      {"hidden_size", 4096, "model width: N of the second MoE GEMM"},
      {"num_experts", 128, "MoE experts (every GPU holds all of them)"},
      {"topk", 8, "experts per token (num_experts_per_tok)"},
      {"moe_intermediate_size", 1536,
       "expert FFN width; per GPU: / tensor_parallel_size, and the first MoE GEMM's N is twice "
       "that (gate and up)"},
      {"tensor_parallel_size", 1, "GPUs one model is split over (-tp)"},
      {"max_num_seqs", 256, "largest decode batch (--max-num-seqs)"},
      {"max_batched_tokens", 8192, "largest batch in tokens (--max-num-batched-tokens)"},
      {"max_model_len", 32768, "longest context (--max-model-len)"},
      {"prefill_seq_len", 2048,
       "representative prompt length for autotune ranking (capped by max_batched_tokens and "
       "max_model_len)"},
      {"moe_small_tier_max", 64,
       "numel bound of get_default_config's first BLOCK_SIZE_M tier (vLLM 0.6.3's)"},
      {"moe_medium_tier_max", 1024,
       "numel bound of its middle tier; the large tier serves more token-expert pairs"},
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

int64_t Workload::PerRank(std::string_view name) const {
  int64_t v = Get(name);
  if (name != "num_q_heads" && name != "num_kv_heads" && name != "moe_intermediate_size") return v;
  int64_t tp = std::max<int64_t>(1, Get("tensor_parallel_size"));
  return std::max<int64_t>(1, v / tp);
}

std::vector<std::string> Workload::Names() const {
  std::vector<std::string> names;
  for (const WorkloadItem& i : items_) names.push_back(i.name);
  return names;
}

bool Workload::SetNumber(std::string_view name, int64_t value, const std::string& origin,
                         std::string* error) {
  std::string key = name == "dtype" ? "dtype_bytes" : std::string(name);
  if (key == "dtype_bytes" && value != 2 && value != 4) {
    *error = fmt::format("dtype must be 2 or 4 bytes, got {}", value);
    return false;
  }
  for (WorkloadItem& i : items_) {
    if (i.name != key) continue;
    if (value <= 0 || value > (int64_t{1} << 30)) {
      *error = fmt::format("workload '{}' must be a positive whole number, got {}", key, value);
      return false;
    }
    i.value = value;
    i.origin = origin;
    return true;
  }
  *error = UnknownEntry(key, Names());
  return false;
}

bool Workload::Set(std::string_view name, const std::string& text, std::string* error) {
  if (name == "dtype") {
    int64_t bytes = text == "float16" || text == "bfloat16" ? 2 : text == "float32" ? 4 : 0;
    if (bytes == 0) {
      *error = fmt::format("dtype must be float16, bfloat16 or float32, got '{}'", text);
      return false;
    }
    return SetNumber("dtype_bytes", bytes, "rule file", error);
  }
  if (name == "dtype_bytes") {
    *error = UnknownEntry(std::string(name), Names());
    return false;
  }
  int64_t v = 0;
  std::size_t used = 0;
  try {
    v = std::stoll(text, &used);
  } catch (...) {
    used = 0;
  }
  if (Find(name) != nullptr && (used != text.size() || text.empty())) {
    *error = fmt::format("workload '{}' must be a positive whole number, got '{}'", name, text);
    return false;
  }
  if (Find(name) != nullptr && (v <= 0 || v > (int64_t{1} << 30))) {
    *error = fmt::format("workload '{}' must be a positive whole number, got '{}'", name, text);
    return false;
  }
  return SetNumber(name, v, "rule file", error);
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
