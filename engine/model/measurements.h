// The calibration probe's measurements (bench/probe/h200/measurements.json,
// format muhpatch-probe/1): one row per measured attention or MoE tile, and
// the candidates' times per knob and workload point, which decide a knob's
// value over the model's choice (`--measurements FILE`, or `measurements:`
// in the rule file). Pure: parses text, reads no file.
//
// The document is one JSON object:
//
//   "format": "muhpatch-probe/1"
//   "device": "Iluvatar BI-V100"              (optional, shown in reports)
//   "columns": {"attention": [...], "moe": [...], "knobs": [...]}
//   "setup": {"attention": {...}, "moe": {...}}  (with "attention" / "moe")
//   "attention": [[row], ...]                 (optional: calibration tiles)
//   "moe": [[row], ...]                       (optional: calibration tiles)
//   "knobs": [[row], ...]                     (optional: the knobs' candidates)
//
// Each row is a list whose cells `columns` names, in any order. A knob row's
// columns: `knob` (a quantity of `muhpatch model`, as rules name it:
// "prefix_block_below_sm80", "moe_block_m_for_numel(1024)"), `point` (an
// object of workload entries and their values, {"max_batched_tokens":
// 16384, "dtype": "bfloat16"}; {} for any workload), `value` (the candidate:
// a number, or a string of Python source text), `status` ("ok" when it ran
// and was right; anything else says why not), `us` (its time in
// microseconds) and optionally `us_rep` (a repeat; the faster counts) and
// `reason`. A knob's rows at one point are its candidates there; the
// fastest that is "ok" is the measured choice.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
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

// One candidate of a knob, timed at one workload point.
struct KnobMeasurement {
  std::string knob;
  std::vector<std::pair<std::string, std::string>> point;  // workload entry -> value, sorted
  std::string value;                                       // Python source text
  std::string status;                                      // "ok", or why it did not run
  double us = 0;                                           // 0 unless status is ok
  int row = 0;                                             // 1-based, in `knobs`
  int line = 0, column = 0;                                // where the row starts in the file
};

struct Measurements {
  std::string device;
  int64_t num_q_heads = 0, num_kv_heads = 0, tokens_per_group = 0;
  int64_t moe_experts = 0, moe_topk = 0;
  std::vector<AttentionMeasurement> attention;
  std::vector<MoeMeasurement> moe;
  std::vector<KnobMeasurement> knobs;
};

// Why a document was refused: where (0 when not one row's fault) and what.
struct MeasurementsError {
  int line = 0, column = 0;
  std::string message;
};

// False with `error` when the text is not a muhpatch-probe/1 document, or a
// knobs row is malformed (a cell of the wrong kind; an "ok" row whose time
// is not a positive number): the error then names the row and its place.
bool ParseMeasurements(const std::string& text, Measurements* out, MeasurementsError* error);

// What the measurements choose for one knob.
struct MeasuredChoice {
  const KnobMeasurement* fastest = nullptr;
  std::vector<const KnobMeasurement*> candidates;  // every row at the point, in file order
  std::string point;                               // "max_batched_tokens=16384", or "any workload"
};

// The measured choice for `knob`: among the knob's rows whose point
// `matches` accepts entry by entry, those of the most specific point (the
// most entries; the first in the file among equals), and of them the
// fastest that ran (the first in the file among equal times). nullopt when
// no point matches or no candidate there ran.
// With `usable`, a candidate it refuses is never the fastest (a value outside
// the knob's domain): the next that ran and it accepts is.
using PointMatcher = std::function<bool(const std::string& entry, const std::string& value)>;
using CandidateFilter = std::function<bool(const KnobMeasurement& candidate)>;
std::optional<MeasuredChoice> ChooseMeasured(const Measurements& m, std::string_view knob,
                                             const PointMatcher& matches,
                                             const CandidateFilter& usable = nullptr);

}  // namespace muh
