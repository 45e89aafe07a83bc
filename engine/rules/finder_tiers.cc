#include "engine/rules/finder_tiers.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "engine/model/moe_tiers.h"
#include "engine/model/tier_bound.h"
#include "engine/python/tier_chain.h"
#include "engine/python/ts_nodes.h"
#include "engine/python/variable_means.h"

namespace muh {

namespace {

Capture Synthetic(const std::string& name, std::string text) {
  Capture c;
  c.name = name;
  c.text = std::move(text);
  return c;
}

// The line of byte `at` in `bytes`, from 1.
int LineOf(std::string_view bytes, std::size_t at) {
  return 1 + static_cast<int>(
                 std::count(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

// Where a name of `bound` that the module assigns at its top level is
// bound again (ModuleConstants' why_not): ": `from m import T` (line 5)
// binds it again"; "" when no name of it is.
std::string WhyNotConstant(const std::string& bound,
                           const std::map<std::string, std::string>& why_not) {
  for (std::size_t i = 0; i < bound.size();) {
    if (!(std::isalpha(static_cast<unsigned char>(bound[i])) || bound[i] == '_')) {
      ++i;
      continue;
    }
    std::size_t j = i;
    while (j < bound.size() &&
           (std::isalnum(static_cast<unsigned char>(bound[j])) || bound[j] == '_'))
      ++j;
    auto it = why_not.find(bound.substr(i, j - i));
    if (it != why_not.end()) return fmt::format(": {}", it->second);
    i = j;
  }
  auto any = why_not.find("*");
  return any == why_not.end() ? "" : fmt::format(": {}", any->second);
}

}  // namespace

FoundSites TiersFinder::Find(const SyntaxTree& tree) const {
  const TierSpec& spec = *spec_;
  FoundSites out;
  out.in_file_order = true;
  std::map<std::string, std::string> why_not;  // top-level names left out, and why
  std::map<std::string, std::string> constants = ModuleConstants(tree, &why_not);
  std::set<std::size_t> bounds_found;  // the chains whose bounds are sites already
  // By chain and clause: the sites found there (one is a tier; two, a copy).
  std::map<std::pair<std::size_t, std::size_t>, std::vector<std::size_t>> in_clause;
  std::map<std::pair<std::size_t, std::size_t>, std::string> clause_names;
  std::set<std::size_t> bad_bounds;  // said once, however many sites share the chain
  // Each chain a site was found in: where each tier begins, and its name.
  std::map<std::size_t, std::vector<std::pair<std::size_t, std::string>>> chains;
  std::vector<std::size_t> matched;  // every match's target, problems too
  std::set<std::string> bad_chains;
  for (QueryMatch& m : query()->Run(tree)) {
    SiteMatch& site = out.sites.emplace_back();
    site.at = m.Begin();
    site.target = target_;
    const Capture* target = m.Find(target_);
    if (target != nullptr) matched.push_back(target->begin);
    if (target == nullptr) {
      site.match = std::move(m);  // the planner says the capture is absent
      continue;
    }
    // `config['BLOCK_SIZE_M'] = W = 11`: the pattern's value is `W = 11`,
    // and writing the tier's value over it would drop W's assignment.
    if (target->node_type == "assignment") {
      site.kind = SiteMatch::Kind::kProblem;
      site.message_at = target->begin;
      site.message = fmt::format(
          ": the tier's value `{}` assigns {} as well (a chained assignment): rewriting it would "
          "change or drop that; write each on its own line",
          target->text,
          TextOf(tree, Field(ts_node_descendant_for_byte_range(tree.Root(),
                                                               static_cast<uint32_t>(target->begin),
                                                               static_cast<uint32_t>(target->end)),
                             "left")));
      site.match = std::move(m);
      continue;
    }
    std::string error;
    std::optional<TierChainAt> at =
        TierChainAround(tree, target->begin, target->end, spec.variable, &error);
    if (!at) {
      site.kind = SiteMatch::Kind::kProblem;
      // Said once for a chain that reads otherwise (every write in it says the same).
      if (error.empty() || bad_chains.insert(error).second) {
        site.message_at = target->begin;
        site.message = fmt::format(": this site is in no chain `if {} <= BOUND: … elif …`{}",
                                   spec.variable, error.empty() ? "" : ": " + error);
      }
      site.match = std::move(m);
      continue;
    }
    const TierChain& chain = at->chain;
    // A bound may read the function's own constants, which hide the module's.
    std::map<std::string, std::string> scope = constants;
    TSNode fn{};
    for (TSNode p = ts_node_descendant_for_byte_range(
             tree.Root(), static_cast<uint32_t>(target->begin), static_cast<uint32_t>(target->end));
         !ts_node_is_null(p); p = ts_node_parent(p)) {
      if (Is(p, "function_definition")) {
        scope = FunctionConstants(tree, p, target->begin, constants);
        fn = p;
        break;
      }
    }
    // What the variable counts where the chain reads it, when the rule says.
    if (!spec.means.empty()) {
      std::string why = ts_node_is_null(fn)
                            ? "the chain is in no function"
                            : WhyNotMeans(tree, fn, chain.begin, spec.variable, spec.means);
      if (!why.empty()) {
        site.kind = SiteMatch::Kind::kProblem;
        if (bad_chains.insert("means:" + std::to_string(chain.begin)).second) {
          site.message_at = chain.begin;
          site.message = fmt::format(
              ": the chain's `{}` must count `{}` (the rule's 'means'), what its tiers are sized "
              "for, and {}",
              spec.variable, spec.means, why);
        }
        site.match = std::move(m);
        continue;
      }
    }
    TierChainShape shape;
    shape.has_else = chain.has_else;
    std::vector<std::string> how;  // per bound, as written and evaluated
    bool bad = false;
    for (const TierClause& c : chain.clauses) {
      if (c.bound.empty()) continue;
      TierBoundValue v = EvaluateTierBound(c.bound, scope);
      for (const std::string& name : v.names) {
        // The module's (not a local of the function's own): another module
        // may rebind it, which the plan asks the whole tree about.
        auto module = constants.find(name);
        auto seen = scope.find(name);
        if (module != constants.end() && seen != scope.end() && seen->second == module->second) {
          site.bound_constants.push_back(BoundConstant{name, c.bound_begin});
        }
      }
      if (!v.error.empty() || (!shape.bounds.empty() && v.value <= shape.bounds.back())) {
        if (bad_bounds.insert(c.bound_begin).second) {
          site.message_at = c.bound_begin;
          site.message = fmt::format(": the tier bound `{}` {}{}", c.bound,
                                     v.error.empty() ? fmt::format("({}) does not ascend", v.value)
                                                     : "cannot be evaluated: " + v.error,
                                     v.error.empty() ? "" : WhyNotConstant(c.bound, why_not));
        }
        bad = true;
        break;
      }
      shape.bounds.push_back(v.value);
      shape.computed.push_back(!v.literal);
      how.push_back(v.literal ? c.bound : fmt::format("`{}` = {}", c.bound, v.value));
    }
    if (bad) {
      site.kind = SiteMatch::Kind::kProblem;
      site.match = std::move(m);
      continue;
    }
    std::size_t tiers = chain.clauses.size();
    if (chains.count(chain.begin) == 0) {
      for (std::size_t i = 0; i < tiers; ++i) {
        chains[chain.begin].emplace_back(
            chain.clauses[i].begin,
            fmt::format("tier {} of {} ({})", i + 1, tiers, shape.Describe(i)));
      }
    }
    in_clause[{chain.begin, at->clause}].push_back(target->begin);
    clause_names[{chain.begin, at->clause}] =
        fmt::format("tier {} of {} ({})", at->clause + 1, tiers, shape.Describe(at->clause));
    auto with_tier = [&](QueryMatch match, std::size_t index) {
      match.captures.push_back(Synthetic("tier", std::to_string(index + 1)));
      match.captures.push_back(Synthetic("bounds", shape.Text()));
      return match;
    };
    // The value site, with the tier's upstream value: by position when the
    // chain has as many tiers as the list (or the list one value). A chain
    // of another length is not upstream's: no value of it is, and each tier
    // holding another value than the model's is hand-tuned.
    if (!spec.upstream.empty()) {
      const std::vector<std::string>& u = spec.upstream;
      site.upstream =
          u.size() == tiers || u.size() == 1
              ? u[std::min(at->clause, u.size() - 1)]
              : fmt::format("(none: upstream's chain has {} tiers, this one {})", u.size(), tiers);
    }
    site.tier = fmt::format("tier {} of {}: {}", at->clause + 1, tiers, shape.Describe(at->clause));
    site.tier_index = static_cast<int>(at->clause);
    site.tier_count = static_cast<int>(tiers);
    site.match = with_tier(std::move(m), at->clause);
    // Each literal bound of the chain, once: planned with the value before it.
    if (!spec.has_bound_with || !bounds_found.insert(chain.begin).second) continue;
    for (std::size_t b = 0, k = 0; k < chain.clauses.size(); ++k) {
      const TierClause& c = chain.clauses[k];
      if (c.bound.empty()) continue;
      std::size_t index = b++;
      SiteMatch& bound = out.sites.emplace_back();
      Capture cap;
      cap.name = "bound";
      cap.begin = c.bound_begin;
      cap.end = c.bound_end;
      cap.text = c.bound;
      cap.node_type = "integer";
      QueryMatch match;
      match.captures.push_back(cap);
      bound.match = with_tier(match, index);
      bound.target = "bound";
      bound.at = bound.message_at = c.bound_begin;
      bound.with = &spec.bound_with;
      bound.pinned = false;
      bound.counted = false;
      bound.continues = true;
      bound.tier = fmt::format("bound {} of {}: {}", index + 1, shape.bounds.size(), how[index]);
      if (shape.computed[index]) {
        // Shown where it is (status, model --tree), never rewritten.
        bound.kind = SiteMatch::Kind::kShown;
        bound.message = fmt::format(
            " leaves the tier bound {} alone: it is computed from a module constant, so the "
            "tiers keep the code's bounds",
            how[index]);
        bound.tier += ", computed: never rewritten";
      }
    }
  }
  // A tier with no site keeps its value while the others change: the chain
  // would no longer be sized as one (`config.update(...)`, a write through
  // another name, or none at all there).
  for (const auto& [begin, tiers] : chains) {
    for (std::size_t i = 0; i < tiers.size(); ++i) {
      if (in_clause.count({begin, i}) != 0) continue;
      // A match there that is a problem of its own says so already.
      std::size_t from = tiers[i].first;
      std::size_t to = i + 1 < tiers.size() ? tiers[i + 1].first : SIZE_MAX;
      if (std::any_of(matched.begin(), matched.end(),
                      [&](std::size_t b) { return b >= from && b < to; })) {
        continue;
      }
      SiteMatch& missing = out.sites.emplace_back();
      missing.kind = SiteMatch::Kind::kProblem;
      missing.at = missing.message_at = tiers[i].first;
      missing.counted = false;
      missing.continues = true;
      missing.message = fmt::format(
          " finds no site in {} of the chain at line {}: that tier writes its value in no form "
          "the rule's pattern matches, so it would keep it while the other tiers change; write "
          "it as the other tiers do",
          tiers[i].second, LineOf(tree.bytes(), begin));
    }
  }
  for (const auto& [clause, sites] : in_clause) {
    if (sites.size() < 2) continue;
    std::vector<int> lines;
    for (std::size_t b : sites) lines.push_back(LineOf(tree.bytes(), b));
    SiteMatch& copy = out.sites.emplace_back();
    copy.kind = SiteMatch::Kind::kProblem;
    copy.at = copy.message_at = sites[1];
    copy.counted = false;
    copy.continues = true;
    copy.message =
        fmt::format(" expects 1 site in {} of the chain at line {}, found {} (at lines {})",
                    clause_names[clause], LineOf(tree.bytes(), clause.first), sites.size(),
                    fmt::join(lines, ", "));
  }
  return out;
}

}  // namespace muh
