#include "engine/search/tree_search.h"

#include <doctest/doctest.h>

#include <map>

#include "engine/rules/finder_query.h"
#include "engine/rules/rule_loader.h"
#include "engine/search/word_filter_cache.h"

namespace muh {

namespace {

RuleSet OneRule(const std::string& query) {
  RuleSet rules;
  rules.path = "rules.yaml";
  Rule r;
  r.id = "knob";
  r.files = {"vllm/_custom_ops.py"};
  QueryError err;
  std::shared_ptr<const Query> compiled = Query::Compile(query, &err);
  REQUIRE_MESSAGE(compiled.get() != nullptr, err.message);
  r.finder = std::make_shared<QueryFinder>(compiled, "value");
  rules.rules.push_back(r);
  return rules;
}

const char* kKnob =
    "(assignment left: (identifier) @n right: (_) @value (#eq? @n \"_PARTITION_SIZE\"))";

}  // namespace

TEST_CASE("a file the search cannot read comes back as a located error, never skipped") {
  RuleSet rules = OneRule(kKnob);
  std::map<std::string, std::string> tree = {
      {"vllm/_custom_ops.py", "_PARTITION_SIZE = 512\n"},
      {"vllm/copy.py", "_PARTITION_SIZE = 512\n"},
      {"vllm/other.py", "x = 1\n"},
  };
  SearchReadFn read = [&](const std::string& path, Diagnostic* err,
                          std::string*) -> std::optional<std::string_view> {
    if (path == "vllm/secret.py") {
      *err = MakeError(path, 0, 0, "cannot open (Permission denied)");
      return std::nullopt;
    }
    return std::string_view(tree.at(path));
  };
  SearchResult r = SearchOutsideScope(
      rules, {"vllm/_custom_ops.py", "vllm/copy.py", "vllm/other.py", "vllm/secret.py"}, read, 2);
  REQUIRE(r.matches.size() == 1);
  CHECK(r.matches[0].path == "vllm/copy.py");
  REQUIRE(r.unreadable.size() == 1);
  CHECK(r.unreadable[0].Format() == "vllm/secret.py: error: cannot open (Permission denied)");
  CHECK(r.over_budget.empty());
  CHECK(r.stats.read == 2);  // the rule's own file is never read
}

TEST_CASE("with word filters, a name's literal must be a whole word of the file") {
  RuleSet rules = OneRule(kKnob);
  std::map<std::string, std::string> tree = {
      {"vllm/copy.py", "x = 1\n_PARTITION_SIZE = 512\n"},
      {"vllm/longer.py", "_PARTITION_SIZE_V2 = 512\n"},
      {"vllm/text.py", "s = '_PARTITION_SIZE'\n"},
  };
  SearchReadFn read = [&](const std::string& path, Diagnostic*,
                          std::string*) -> std::optional<std::string_view> {
    return std::string_view(tree.at(path));
  };
  const std::vector<std::string> paths = {"vllm/copy.py", "vllm/longer.py", "vllm/text.py"};
  WordFilterCache cache(paths);
  int asked = 0;
  WordFilterFn words = [&](const std::string& path, std::string_view text) {
    ++asked;
    return cache.For(path, text);
  };
  SearchResult plain = SearchOutsideScope(rules, paths, read, 1);
  SearchResult filtered = SearchOutsideScope(rules, paths, read, 1, {}, words);
  CHECK(asked == 3);  // once per file
  // The same matches. Without the filter the longer name passes the
  // prefilter (memmem finds its prefix); with it, only whole words do, and
  // the string is one (the filter knows words, not where they are).
  REQUIRE(filtered.matches.size() == 1);
  CHECK(filtered.matches[0].path == "vllm/copy.py");
  CHECK(filtered.matches[0].line == plain.matches[0].line);
  CHECK(plain.stats.parsed == 3);
  CHECK(filtered.stats.parsed == 2);
}

TEST_CASE("a query over the matcher's budget on a file is a located error") {
  RuleSet rules = OneRule("(module (_) (_) (_) (_) (_) (expression_statement) @value)");
  std::string big;
  for (int i = 0; i < 300; ++i) big += "f(" + std::to_string(i) + ")\n";
  SearchReadFn read = [&](const std::string&, Diagnostic*,
                          std::string*) -> std::optional<std::string_view> {
    return std::string_view(big);
  };
  SearchResult r = SearchOutsideScope(rules, {"vllm/big.py"}, read, 1);
  CHECK(r.matches.empty());
  REQUIRE(r.over_budget.size() == 1);
  CHECK(r.over_budget[0].file == "vllm/big.py");
  CHECK(r.over_budget[0].message.find("rule 'knob': query `(module (_)") == 0);
}

TEST_CASE("ScopeOfSearch leaves out what .gitignore ignores and `exclude` names") {
  GitIgnore ignore;
  ignore.AddFile("", "build/\n*_pb2.py\n");
  ignore.AddFile("vllm", "!keep_pb2.py\n");
  SearchScope s =
      ScopeOfSearch({"build/lib/vllm/_custom_ops.py", "build/lib/vllm/x.py", "tests/a.py",
                     "tests/b/c.py", "vllm/a.py", "vllm/a_pb2.py", "vllm/keep_pb2.py", "x_pb2.py"},
                    ignore, {"tests"});
  CHECK(s.paths == std::vector<std::string>{"vllm/a.py", "vllm/keep_pb2.py"});
  CHECK(s.ignored == std::vector<std::string>{"build", "vllm/a_pb2.py", "x_pb2.py"});
  CHECK(s.excluded == std::vector<std::string>{"tests"});
  SearchScope g = ScopeOfSearch({"a/gen/x.py", "b/y.py"}, GitIgnore(), {"**/gen/**"});
  CHECK(g.paths == std::vector<std::string>{"b/y.py"});
  CHECK(g.excluded == std::vector<std::string>{"a/gen/x.py"});
}

TEST_CASE("ScopeOfSearch searches a file git tracks whatever .gitignore says") {
  GitIgnore ignore;
  ignore.AddFile("", "lib/\n");
  const std::vector<std::string> listed = {"vllm/fused_moe/lib/copy.py",
                                           "vllm/fused_moe/lib/untracked.py", "vllm/lib/x.py",
                                           "vllm/moe.py"};
  const std::vector<std::string> tracked = {"vllm/fused_moe/lib/copy.py", "vllm/lib/x.py",
                                            "vllm/moe.py"};
  SearchScope s = ScopeOfSearch(listed, ignore, {"vllm/lib"}, &tracked);
  CHECK(s.paths == std::vector<std::string>{"vllm/fused_moe/lib/copy.py", "vllm/moe.py"});
  CHECK(s.tracked_ignored == std::vector<std::string>{"vllm/fused_moe/lib/copy.py"});
  CHECK(s.ignored == std::vector<std::string>{"vllm/fused_moe/lib"});
  CHECK(s.excluded == std::vector<std::string>{"vllm/lib"});
  // Without git, .gitignore decides.
  SearchScope without = ScopeOfSearch(listed, ignore, {});
  CHECK(without.paths == std::vector<std::string>{"vllm/moe.py"});
  CHECK(without.tracked_ignored.empty());
}

TEST_CASE("the search finds what the planner would: a value-of rule's values, not its candidates") {
  RuleSet rules;
  std::vector<Diagnostic> errs;
  REQUIRE(LoadRules("r.yaml",
                    "version: 1\nrules:\n  - id: warps\n    files: vllm/a.py\n    value-of:\n"
                    "      name: NUM_WARPS\n      in: f\n      when-false: cap(80)\n"
                    "    with: \"4\"\n",
                    {}, &rules, &errs));
  std::map<std::string, std::string> tree = {
      // A copy of the knob: the value on the rule's path is a site.
      {"vllm/copy.py",
       "def f():\n    if cap(80):\n        NUM_WARPS = 8\n    else:\n        NUM_WARPS = 2\n"
       "    go(NUM_WARPS)\n"},
      // NUM_WARPS assigned in f, but no path where cap(80) is false: no site.
      {"vllm/other.py", "def f():\n    NUM_WARPS = 8\n    go(NUM_WARPS)\n"},
  };
  SearchReadFn read = [&](const std::string& path, Diagnostic*,
                          std::string*) -> std::optional<std::string_view> {
    return std::string_view(tree.at(path));
  };
  SearchResult r = SearchOutsideScope(rules, {"vllm/copy.py", "vllm/other.py"}, read, 1);
  REQUIRE(r.matches.size() == 1);
  CHECK(r.matches[0].path == "vllm/copy.py");
  CHECK(r.matches[0].line == 5);
  CHECK(r.matches[0].column == 21);
  CHECK(r.stats.parsed == 2);  // both hold the query's literals
}

}  // namespace muh
