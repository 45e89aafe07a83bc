// The BI-V100 tuning model as a ValueSource: every quantity a rule can name,
// derived from the hardware profile, the rule file's workload and its
// autotune search spaces. Rules name quantities; the model decides values.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/model/autotune.h"
#include "engine/model/derivation.h"
#include "engine/model/facts.h"
#include "engine/model/input_values.h"
#include "engine/model/measurements.h"
#include "engine/model/moe_tiers.h"
#include "engine/model/value_source.h"
#include "engine/model/workload.h"

namespace muh {

// A measurement file (measurements.h) and the name it is shown by.
struct MeasuredKnobs {
  std::string path;
  Measurements data;
};

class ModelValues : public ValueSource {
 public:
  // With `measured`, a knob it has candidates for at the workload's point
  // takes the fastest of them instead of the model's choice (measured
  // beats modelled), and the values derived from that knob are derived
  // from the measured value.
  ModelValues(Profile profile, Workload workload, std::vector<SearchSpace> spaces,
              std::shared_ptr<const MeasuredKnobs> measured = nullptr);

  const Value* Find(std::string_view name) const override;
  std::vector<std::string> Names() const override;
  // The profile's facts and the workload's entries (input_values.h).
  std::vector<std::string> InputNames() const override;
  std::optional<Value> Call(std::string_view name,
                            const std::vector<std::string>& args) const override;
  std::vector<std::string> Functions() const override;

  const Profile& profile() const { return profile_; }
  const Workload& workload() const { return workload_; }
  // Every scalar derivation, in the order `muhpatch model` prints them.
  const std::vector<Derivation>& derivations() const { return derivations_; }
  const std::map<std::string, AutotuneResult>& autotune() const { return autotune_; }
  const MeasuredKnobs* measured() const { return measured_.get(); }
  // Whether `knob` names a quantity or a call (`moe_block_m_for_numel(64)`)
  // that a measurement can decide.
  bool Measurable(const std::string& knob) const;
  // Whether a knobs row of `knob` may name `entry` in its point besides the
  // workload's entries: the tier variable of a family (`numel`).
  static bool TierVariable(const std::string& knob, const std::string& entry);
  // Why a knobs row is malformed for its knob ("" when it is not): its value
  // does not parse as the knob's type (every knob a measurement can decide
  // is an integer), or its point lacks a key the knob needs (`numel` for the
  // tier family). A good row's value becomes its canonical text (`2 ** 5`: 32).
  static std::string MalformedRow(KnobMeasurement* row);
  // The knobs rows measured for another workload or dtype than the
  // deployment's, which are not used: one diagnostic per set of differing
  // entries, at its first row, naming the rows' values and the
  // deployment's. A warning where some knob of them has no row that fits
  // (the model decides it), a note where other rows of each fit.
  std::vector<Diagnostic> UnusedMeasurements() const;
  // Why `value` is outside the domain of `knob`, the values its consuming
  // kernel accepts ("" when inside, or when the knob declares none): the
  // MoE BLOCK_SIZE_M knobs take powers of two from 16 to 256 (every value
  // the fork's kernel has run); the prefix-prefill BLOCK below SM80 takes
  // what PrefixBlockProblem accepts at the profile and workload; the
  // shared-memory limit's site (smem_limit_kib, smem_limit_bytes: the
  // function's return, in bytes) takes smem_per_block's fact domain; a
  // site a fact or workload entry sizes takes its domain (input_values.h).
  std::string DomainProblem(std::string_view knob, const std::string& value) const override;
  std::vector<std::string> AccountedTransforms(std::string_view knob) const override;
  // The fastest candidates the domain refused at the deployment's point: a
  // note at each row, naming the constraint; the next candidate counts.
  std::vector<Diagnostic> RefusedMeasurements() const;
  // The tier family the rule file declares (`tiers: bounds:`), shown by
  // `muhpatch model` as if read from a tree: its values and bounds join
  // the derivations.
  void DeclareTierChain(const TierChainShape& chain);

 private:
  void Add(const Derivation& d);
  // `d`, decided by the measurements where they have data for it.
  Derivation Measure(Derivation d) const;
  // Whether a knobs row's point entry holds at the workload.
  bool PointMatches(const std::string& entry, const std::string& value) const;
  // The family's measured points of numel (knobs rows of moe_block_m_tier).
  MoeTierMeasurements TierPoints() const;
  // moe_block_m_tier / moe_tier_bound (moe_tiers.h).
  std::optional<Value> CallTier(std::string_view name, const std::vector<std::string>& args) const;

  Profile profile_;
  Workload workload_;
  std::shared_ptr<const MeasuredKnobs> measured_;
  std::vector<Derivation> derivations_;
  std::map<std::string, AutotuneResult> autotune_;
  std::map<std::string, Value, std::less<>> values_;
  std::map<std::string, Value, std::less<>> inputs_;  // `fact.NAME`, `workload.NAME`
};

// Value of a derivation, carrying its explanation and warnings.
Value ValueOf(const Derivation& d);

}  // namespace muh
