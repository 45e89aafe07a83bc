// Autotune lists derived from a declared search space: enumerate the cross
// product, prune by the stage limit, threads, shared memory and registers,
// merge candidates that differ only in fields the backend ignores, rank what
// is left, and keep the best `max_new`. Deterministic: ties break on fewer
// stages, fewer warps, then the entry's field values in declared order.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "engine/model/derivation.h"
#include "engine/model/facts.h"
#include "engine/model/value_source.h"
#include "engine/model/workload.h"

namespace muh {

struct AutotuneCandidate {
  ConfigEntry entry;  // fields in the space's declared order
  int64_t block_m = 0, block_n = 0, stages = 0, warps = 0;
  int64_t smem = 0, threads = 0, regs = 0, spill = 0, resident = 0;
  double score = 0;
};

struct AutotuneResult {
  int64_t enumerated = 0;
  std::map<std::string, int64_t> pruned;    // reason -> count
  int64_t merged = 0;                       // equal but for ignored fields
  std::vector<AutotuneCandidate> valid;     // ranked, best first
  std::vector<AutotuneCandidate> selected;  // the first max_new of `valid`
  Derivation derivation;
};

AutotuneResult DeriveAutotune(const Profile& p, const Workload& w, const SearchSpace& space);

}  // namespace muh
