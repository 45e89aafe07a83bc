// The flow of one dict from the variable that holds it (key_reads.h asks):
// through the calls it is passed to, its copies and the callers it is
// returned to, with every occurrence of its name accounted for (the forms
// are listed in key_flow.cc, Flow::Follow). Lexical, over the tree's
// logical lines.
#pragma once

#include <string>
#include <vector>

#include "engine/liveness/reachability.h"
#include "engine/liveness/tree_index.h"

namespace muh {

struct DictFlow {
  bool unknown = false;              // a use the flow does not model
  std::vector<Evidence> reads;       // where it reads every key or `key`
  std::vector<Evidence> doubts;      // the uses it does not model
  std::vector<Evidence> facts_used;  // declared facts that decided a callee
};

// The flow of the dict in `var` in `path` (from the file's top), for `key`.
DictFlow FollowDict(TreeIndex* index, const Reachability& reach, const std::string& path,
                    const std::string& var, const std::string& key);

// Whether line `k` runs: its branch is taken and no return precedes it.
bool LineRuns(TreeIndex* index, const std::string& path, int k);

}  // namespace muh
