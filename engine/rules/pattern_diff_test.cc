// Differential: every code pattern of rules/bi100.yaml and of
// muhpatch-rules(5) compiled to nodes (pattern_query.h) finds the same
// matches, with the same captures, as the query text it compiled to before
// (code_pattern_text.h) run by the query layer, on every Python file of
// fixtures/ and of the real tree.
#include <doctest/doctest.h>
#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "engine/pattern/code_pattern.h"
#include "engine/pattern/code_pattern_text.h"
#include "engine/query/query.h"
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

// The code patterns of dist/muhpatch-rules.5's examples.
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

std::string Show(const std::vector<QueryMatch>& matches) {
  std::string s;
  for (const QueryMatch& m : matches) {
    std::vector<std::string> caps;
    for (const Capture& c : m.captures)
      caps.push_back(fmt::format("{}@{}-{}", c.name, c.begin, c.end));
    std::sort(caps.begin(), caps.end());
    for (const std::string& c : caps) s += c + " ";
    s += "\n";
  }
  return s;
}

// Compares, and appends the query text's sites to `*sites` ("ID\tPATH\tCAPTURES"
// lines, PATH relative to `base`), the expectations pattern_sites_test keeps.
void Compare(const std::vector<PatternCase>& cases, const std::vector<std::filesystem::path>& files,
             const std::filesystem::path& base, std::string* sites, int* compared) {
  PythonParser parser;
  for (const PatternCase& c : cases) {
    CompiledPattern nodes;
    TextCompiled text;
    CodePatternError e;
    std::size_t failing = 0;
    REQUIRE_MESSAGE(CompileCodePatterns(c.alternatives, c.p, &nodes, &e, &failing, c.target),
                    e.message);
    REQUIRE_MESSAGE(CompileCodePatternsToText(c.alternatives, c.p, &text, &e, &failing, c.target),
                    e.message);
    std::string query = text.query;
    if (!c.tier_variable.empty()) {
      query = TierQueryText(c.tier_variable, query);
      for (PatternTree& t : nodes.trees) t = TierPattern(c.tier_variable, t);
    }
    QueryError qe;
    std::unique_ptr<Query> q = Query::Compile(query, &qe);
    REQUIRE_MESSAGE(q != nullptr, qe.message);
    PatternQuery pq(nodes.trees);
    INFO(c.id);
    CHECK(pq.capture_names() == q->capture_names());
    CHECK(nodes.knob == text.knob);
    CHECK(nodes.shape == text.shape);
    CHECK(nodes.metavariables == text.metavariables);
    std::vector<Query::LiteralGroup> a = pq.RequiredLiteralGroups();
    std::vector<Query::LiteralGroup> b = q->RequiredLiteralGroups();
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      CHECK(a[i].texts == b[i].texts);
      CHECK(a[i].identifier == b[i].identifier);
    }
    for (const std::filesystem::path& f : files) {
      std::string bytes = testing::Slurp(f);
      SyntaxTree tree = parser.Parse(bytes);
      std::vector<QueryMatch> ours = pq.Run(tree);
      std::vector<QueryMatch> theirs = q->Run(tree);
      INFO(f.string());
      CHECK(Show(ours) == Show(theirs));
      std::string shown = Show(theirs);
      for (std::size_t at = 0, end; (end = shown.find('\n', at)) != std::string::npos;
           at = end + 1) {
        *sites += c.id + "\t" + std::filesystem::relative(f, base).string() + "\t" +
                  shown.substr(at, end - at) + "\n";
      }
      if (ours.empty()) {
        std::optional<NoMatchReason> x = pq.ExplainNoMatch(tree);
        std::optional<NoMatchReason> y = q->ExplainNoMatch(tree);
        REQUIRE(x.has_value() == y.has_value());
        if (x) {
          CHECK(x->matching_at == y->matching_at);
          CHECK_MESSAGE(x->matching_part.empty() == y->matching_part.empty(),
                        x->failing_part << " / " << x->matching_part << " vs " << y->failing_part
                                        << " / " << y->matching_part);
        }
      }
      ++*compared;
    }
  }
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

TEST_CASE("bi100's and the man page's patterns: nodes find what their query text found") {
  int compared = 0;
  std::vector<PatternCase> cases = Bi100Patterns();
  CHECK(cases.size() >= 3);
  std::vector<PatternCase> man = ManPagePatterns();
  cases.insert(cases.end(), man.begin(), man.end());
  std::string sites;
  Compare(cases, testing::FixturePython(), std::filesystem::path(MUHPATCH_SOURCE_DIR) / "fixtures",
          &sites, &compared);
  CHECK(compared > 0);
  if (const char* out = std::getenv("MUHPATCH_WRITE_PATTERN_SITES")) {
    std::ofstream(std::string(out) + "/fixtures.tsv") << sites;
  }
}

TEST_CASE("bi100's and the man page's patterns on the real tree" * doctest::test_suite("slow")) {
  std::optional<std::filesystem::path> root = testing::RealTreeOrSkip();
  if (!root) return;
  int compared = 0;
  std::vector<PatternCase> cases = Bi100Patterns();
  std::vector<PatternCase> man = ManPagePatterns();
  cases.insert(cases.end(), man.begin(), man.end());
  std::string sites;
  Compare(cases, PythonUnder(*root / "vllm"), *root, &sites, &compared);
  if (const char* out = std::getenv("MUHPATCH_WRITE_PATTERN_SITES")) {
    std::ofstream(std::string(out) + "/real_tree.tsv") << sites;
  }
  MESSAGE("compared " << compared << " (pattern, file) pairs");
}

}  // namespace muh
