// Planner::PlanTiers: a `tiers:` rule's sites (tier_spec.h). Each match's
// chain is read from the tree (tier_chain.h) and its bounds evaluated
// (tier_bound.h); the value sites are planned like any other site, with the
// captures @tier and @bounds added, and every literal bound with the rule's
// `bound-with:`. A bound computed from a module constant is never
// rewritten: a note says where.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/model/moe_tiers.h"
#include "engine/model/tier_bound.h"
#include "engine/plan/rule_planner.h"
#include "engine/python/tier_chain.h"

namespace muh {
namespace plan {

namespace {

Capture Synthetic(const std::string& name, std::string text) {
  Capture c;
  c.name = name;
  c.text = std::move(text);
  return c;
}

}  // namespace

void Planner::PlanTiers(const Rule& rule, const SourceText& file,
                        const std::vector<SiteMatch>& matches, RuleOutcome* outcome) {
  const TierSpec& spec = *rule.tiers;
  const SyntaxTree& tree = *SyntaxTreeOf(file.path());
  std::map<std::string, std::string> constants = ModuleConstants(tree);
  std::map<std::size_t, bool> bounds_planned;  // by chain: its bounds were planned
  // By chain and clause: the sites found there (one is a tier; two, a copy).
  std::map<std::pair<std::size_t, std::size_t>, std::vector<std::size_t>> in_clause;
  std::map<std::pair<std::size_t, std::size_t>, std::string> clause_names;
  std::size_t first_found = outcome->found.size();
  std::set<std::size_t> bad_bounds;  // reported once, however many sites share the chain
  std::set<std::string> bad_chains;
  for (const SiteMatch& site_match : matches) {
    if (outcome->status == RuleStatus::kNoValue) break;
    const QueryMatch& m = site_match.match;
    const Capture* target = m.Find(rule.target);
    if (target == nullptr) {
      PlanSite(rule, file, site_match, outcome);  // reports the missing capture
      continue;
    }
    std::string error;
    std::optional<TierChainAt> at =
        TierChainAround(tree, target->begin, target->end, spec.variable, &error);
    if (!at) {
      // Once for a chain that reads otherwise (every write in it says the same).
      if (error.empty() || bad_chains.insert(error).second)
        out_->diagnostics.push_back(
            At(file.path(), target->begin, Severity::kError,
               fmt::format("rule '{}': this site is in no chain `if {} <= BOUND: … elif …`{}",
                           rule.id, spec.variable, error.empty() ? "" : ": " + error)));
      outcome->status = RuleStatus::kFailed;
      continue;
    }
    const TierChain& chain = at->chain;
    TierChainShape shape;
    shape.has_else = chain.has_else;
    std::vector<std::string> how;  // per bound, as written and evaluated
    bool bad = false;
    for (const TierClause& c : chain.clauses) {
      if (c.bound.empty()) continue;
      TierBoundValue v = EvaluateTierBound(c.bound, constants);
      if (!v.error.empty() || (!shape.bounds.empty() && v.value <= shape.bounds.back())) {
        if (bad_bounds.insert(c.bound_begin).second)
          out_->diagnostics.push_back(
              At(file.path(), c.bound_begin, Severity::kError,
                 fmt::format("rule '{}': the tier bound `{}` {}", rule.id, c.bound,
                             v.error.empty() ? fmt::format("({}) does not ascend", v.value)
                                             : "cannot be evaluated: " + v.error)));
        bad = true;
        break;
      }
      shape.bounds.push_back(v.value);
      shape.computed.push_back(!v.literal);
      how.push_back(v.literal ? c.bound : fmt::format("`{}` = {}", c.bound, v.value));
    }
    if (bad) {
      outcome->status = RuleStatus::kFailed;
      continue;
    }
    std::size_t tiers = chain.clauses.size();
    in_clause[{chain.begin, at->clause}].push_back(target->begin);
    clause_names[{chain.begin, at->clause}] =
        fmt::format("tier {} of {} ({})", at->clause + 1, tiers, shape.Describe(at->clause));
    auto with_tier = [&](QueryMatch match, std::size_t index, const std::string& target_name) {
      SiteMatch out;
      out.at = match.Begin();
      match.captures.push_back(Synthetic("tier", std::to_string(index + 1)));
      match.captures.push_back(Synthetic("bounds", shape.Text()));
      out.match = std::move(match);
      out.target = target_name;
      return out;
    };
    // The value site, with the tier's upstream value.
    Rule tier_rule = rule;
    tier_rule.tiers = nullptr;
    if (!spec.upstream.empty()) {
      // By tier when the chain has as many tiers as the list; else any of them.
      const std::vector<std::string>& u = spec.upstream;
      tier_rule.upstream =
          u.size() == tiers || u.size() == 1
              ? u[std::min(at->clause, u.size() - 1)]
              : fmt::format("{}' or '{}", fmt::join(u.begin(), u.end() - 1, "', '"), u.back());
      // Only where the tier's own upstream is unknown does any of them count:
      // a tier holding another tier's upstream value was tuned by hand.
      if (u.size() != tiers && u.size() != 1) {
        for (const std::string& v : u) {
          if (v == target->text) tier_rule.upstream = v;
        }
      }
    }
    std::size_t found = outcome->found.size();
    PlanSite(tier_rule, file, with_tier(m, at->clause, rule.target), outcome);
    if (outcome->found.size() > found) {
      outcome->found.back().tier =
          fmt::format("tier {} of {}: {}", at->clause + 1, tiers, shape.Describe(at->clause));
    }
    // Each literal bound of the chain, once.
    if (!spec.has_bound_with || bounds_planned[chain.begin]) continue;
    bounds_planned[chain.begin] = true;
    Rule bound_rule = rule;
    bound_rule.tiers = nullptr;
    bound_rule.with = spec.bound_with;
    bound_rule.target = "bound";
    bound_rule.upstream.reset();
    bound_rule.pin.reset();
    for (std::size_t b = 0, k = 0; k < chain.clauses.size(); ++k) {
      const TierClause& c = chain.clauses[k];
      if (c.bound.empty()) continue;
      std::size_t index = b++;
      if (shape.computed[index]) {
        out_->diagnostics.push_back(
            At(file.path(), c.bound_begin, Severity::kNote,
               fmt::format("rule '{}' leaves the tier bound {} alone: it is computed from a "
                           "module constant, so the tiers keep the code's bounds",
                           rule.id, how[index])));
        // Shown where it is (status, model --tree), never rewritten.
        Position pos = file.PositionOf(c.bound_begin);
        Site site;
        site.path = file.path();
        site.begin = c.bound_begin;
        site.end = c.bound_end;
        site.line = pos.line;
        site.column = pos.column;
        site.current = site.wanted = c.bound;
        site.tier = fmt::format("bound {} of {}: {}, computed: never rewritten", index + 1,
                                shape.bounds.size(), how[index]);
        outcome->found.push_back(site);
        continue;
      }
      QueryMatch bound;
      Capture cap;
      cap.name = "bound";
      cap.begin = c.bound_begin;
      cap.end = c.bound_end;
      cap.text = c.bound;
      cap.node_type = "integer";
      bound.captures.push_back(cap);
      std::size_t before = outcome->found.size();
      PlanSite(bound_rule, file, with_tier(bound, index, "bound"), outcome);
      if (outcome->found.size() > before) {
        outcome->found.back().tier =
            fmt::format("bound {} of {}: {}", index + 1, shape.bounds.size(), how[index]);
      }
    }
  }
  // The sites in file order, bounds among the tiers.
  std::stable_sort(outcome->found.begin() + static_cast<std::ptrdiff_t>(first_found),
                   outcome->found.end(),
                   [](const Site& a, const Site& b) { return a.begin < b.begin; });
  for (const auto& [clause, sites] : in_clause) {
    if (sites.size() < 2) continue;
    std::vector<int> lines;
    for (std::size_t b : sites) lines.push_back(file.PositionOf(b).line);
    out_->diagnostics.push_back(
        At(file.path(), sites[1], Severity::kError,
           fmt::format("rule '{}' expects 1 site in {} of the chain at line {}, found {} (at "
                       "lines {})",
                       rule.id, clause_names[clause], file.PositionOf(clause.first).line,
                       sites.size(), fmt::join(lines, ", "))));
    outcome->status = RuleStatus::kFailed;
  }
}

}  // namespace plan
}  // namespace muh
