#include "engine/app/tree_facts.h"

#include <doctest/doctest.h>

#include <memory>

#include "engine/model/model_values.h"
#include "engine/rules/rule_loader.h"

namespace muh {

namespace {

// The facts a.py states through one rule writing `with`, pinned by `extra`.
std::vector<TreeFact> Read(const std::string& with, const std::string& content,
                           const std::string& extra = "") {
  std::string text =
      "version: 1\nrules:\n  - id: smem\n    files: a.py\n    inside: |\n      def limit($$$):\n"
      "          $$$\n    pattern: return $value\n    replace: value\n    with: \"" +
      with + "\"\n    upstream: \"32 * 1024\"\n" + extra;
  auto model = std::make_shared<ModelValues>(Profile::BiV100(), Workload::Defaults(),
                                             std::vector<SearchSpace>{});
  RuleSet rules;
  std::vector<Diagnostic> errs;
  REQUIRE_MESSAGE(LoadRules("r.yaml", text, model, &rules, &errs),
                  (errs.empty() ? "" : errs[0].Format()));
  std::map<std::string, SourceText> files = {{"a.py", SourceText("a.py", content)}};
  return ReadTreeFacts(rules, files, {"a.py"});
}

}  // namespace

TEST_CASE("the tree states the fact its reporting function returns, at its line") {
  std::vector<TreeFact> f =
      Read("{{smem_limit_kib}} * 1024", "x = 1\ndef limit(d):\n    return 49152\n");
  REQUIRE(f.size() == 1);
  CHECK(f[0].fact == "smem_per_block");
  CHECK(f[0].value == 49152);
  CHECK(f[0].where == "a.py:3");
  CHECK(f[0].text == "return 49152");
  f = Read("{{smem_limit_bytes}}", "def limit(d):\n    return 48 * 1024\n");
  REQUIRE(f.size() == 1);
  CHECK(f[0].value == 49152);
}

TEST_CASE("a pin on the rule holds the tree's value") {
  std::vector<TreeFact> f =
      Read("{{smem_limit_kib}} * 1024", "def limit(d):\n    return 32 * 1024\n",
           "    pin: {value: \"40 * 1024\", reason: \"measured on lab-7\"}\n");
  REQUIRE(f.size() == 1);
  CHECK(f[0].value == 40960);
  CHECK(f[0].where == "r.yaml:12");
  CHECK(f[0].text == "pin: 40 * 1024 (measured on lab-7)");
}

TEST_CASE("no fact from a rule that writes anything else, nor from a value no constant") {
  CHECK(Read("{{smem_limit_kib}} * 1024 + {{num_stages_max}}", "def limit(d):\n    return 1\n")
            .empty());
  CHECK(Read("{{num_stages_max}}", "def limit(d):\n    return 2\n").empty());
  CHECK(Read("{{smem_limit_kib}} * 1024", "def limit(d):\n    return query(d)\n").empty());
  CHECK(Read("{{smem_limit_kib}} * 1024",
             "def limit(d):\n    if d:\n        return 1024\n    return 2048\n")
            .empty());
}

}  // namespace muh
