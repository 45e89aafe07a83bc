// The kind of site `tiers:` (tier_spec.h): the rule's pattern is the
// statement that sets the knob in each clause of a chain `if V <= B1: …
// elif V <= B2: … else: …`. Each match's chain is read from the tree
// (tier_chain.h) and its bounds evaluated (tier_bound.h); its value is a
// site with the captures @tier and @bounds besides the pattern's, and the
// tier's own upstream value, and each literal bound of the chain is a site
// that `bound-with:` writes. A bound computed from a module constant is
// never rewritten: it is shown where it is, with a note. A match in no
// chain, a bound that cannot be evaluated and a clause with two sites fail
// the rule.
#pragma once

#include <memory>
#include <string>

#include "engine/rules/finder.h"
#include "engine/rules/tier_spec.h"

namespace muh {

class TiersFinder : public Finder {
 public:
  TiersFinder(std::shared_ptr<const SiteQuery> query, std::string target,
              std::shared_ptr<const TierSpec> spec)
      : Finder(std::move(query)), target_(std::move(target)), spec_(std::move(spec)) {}
  FoundSites Find(const SyntaxTree& tree) const override;

 private:
  std::string target_;
  std::shared_ptr<const TierSpec> spec_;
};

}  // namespace muh
