#include "engine/model/hf_config.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <utility>

namespace muh {

namespace {

using Json = nlohmann::json;

class ConfigReader {
 public:
  ConfigReader(const Json& root, std::vector<std::string>* errors) : root_(root), errors_(errors) {}

  // The key at the top level, else in text_config; nullptr when absent or null.
  const Json* Find(const char* key) const {
    for (const Json* obj : {&root_, TextConfig()}) {
      if (obj == nullptr) continue;
      auto it = obj->find(key);
      if (it != obj->end() && !it->is_null()) return &*it;
    }
    return nullptr;
  }

  // A positive whole number, or nullopt (with an error when present but bad).
  std::optional<int64_t> Int(const char* key) const {
    const Json* v = Find(key);
    if (v == nullptr) return std::nullopt;
    if (v->is_number_integer() && v->get<int64_t>() > 0 && v->get<int64_t>() <= (1 << 30)) {
      return v->get<int64_t>();
    }
    errors_->push_back(fmt::format("'{}' must be a positive whole number, got {}", key, v->dump()));
    return std::nullopt;
  }

 private:
  const Json* TextConfig() const {
    auto it = root_.find("text_config");
    return it != root_.end() && it->is_object() ? &*it : nullptr;
  }

  const Json& root_;
  std::vector<std::string>* errors_;
};

std::string WithoutPrefix(std::string what) {
  // "[json.exception.parse_error.101] parse error at line 1, ..." -> "parse error at ..."
  std::size_t close = what.find("] ");
  return what[0] == '[' && close != std::string::npos ? what.substr(close + 2) : what;
}

}  // namespace

bool WorkloadFromHfConfig(std::string_view json, Workload* w, std::vector<std::string>* errors) {
  std::size_t before = errors->size();
  Json root;
  try {
    root = Json::parse(json.begin(), json.end());
  } catch (const Json::exception& e) {
    // A parse error, and a number out of range (`1e400`, a helper probe of
    // 3cee5a3: it was an internal error, exit 4): bad input either way.
    errors->push_back("malformed JSON: " + WithoutPrefix(e.what()));
    return false;
  }
  if (!root.is_object()) {
    errors->push_back("a config.json must be a JSON object");
    return false;
  }
  ConfigReader r(root, errors);
  std::vector<std::pair<std::string, int64_t>> set;
  std::optional<int64_t> heads = r.Int("num_attention_heads");
  std::optional<int64_t> hidden = r.Int("hidden_size");
  if (!heads && r.Find("num_attention_heads") == nullptr) {
    errors->push_back("no 'num_attention_heads': not a transformer's config.json");
  }
  if (!hidden && r.Find("hidden_size") == nullptr) errors->push_back("no 'hidden_size'");
  std::optional<int64_t> kv = r.Int("num_key_value_heads");
  std::optional<int64_t> head_dim = r.Int("head_dim");
  if (heads && hidden) {
    if (!head_dim && r.Find("head_dim") == nullptr) {
      if (*hidden % *heads != 0) {
        errors->push_back(fmt::format(
            "no 'head_dim', and hidden_size {} is not a multiple of num_attention_heads {}",
            *hidden, *heads));
      } else {
        head_dim = *hidden / *heads;
      }
    }
    set.emplace_back("num_q_heads", *heads);
    set.emplace_back("num_kv_heads", kv.value_or(*heads));
    set.emplace_back("hidden_size", *hidden);
  }
  if (kv && heads && *heads % *kv != 0) {
    errors->push_back(
        fmt::format("num_attention_heads {} is not a multiple of "
                    "num_key_value_heads {}",
                    *heads, *kv));
  }
  if (head_dim) set.emplace_back("head_dim", *head_dim);
  if (const Json* dtype = r.Find("torch_dtype")) {
    std::string name = dtype->is_string() ? dtype->get<std::string>() : dtype->dump();
    if (name == "float16" || name == "bfloat16") {
      set.emplace_back("dtype", 2);
    } else if (name == "float32") {
      set.emplace_back("dtype", 4);
    } else {
      errors->push_back(
          fmt::format("'torch_dtype' must be float16, bfloat16 or float32, got {}", dtype->dump()));
    }
  }
  const char* experts_key = nullptr;
  for (const char* key : {"num_experts", "num_local_experts", "n_routed_experts"}) {
    if (experts_key == nullptr && r.Find(key) != nullptr) experts_key = key;
  }
  if (experts_key != nullptr) {
    std::optional<int64_t> experts = r.Int(experts_key);
    std::optional<int64_t> topk = r.Int("num_experts_per_tok");
    const char* inter_key =
        r.Find("moe_intermediate_size") != nullptr ? "moe_intermediate_size" : "intermediate_size";
    std::optional<int64_t> inter = r.Int(inter_key);
    if (experts) set.emplace_back("num_experts", *experts);
    if (topk) set.emplace_back("topk", *topk);
    if (inter) set.emplace_back("moe_intermediate_size", *inter);
    if (!topk && r.Find("num_experts_per_tok") == nullptr) {
      errors->push_back(
          fmt::format("'{}' is set but 'num_experts_per_tok' is missing", experts_key));
    }
    if (!inter && r.Find(inter_key) == nullptr) {
      errors->push_back(
          fmt::format("'{}' is set but neither 'moe_intermediate_size' nor 'intermediate_size' is",
                      experts_key));
    }
    if (experts && topk && *topk > *experts) {
      errors->push_back(
          fmt::format("num_experts_per_tok {} exceeds {} {}", *topk, experts_key, *experts));
    }
  }
  if (errors->size() != before) return false;
  Workload out = *w;
  for (const auto& [name, value] : set) {
    std::string err;
    if (!out.SetNumber(name, value, "config.json", &err)) errors->push_back(err);
  }
  if (errors->size() != before) return false;
  *w = std::move(out);
  return true;
}

}  // namespace muh
