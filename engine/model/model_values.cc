#include "engine/model/model_values.h"

#include "engine/model/knobs.h"
#include "engine/python/py_literal.h"

namespace muh {

Value ValueOf(const Derivation& d) {
  Value v;
  v.text = d.value;
  v.why = FormatDerivation(d, 0);
  v.warnings = d.warnings;
  v.error = d.error;
  return v;
}

ModelValues::ModelValues(Profile profile, Workload workload, std::vector<SearchSpace> spaces)
    : profile_(std::move(profile)), workload_(std::move(workload)) {
  const Profile& p = profile_;
  const Workload& w = workload_;
  Add(DeriveSmemLimitBytes(p));
  Add(DeriveSmemLimitKib(p));
  Add(DeriveStageLimit(p));
  Add(DerivePartitionSize(p, w));
  Add(DeriveV1MaxContext(p, w));
  Add(DeriveV1MinWork(p, w));
  Derivation block = DerivePrefixBlock(p, w);
  Add(block);
  if (block.error.empty()) {
    Add(DerivePrefixNumWarps(p, w, std::stoll(block.value)));
  } else {
    Derivation warps = NewDerivation("prefix_num_warps_below_sm80", "");
    warps.error = "depends on prefix_block_below_sm80, which has no value";
    Add(warps);
  }
  int64_t experts = w.Get("num_experts");
  int64_t topk = w.Get("topk");
  Derivation large =
      DeriveMoeBlockM(p, w, w.Get("max_batched_tokens") * topk, "moe_block_m_large_tier",
                      "largest tier: max_batched_tokens * topk pairs");
  Add(large);
  Derivation def = large;
  def.quantity = "moe_default_block_m";
  def.decided_by =
      "the default dict serves any token count: same as the largest tier. " + def.decided_by;
  Add(def);
  Derivation small = DeriveMoeBlockM(p, w, experts * topk, "moe_small_block_m",
                                     "M <= E dict: at most num_experts * topk pairs");
  Add(small);
  if (def.error.empty()) {
    int64_t m = std::stoll(def.value);
    Add(DeriveMoeBlockNK(p, w, m, "moe_default_block_n", 'n'));
    Add(DeriveMoeBlockNK(p, w, m, "moe_default_block_k", 'k'));
  }
  if (small.error.empty()) {
    int64_t m = std::stoll(small.value);
    Add(DeriveMoeBlockNK(p, w, m, "moe_small_block_n", 'n'));
    Add(DeriveMoeBlockNK(p, w, m, "moe_small_block_k", 'k'));
  }
  for (const SearchSpace& space : spaces) {
    AutotuneResult r = DeriveAutotune(p, w, space);
    Value v = ValueOf(r.derivation);
    v.is_list = true;
    v.text.clear();
    for (const AutotuneCandidate& c : r.selected) v.entries.push_back(c.entry);
    values_[space.name] = std::move(v);
    autotune_.emplace(space.name, std::move(r));
  }
}

void ModelValues::Add(const Derivation& d) {
  derivations_.push_back(d);
  values_[d.quantity] = ValueOf(d);
}

const Value* ModelValues::Find(std::string_view name) const {
  auto it = values_.find(name);
  return it == values_.end() ? nullptr : &it->second;
}

std::vector<std::string> ModelValues::Names() const {
  std::vector<std::string> names;
  for (const auto& [k, v] : values_) names.push_back(k);
  return names;
}

std::vector<std::string> ModelValues::Functions() const { return {"moe_block_m_for_numel"}; }

std::optional<Value> ModelValues::Call(std::string_view name,
                                       const std::vector<std::string>& args) const {
  if (name != "moe_block_m_for_numel") return std::nullopt;
  Value v;
  std::optional<std::string> bound = args.size() == 1 ? CanonicalLiteral(args[0]) : std::nullopt;
  if (!bound || bound->empty() || !std::isdigit(static_cast<unsigned char>((*bound)[0]))) {
    v.error = "moe_block_m_for_numel needs one captured integer (the tier's numel bound)";
    return v;
  }
  return ValueOf(DeriveMoeBlockM(profile_, workload_, std::stoll(*bound),
                                 "moe_block_m_for_numel(" + *bound + ")",
                                 "tier `numel <= " + *bound + "`"));
}

}  // namespace muh
