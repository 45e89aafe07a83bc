// The BI-V100 tuning model as a ValueSource: every quantity a rule can name,
// derived from the hardware profile, the rule file's workload and its
// autotune search spaces. Rules name quantities; the model decides values.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/model/autotune.h"
#include "engine/model/derivation.h"
#include "engine/model/facts.h"
#include "engine/model/value_source.h"
#include "engine/model/workload.h"

namespace muh {

class ModelValues : public ValueSource {
 public:
  ModelValues(Profile profile, Workload workload, std::vector<SearchSpace> spaces);

  const Value* Find(std::string_view name) const override;
  std::vector<std::string> Names() const override;
  std::optional<Value> Call(std::string_view name,
                            const std::vector<std::string>& args) const override;
  std::vector<std::string> Functions() const override;

  const Profile& profile() const { return profile_; }
  const Workload& workload() const { return workload_; }
  // Every scalar derivation, in the order `muhpatch model` prints them.
  const std::vector<Derivation>& derivations() const { return derivations_; }
  const std::map<std::string, AutotuneResult>& autotune() const { return autotune_; }

 private:
  void Add(const Derivation& d);

  Profile profile_;
  Workload workload_;
  std::vector<Derivation> derivations_;
  std::map<std::string, AutotuneResult> autotune_;
  std::map<std::string, Value, std::less<>> values_;
};

// Value of a derivation, carrying its explanation and warnings.
Value ValueOf(const Derivation& d);

}  // namespace muh
