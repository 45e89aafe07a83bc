#include "engine/model/moe_tiers.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <sstream>

#include "engine/model/moe_knobs.h"

namespace muh {

std::string TierChainShape::Describe(std::size_t tier) const {
  if (tier < bounds.size()) {
    return tier == 0 ? fmt::format("numel <= {}", bounds[0])
                     : fmt::format("{} < numel <= {}", bounds[tier - 1], bounds[tier]);
  }
  return bounds.empty() ? "every numel" : fmt::format("numel > {}", bounds.back());
}

std::string TierChainShape::Text() const {
  std::string out;
  for (std::size_t i = 0; i < bounds.size(); ++i) {
    out += fmt::format("{}{}{}", out.empty() ? "" : " ", bounds[i], computed[i] ? "*" : "");
  }
  if (has_else) out += out.empty() ? "else" : " else";
  return out;
}

bool ParseTierChain(const std::string& text, TierChainShape* out, std::string* error) {
  std::istringstream in(text);
  std::string word;
  *out = TierChainShape();
  while (in >> word) {
    if (out->has_else) {
      *error = "`else` must come last in the tier bounds '" + text + "'";
      return false;
    }
    if (word == "else") {
      out->has_else = true;
      continue;
    }
    bool computed = word.back() == '*';
    if (computed) word.pop_back();
    if (word.empty() || word.size() > 15 ||
        word.find_first_not_of("0123456789") != std::string::npos) {
      *error = "the tier bounds '" + text + "' hold '" + word + "', not a whole number";
      return false;
    }
    int64_t b = std::stoll(word);
    if (!out->bounds.empty() && b <= out->bounds.back()) {
      *error = fmt::format("the tier bounds '{}' do not ascend", text);
      return false;
    }
    out->bounds.push_back(b);
    out->computed.push_back(computed);
  }
  if (out->bounds.empty()) {
    *error = "a tier chain needs at least one bound";
    return false;
  }
  return true;
}

namespace {

std::string FormatPoint(const TierPoint& p) {
  std::string out = fmt::format("numel {}:", p.at);
  for (const auto& [v, us] : p.us) out += fmt::format(" {} {} us,", v, FormatNumber(us));
  out.pop_back();
  return out;
}

// Why the code's bounds stay, when measurements were given but cannot move them.
std::string WhyBoundsStay(const TierChainShape& chain, std::size_t tiers,
                          const MoeTierMeasurements& m) {
  for (std::size_t i = 0; i < chain.bounds.size(); ++i) {
    if (chain.computed[i]) {
      return fmt::format(
          "bound {} ({}) is computed from a module constant and is never rewritten, so the "
          "code's bounds stay",
          i + 1, chain.bounds[i]);
    }
  }
  if (!chain.has_else) return "the chain has no `else`: its last bound ends it, so none moves";
  if (m.points.size() < tiers) {
    return fmt::format("{} measured point(s) of numel for {} tiers: too few to place the bounds",
                       m.points.size(), tiers);
  }
  return "no split of the measured points gives every tier a value measured at all of its points";
}

}  // namespace

MoeTierFamily DeriveMoeTiers(const Profile& p, const Workload& w, const TierChainShape& chain,
                             const MoeTierMeasurements* measured) {
  MoeTierFamily out;
  std::size_t tiers = chain.bounds.size() + (chain.has_else ? 1 : 0);
  int64_t max_pairs = MoeMaxPairs(w);
  bool has_points = measured != nullptr && !measured->points.empty();
  std::optional<TierSplit> split;
  std::string stay;
  bool any_computed =
      std::find(chain.computed.begin(), chain.computed.end(), true) != chain.computed.end();
  if (has_points && chain.has_else && !any_computed)
    split = ChooseTierSplit(measured->points, tiers);
  if (has_points && !split) stay = WhyBoundsStay(chain, tiers, *measured);
  std::vector<int64_t> bounds = chain.bounds;
  if (split) bounds = split->bounds;
  std::vector<TierRange> ranges = TierRanges(bounds, chain.has_else, max_pairs);
  TierChainShape chosen = chain;
  chosen.bounds = bounds;
  for (std::size_t t = 0; t < tiers; ++t) {
    const TierRange& r = ranges[t];
    std::string name = fmt::format("{}[{}]", kMoeTierKnob, chosen.Describe(t));
    Derivation d = DeriveMoeBlockM(
        p, w, r.lo, std::min(r.hi, max_pairs), name,
        fmt::format("tier {} of {} (`{}`{})", t + 1, tiers, chosen.Describe(t),
                    split ? ", the bounds the measurements chose" : ", as the code bounds it"));
    // The measured points inside the tier, and the value they choose.
    std::size_t first = 0, last = 0;
    if (has_points) {
      const std::vector<TierPoint>& pts = measured->points;
      while (first < pts.size() && pts[first].at <= r.lo) ++first;
      last = first;
      while (last < pts.size() && (pts[last].at <= r.hi || (chain.has_else && t + 1 == tiers))) {
        ++last;
      }
    }
    double worst = 0;
    std::optional<std::string> value =
        first < last ? BestTierValue(measured->points, first, last, &worst) : std::nullopt;
    if (value) {
      std::string at;
      for (std::size_t i = first; i < last; ++i) at += "; " + FormatPoint(measured->points[i]);
      d.model_value = d.error.empty() ? d.value : "(none: " + d.error + ")";
      d.measured = fmt::format(
          "{}: {} is measured at every point of numel in the tier, at least {:.0f}% of each "
          "point's fastest{}",
          measured->path, *value, std::floor(worst * 100 + 1e-9), at);
      d.value = *value;
      d.error.clear();
      d.warnings.clear();
    } else if (has_points) {
      d.decided_by += fmt::format(
          " (no measured point of numel falls in this tier with a value "
          "timed at each: the model decides)");
    }
    out.values.push_back(d);
  }
  for (std::size_t b = 0; b < chain.bounds.size(); ++b) {
    Derivation d = NewDerivation(
        fmt::format("{}[{}]", kMoeTierBoundKnob, b + 1),
        "the bound between two tiers: kept as the code has it unless measurements of numel "
        "choose the bounds and the values together (the worst share of each measured point's "
        "fastest time is largest; a bound lies at the power of two nearest the geometric "
        "middle of the last point below it and the first above)");
    d.value = std::to_string(bounds[b]);
    if (split) {
      const TierPoint& below = measured->points[split->first[b + 1] - 1];
      const TierPoint& above = measured->points[split->first[b + 1]];
      d.decided_by = fmt::format(
          "{}: the split into {} tiers with {} reaches at least {:.0f}% of the fastest at every "
          "measured point; this bound lies between numel {} (tier {}) and {} (tier {}){}",
          measured->path, tiers, fmt::join(split->values, "/"),
          std::floor(split->worst_share * 100 + 1e-9), below.at, b + 1, above.at, b + 2,
          bounds[b] == chain.bounds[b] ? "" : fmt::format("; the code had {}", chain.bounds[b]));
    } else if (chain.computed[b]) {
      d.decided_by = "computed from a module constant: never rewritten";
    } else {
      d.decided_by = has_points ? "kept: " + stay
                                : "kept as the code has it: no measurements of numel (a bound "
                                  "not measured is not proved)";
    }
    out.bounds.push_back(d);
  }
  return out;
}

}  // namespace muh
