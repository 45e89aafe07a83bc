// Every code pattern of rules/bi100.yaml and of muhpatch-rules(5) finds the
// sites, with the captures (names and byte ranges), that it found when
// patterns compiled to query text run by the query layer, on every Python
// file of fixtures/ and of the real tree. fixtures/pattern_sites/ holds
// those sites, written by the differential test that ran both compilations
// before the text path was removed (pattern_diff_test.cc at dbc021b): one
// line per match, "RULE<TAB>PATH<TAB>CAPTURE@BEGIN-END ...", captures sorted.
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <string>
#include <vector>

#include "engine/pattern/code_pattern.h"
#include "engine/rules/pattern_query.h"
#include "engine/rules/tier_rule.h"
#include "tests/fixture_testing.h"

namespace muh {

namespace {

struct PatternCase {
  std::string id;
  std::vector<std::string> alternatives;
  CodePattern p;
  std::string tier_variable;
  std::string target;
};

// The code patterns of rules/bi100.yaml, as its rules write them.
std::vector<PatternCase> Bi100Patterns() {
  std::vector<PatternCase> out;
  YAML::Node root = YAML::LoadFile(std::string(MUHPATCH_SOURCE_DIR) + "/rules/bi100.yaml");
  for (const YAML::Node& r : root["rules"]) {
    if (!r["pattern"]) continue;
    PatternCase c;
    c.id = r["id"].as<std::string>();
    if (r["pattern"].IsSequence()) {
      for (const YAML::Node& a : r["pattern"]) c.alternatives.push_back(a.as<std::string>());
    } else {
      c.alternatives.push_back(r["pattern"].as<std::string>());
    }
    if (r["inside"]) c.p.inside = r["inside"].as<std::string>();
    if (r["tiers"]) c.tier_variable = r["tiers"]["variable"].as<std::string>();
    if (r["replace"]) c.target = r["replace"].as<std::string>();
    REQUIRE_MESSAGE(!r["where"], "bi100 has no where: yet; read it here when it does");
    out.push_back(std::move(c));
  }
  return out;
}

// The code patterns of dist/muhpatch-rules.5's examples (the page's rule
// examples below check that none is missing; v1-context is the page's prose).
std::vector<PatternCase> ManPagePatterns() {
  const std::string prefix_inside = "def context_attention_fwd($$$):\n    $$$\n";
  const std::string smem_inside =
      "def get_max_shared_memory_per_block_device_attribute($$$):\n    $$$\n";
  std::vector<PatternCase> out;
  out.push_back({"prefix-prefill-block",
                 {"BLOCK = $_ if current_platform.has_device_capability(80) else $value",
                  "if current_platform.has_device_capability(80):\n    $$$\nelse:\n    BLOCK = "
                  "$value\n"},
                 {"", prefix_inside, {}},
                 "",
                 "value"});
  out.push_back({"custom-ops-smem-limit", {"return $value"}, {"", smem_inside, {}}, "", "value"});
  out.push_back({"v1-context", {"max_seq_len <= $value"}, {"", "use_v1 = $$$", {}}, "", "value"});
  CodePattern group{"", "def get_default_config($$$):\n    $$$\n", {}};
  group.where.push_back({"value", WhereConstraint::Kind::kRange, {}, 1, 64});
  out.push_back(
      {"fused-moe-group-size-m", {"config = {'GROUP_SIZE_M': $value}"}, group, "", "value"});
  out.push_back(
      {"fused-moe-tiers", {"config['BLOCK_SIZE_M'] = $value"}, {"", "", {}}, "numel", "value"});
  out.push_back({"graph-capture-batches",
                 {"range(1, $value)"},
                 {"", "_BATCH_SIZES_TO_CAPTURE = $$$", {}},
                 "",
                 "value"});
  return out;
}

// The sites of `cases` in `files`, as fixtures/pattern_sites/ lists them.
std::string SitesOf(const std::vector<PatternCase>& cases,
                    const std::vector<std::filesystem::path>& files,
                    const std::filesystem::path& base) {
  PythonParser parser;
  std::string out;
  for (const PatternCase& c : cases) {
    CompiledPattern nodes;
    CodePatternError e;
    std::size_t failing = 0;
    INFO(c.id);
    REQUIRE_MESSAGE(CompileCodePatterns(c.alternatives, c.p, &nodes, &e, &failing, c.target),
                    e.message);
    if (!c.tier_variable.empty()) {
      for (PatternTree& t : nodes.trees) t = TierPattern(c.tier_variable, t);
    }
    PatternQuery pq(nodes.trees);
    for (const std::filesystem::path& f : files) {
      std::string bytes = testing::Slurp(f);
      SyntaxTree tree = parser.Parse(bytes);
      for (const QueryMatch& m : pq.Run(tree)) {
        std::vector<std::string> caps;
        for (const Capture& cap : m.captures)
          caps.push_back(fmt::format("{}@{}-{}", cap.name, cap.begin, cap.end));
        std::sort(caps.begin(), caps.end());
        out += c.id + "\t" + std::filesystem::relative(f, base).string() + "\t";
        for (const std::string& cap : caps) out += cap + " ";
        out += "\n";
      }
    }
  }
  return out;
}

std::vector<PatternCase> AllCases() {
  std::vector<PatternCase> cases = Bi100Patterns();
  std::vector<PatternCase> man = ManPagePatterns();
  cases.insert(cases.end(), man.begin(), man.end());
  return cases;
}

// The rules of the man page's examples (.EX ... .EE) that have a
// `pattern:`, as (alternatives, inside).
std::vector<std::pair<std::vector<std::string>, std::string>> ManPageExamplePatterns() {
  std::string page =
      testing::Slurp(std::filesystem::path(MUHPATCH_SOURCE_DIR) / "dist/muhpatch-rules.5");
  auto unescape = [](std::string t) {
    for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
             {"\\-", "-"}, {"\\(aq", "'"}, {"\\(dq", "\""}, {"\\(ga", "`"}, {"\\e", "\\"}}) {
      for (std::size_t at = 0; (at = t.find(from, at)) != std::string::npos; at += to.size())
        t.replace(at, from.size(), to);
    }
    return t;
  };
  std::vector<std::pair<std::vector<std::string>, std::string>> out;
  for (std::size_t at = 0; (at = page.find("\n.EX\n", at)) != std::string::npos;) {
    std::size_t end = page.find("\n.EE", at);
    std::string block = unescape(page.substr(at + 5, end - at - 5));
    at = end;
    YAML::Node doc;
    try {
      doc = YAML::Load(block);
    } catch (const YAML::Exception&) {
      continue;  // not a rule file's text
    }
    YAML::Node rules = doc.IsMap() && doc["rules"] ? doc["rules"] : doc;
    if (!rules.IsSequence()) continue;
    for (const YAML::Node& r : rules) {
      if (!r.IsMap() || !r["pattern"]) continue;
      std::vector<std::string> alternatives;
      if (r["pattern"].IsSequence()) {
        for (const YAML::Node& a : r["pattern"]) alternatives.push_back(a.as<std::string>());
      } else {
        alternatives.push_back(r["pattern"].as<std::string>());
      }
      out.emplace_back(alternatives, r["inside"] ? r["inside"].as<std::string>() : "");
    }
  }
  return out;
}

std::string Expected(const std::string& name) {
  return testing::Slurp(std::filesystem::path(MUHPATCH_SOURCE_DIR) / "fixtures/pattern_sites" /
                        name);
}

std::vector<std::filesystem::path> PythonUnder(const std::filesystem::path& root) {
  std::vector<std::filesystem::path> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(root)) {
    if (e.is_regular_file() && e.path().extension() == ".py") out.push_back(e.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("every pattern of the man page's rule examples is one this test checks") {
  std::vector<PatternCase> man = ManPagePatterns();
  std::vector<std::pair<std::vector<std::string>, std::string>> examples = ManPageExamplePatterns();
  CHECK(examples.size() >= 5);
  for (const auto& example : examples) {
    INFO(example.first.front());
    CHECK(std::any_of(man.begin(), man.end(), [&](const PatternCase& c) {
      return c.alternatives == example.first && c.p.inside == example.second;
    }));
  }
}

TEST_CASE("bi100's and the man page's patterns find the sites they found as query text") {
  std::vector<PatternCase> cases = AllCases();
  CHECK(cases.size() >= 9);
  CHECK(SitesOf(cases, testing::FixturePython(),
                std::filesystem::path(MUHPATCH_SOURCE_DIR) / "fixtures") ==
        Expected("fixtures.tsv"));
}

TEST_CASE("bi100's and the man page's patterns on the real tree" * doctest::test_suite("slow")) {
  std::optional<std::filesystem::path> root = testing::RealTreeOrSkip();
  if (!root) return;
  CHECK(SitesOf(AllCases(), PythonUnder(*root / "vllm"), *root) == Expected("real_tree.tsv"));
}

}  // namespace muh
