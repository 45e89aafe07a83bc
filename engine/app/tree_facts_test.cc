#include "engine/app/tree_facts.h"

#include <doctest/doctest.h>

#include <memory>

#include "engine/model/model_values.h"
#include "engine/rules/rule_loader.h"

namespace muh {

namespace {

// The facts a.py states through one rule writing `with`, pinned by `extra`.
std::vector<TreeFact> Read(const std::string& with, const std::string& content,
                           const std::string& extra = "",
                           std::vector<Diagnostic>* notes = nullptr) {
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
  return ReadTreeFacts(rules, files, {"a.py"}, notes);
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

TEST_CASE("no fact from a return value the function's callers may not get, and a note why") {
  // A helper probe of 1c9f191: the name bound again after the def, and a
  // decorator that caps the value; CPython's callers got neither 48 KiB.
  std::vector<Diagnostic> notes;
  CHECK(Read("{{smem_limit_kib}} * 1024",
             "def limit(d):\n    return 48 * 1024\n\n\ndef optin(d):\n    return ask(d)\n\n\n"
             "limit = optin\n",
             "", &notes)
            .empty());
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].Format() ==
        "a.py:9:1: note: smem_per_block is not read from line 2 (`return 48 * 1024`): it is a "
        "function's return value, and the module may bind limit again here, after its def: its "
        "callers may get another function; the model keeps its own value");
  notes.clear();
  CHECK(Read("{{smem_limit_kib}} * 1024", "@cap\ndef limit(d):\n    return 48 * 1024\n", "", &notes)
            .empty());
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].line == 1);
  // functools.lru_cache returns what the function returned.
  notes.clear();
  CHECK(Read("{{smem_limit_kib}} * 1024",
             "@functools.lru_cache\ndef limit(d):\n    return 48 * 1024\n", "", &notes)
            .size() == 1);
  CHECK(notes.empty());
}

}  // namespace muh
