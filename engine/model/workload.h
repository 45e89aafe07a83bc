// What the kernels are sized for: head dimensions, dtype, heads, experts,
// batch. Declared in the rule file's `workload:` section; every entry has a
// stated default. Also the autotune search spaces the rule file declares.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace muh {

struct WorkloadItem {
  std::string name;
  int64_t value = 0;
  std::string meaning;
  bool from_rules = false;  // false: the default
};

class Workload {
 public:
  // Every entry at its default.
  static Workload Defaults();

  const std::vector<WorkloadItem>& items() const { return items_; }
  const WorkloadItem* Find(std::string_view name) const;
  int64_t Get(std::string_view name) const;  // the entry must exist
  std::vector<std::string> Names() const;
  // Sets an entry from the rule file. `text` is a whole number, or for
  // `dtype` one of float16, bfloat16, float32. False with `error` otherwise.
  bool Set(std::string_view name, const std::string& text, std::string* error);

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
};

// Why no cost model ranks search spaces of kind `kernel` ("" when one
// does: "attention" is the only one so far).
std::string SearchSpaceKernelProblem(const std::string& kernel);

// Why the cost model of `kernel` cannot read `value` for dimension `dim`
// ("" when it can; dimensions it does not read take any value).
std::string SearchSpaceValueProblem(const std::string& kernel, const std::string& dim,
                                    const std::string& value);

}  // namespace muh
