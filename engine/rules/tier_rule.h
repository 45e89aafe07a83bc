// Reading and checking a rule's `tiers:` block (tier_spec.h), and the code
// patterns it turns the rule's pattern into: the statement in the `if`, in
// any `elif`, and in the `else` of a chain on the variable.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "engine/model/moe_tiers.h"
#include "engine/model/value_source.h"
#include "engine/pattern/pattern_node.h"
#include "engine/rules/tier_spec.h"
#include "engine/rules/yaml_reader.h"

namespace muh {

struct RawTiers {
  RawScalar key;  // present when the rule has `tiers:`
  RawScalar variable, bound_with, means;
  RawScalar bounds_key, upstream_key;
  std::vector<RawScalar> bounds, upstream;
};

void ReadTiers(YamlReader* l, const YAML::Node& key, const YAML::Node& value, RawTiers* out);

// The checked block, or null with errors reported through `l`.
std::shared_ptr<const TierSpec> CheckTiers(const RawTiers& raw, YamlReader* l,
                                           const ValueSource& values);

// The chain `tiers: bounds:` declares, ending in an `else`, for `muhpatch
// model` without a tree; nullopt when it declares no valid bounds.
std::optional<TierChainShape> DeclaredTierChain(const RawTiers& raw);

// The pattern of a tier family: `statement` (a compiled code pattern's
// tree) as a statement directly in the `if`, an `elif` or the `else` block
// of a chain whose condition names `variable`. The plan checks every
// clause's condition (tier_chain.h).
PatternTree TierPattern(const std::string& variable, const PatternTree& statement);

// The two halves of TierPattern, for a pattern compiled with `inside:`
// (CodePattern::wrap): the chain's node around the statement's, and the
// constraint that its condition names `variable`.
PatternNode TierNode(const std::string& variable, const PatternNode& statement);
PatternConstraint TierConstraint(const std::string& variable);

}  // namespace muh
