#include "engine/rules/finder_tiers.h"

#include <doctest/doctest.h>

#include "engine/rules/rule_loader.h"

namespace muh {

namespace {

// The sites of a `tiers:` rule on config['M'] in `source`.
FoundSites TierSites(const std::string& source) {
  const std::string rules =
      "version: 1\nrules:\n  - id: tiers\n    files: a.py\n    pattern: config['M'] = $value\n"
      "    tiers: {variable: numel, bounds: [64, 4096], upstream: [32, 64, 256]}\n"
      "    expect: 1..8\n    replace: value\n    with: \"16\"\n";
  RuleSet set;
  std::vector<Diagnostic> errs;
  REQUIRE(LoadRules("r.yaml", rules, {}, &set, &errs));
  REQUIRE(dynamic_cast<const TiersFinder*>(set.rules[0].finder.get()) != nullptr);
  PythonParser parser;
  SyntaxTree tree = parser.Parse(source);
  return set.rules[0].finder->Find(tree);
}

}  // namespace

TEST_CASE("tiers: each tier's value is a site with @tier, @bounds and its own upstream value") {
  FoundSites found = TierSites(
      "def f(numel):\n    config = {}\n    if numel <= 64:\n        config['M'] = 32\n"
      "    elif numel <= 4096:\n        config['M'] = 64\n    else:\n        config['M'] = 256\n");
  CHECK(found.in_file_order);
  REQUIRE(found.sites.size() == 3);
  const SiteMatch& second = found.sites[1];
  CHECK(second.kind == SiteMatch::Kind::kSite);
  CHECK(second.counted);
  CHECK(second.match.Find("value")->text == "64");
  CHECK(second.match.Find("tier")->text == "2");
  CHECK(second.match.Find("bounds")->text == "64 4096 else");
  CHECK(second.upstream == "64");
  CHECK(second.tier == "tier 2 of 3: 64 < numel <= 4096");
}

TEST_CASE("tiers: two sites in one clause, or a site in no chain, are problems") {
  FoundSites copy = TierSites(
      "def f(numel):\n    config = {}\n    if numel <= 64:\n        config['M'] = 32\n"
      "        config['M'] = 32\n    else:\n        config['M'] = 256\n");
  REQUIRE(copy.sites.size() == 4);
  CHECK(copy.sites[3].kind == SiteMatch::Kind::kProblem);
  CHECK_FALSE(copy.sites[3].counted);
  CHECK(copy.sites[3].message.find(" expects 1 site in tier 1 of 2") == 0);
  FoundSites loose = TierSites("def f(numel):\n    if numel < 64:\n        config['M'] = 32\n");
  REQUIRE(loose.sites.size() == 1);
  CHECK(loose.sites[0].kind == SiteMatch::Kind::kProblem);
  CHECK(loose.sites[0].counted);
}

}  // namespace muh

namespace muh {

TEST_CASE(
    "tiers: the key goes with a pattern that replaces, and is checked by the pattern's kind") {
  auto errors = [](const std::string& rule) {
    RuleSet set;
    std::vector<Diagnostic> errs;
    LoadRules("r.yaml", "version: 1\nrules:\n  - id: t\n    files: a.py\n" + rule, {}, &set, &errs);
    std::string out;
    for (const Diagnostic& d : errs) out += d.Format() + "\n";
    return out;
  };
  CHECK(errors("    query: '((identifier) @v)'\n    replace: v\n    with: \"4\"\n"
               "    tiers: {variable: numel}\n") ==
        "r.yaml:8:5: error: 'tiers' only goes with 'pattern'\n");
  CHECK(errors("    pattern: config['M'] = $value\n    replace: value\n    with: \"4\"\n"
               "    upstream: \"3\"\n    tiers: {variable: numel}\n") ==
        "r.yaml:9:5: error: 'tiers' goes with a 'pattern' (the statement in each tier), "
        "'replace' and 'with'; upstream values go in 'tiers: upstream:'\n");
}

TEST_CASE("tiers: a tier's value chained with another name is no site") {
  FoundSites found = TierSites(
      "def f(numel):\n    config = {}\n    if numel <= 64:\n        config['M'] = W = 32\n"
      "    elif numel <= 4096:\n        config['M'] = 64\n    else:\n        config['M'] = 256\n");
  REQUIRE(found.sites.size() == 3);
  CHECK(found.sites[0].kind == SiteMatch::Kind::kProblem);
  CHECK(found.sites[0].message ==
        ": the tier's value `W = 32` assigns W as well (a chained assignment): rewriting it would "
        "change or drop that; write each on its own line");
  CHECK(found.sites[1].kind == SiteMatch::Kind::kSite);
}

}  // namespace muh
