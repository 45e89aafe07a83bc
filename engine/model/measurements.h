// The calibration probe's measurements (bench/probe/h200/measurements.json,
// format muhpatch-probe/1): one row per measured attention or MoE tile. Pure:
// parses text, reads no file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace muh {

struct AttentionMeasurement {
  int64_t head_dim = 0, seq_len = 0;
  int64_t block_m = 0, block_n = 0, warps = 0, stages = 0;
  bool pre_load_v = false;
  std::string status;  // "ok", "oom_smem", "compile_error", "prepruned"
  int64_t shared = 0, regs = 0, spills = 0;
  double us = 0;  // min of the two runs (us, us_rep); 0 unless status is ok
};

struct MoeMeasurement {
  std::string gemm;  // "w1", "w2"
  int64_t tokens = 0;
  int64_t block_m = 0, block_n = 0, block_k = 0, warps = 0, stages = 0;
  std::string status;
  double us = 0;
};

struct Measurements {
  std::string device;
  int64_t num_q_heads = 0, num_kv_heads = 0, tokens_per_group = 0;
  int64_t moe_experts = 0, moe_topk = 0;
  std::vector<AttentionMeasurement> attention;
  std::vector<MoeMeasurement> moe;
};

// False with `error` when the text is not a muhpatch-probe/1 document.
bool ParseMeasurements(const std::string& text, Measurements* out, std::string* error);

}  // namespace muh
