// The served model's shape from its Hugging Face config.json: heads, head
// dimension, width, experts. Pure: the file's text in, workload entries out.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/model/workload.h"

namespace muh {

// Sets head_dim (config head_dim, else hidden_size / num_attention_heads),
// num_q_heads (num_attention_heads), num_kv_heads (num_key_value_heads, else
// num_attention_heads), hidden_size, dtype (torch_dtype), and for an MoE
// model num_experts (num_experts, num_local_experts or n_routed_experts),
// topk (num_experts_per_tok) and moe_intermediate_size (else
// intermediate_size). Keys missing at the top level are read from a
// `text_config` object (multimodal configs). Values are the model's totals;
// the per-GPU split is Workload::PerRank's. Entries are marked as from
// "config.json". On any error nothing is set and false is returned with one
// message per problem, each naming the key ("'hidden_size' must be ...").
bool WorkloadFromHfConfig(std::string_view json, Workload* w, std::vector<std::string>* errors);

}  // namespace muh
