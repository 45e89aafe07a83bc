#include "engine/plan/multiplied_sites.h"

#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

namespace muh {

namespace {

// A two-file tree whose entry calls `launch` in app/kern.py, and a plan
// with one site per (rule, text) pair, each found by searching kern.py.
struct Tree {
  std::map<std::string, std::string> bytes;
  std::map<std::string, SourceText> files;
  std::unique_ptr<LivenessAnalysis> analysis;
  PlanResult plan;

  explicit Tree(const std::string& kern) {
    bytes["app/main.py"] = "from app.kern import launch\nlaunch()\n";
    bytes["app/kern.py"] = kern;
    for (const auto& [p, b] : bytes) files.emplace(p, SourceText(p, b));
    LivenessFacts facts;
    facts.entry_module = "app.main";
    ReadFn read = [this](const std::string& p) -> std::optional<std::string_view> {
      auto it = bytes.find(p);
      if (it == bytes.end()) return std::nullopt;
      return std::string_view(it->second);
    };
    analysis = std::make_unique<LivenessAnalysis>(
        LivenessAnalysis::Run({"app/kern.py", "app/main.py"}, read, facts));
  }

  // A site of `rule` at the `nth` occurrence of `text` in kern.py, with an
  // edit writing `wanted` there when it differs.
  void AddSite(const std::string& rule, const std::string& text, int nth, const std::string& wanted,
               RuleStatus status = RuleStatus::kRewrites) {
    const SourceText& file = files.at("app/kern.py");
    std::size_t at = file.bytes().find(text);
    for (int i = 1; i < nth; ++i) at = file.bytes().find(text, at + 1);
    REQUIRE(at != std::string::npos);
    RuleOutcome* o = nullptr;
    for (RuleOutcome& have : plan.outcomes) {
      if (have.rule_id == rule) o = &have;
    }
    if (o == nullptr) {
      plan.outcomes.push_back(RuleOutcome{});
      o = &plan.outcomes.back();
      o->rule_id = rule;
      o->status = status;
    }
    Site s;
    s.path = "app/kern.py";
    s.begin = at;
    s.end = at + text.size();
    s.line = file.PositionOf(at).line;
    s.current = text;
    s.wanted = wanted;
    o->found.push_back(s);
    if (wanted != text && status == RuleStatus::kRewrites) {
      plan.edits["app/kern.py"].push_back(Edit{"app/kern.py", at, text.size(), wanted, rule, ""});
      ++o->edits;
      plan.new_contents["app/kern.py"] = ApplyEdits(file.bytes(), plan.edits["app/kern.py"]);
    }
  }
};

}  // namespace

TEST_CASE("a knob written again by a statement no rule matches fails its rule") {
  Tree t(
      "def launch():\n"
      "    BLOCK = 64\n"
      "    NUM_WARPS = 8\n"
      "    NUM_WARPS = 8\n"
      "    run(BLOCK, NUM_WARPS)\n");
  t.AddSite("num-warps", "8", 1, "4");
  REQUIRE(t.analysis->At("app/kern.py", t.plan.outcomes[0].found[0].begin).state ==
          Liveness::kDead);
  CHECK(FailMultipliedSites(*t.analysis, t.files, &t.plan) == std::set<std::string>{"num-warps"});
  CHECK(t.plan.outcomes[0].status == RuleStatus::kFailed);
  REQUIRE(t.plan.diagnostics.size() == 1);
  CHECK(t.plan.diagnostics[0].Format() ==
        "app/kern.py:4:5: error: rule 'num-warps': its knob is written again at line 4, which no "
        "rule's query matches, and that write overwrites the rule's site at line 3 before "
        "anything reads it: the site multiplied (make the query match the write that runs, or "
        "remove the other)");
}

TEST_CASE("a knob overwritten by another rule's site is no multiplied site") {
  // The tiers' writes overwrite the default dict's key: each is a site.
  Tree t(
      "def launch(m):\n"
      "    config = {'M': 64, 'N': 32}\n"
      "    if m < 8:\n"
      "        config['M'] = 16\n"
      "    else:\n"
      "        config['M'] = 128\n"
      "    run(config)\n");
  t.AddSite("default-m", "64", 1, "32");
  t.AddSite("tier-small", "16", 1, "32");
  t.AddSite("tier-large", "128", 1, "64");
  REQUIRE(t.analysis->At("app/kern.py", t.plan.outcomes[0].found[0].begin).state ==
          Liveness::kDead);
  CHECK(FailMultipliedSites(*t.analysis, t.files, &t.plan).empty());
  CHECK(t.plan.diagnostics.empty());
  CHECK(t.plan.edits.at("app/kern.py").size() == 3);
}

TEST_CASE("the dict's key written again by hand fails that rule, not the other") {
  Tree t(
      "def launch(m):\n"
      "    config = {'M': 64, 'N': 32}\n"
      "    config['M'] = 16\n"
      "    run(config)\n");
  t.AddSite("default-m", "64", 1, "32");
  t.AddSite("default-n", "32", 1, "64");
  CHECK(FailMultipliedSites(*t.analysis, t.files, &t.plan) == std::set<std::string>{"default-m"});
  CHECK(t.plan.outcomes[0].status == RuleStatus::kFailed);
  CHECK(t.plan.outcomes[1].status == RuleStatus::kRewrites);
  REQUIRE(t.plan.diagnostics.size() == 1);
  CHECK(t.plan.diagnostics[0].line == 3);
}

TEST_CASE("a rule its precondition skipped manages nothing: its overwritten site is no finding") {
  Tree t(
      "def launch():\n"
      "    NUM_WARPS = 8\n"
      "    NUM_WARPS = 4\n"
      "    run(NUM_WARPS)\n");
  t.AddSite("num-warps", "8", 1, "", RuleStatus::kSkipped);
  CHECK(FailMultipliedSites(*t.analysis, t.files, &t.plan).empty());
  CHECK(t.plan.outcomes[0].status == RuleStatus::kSkipped);
  CHECK(t.plan.diagnostics.empty());
}

TEST_CASE("in a file where a rule failed, the writes no site holds may be that rule's") {
  Tree t(
      "def launch():\n"
      "    NUM_WARPS = 8\n"
      "    NUM_WARPS = 4\n"
      "    run(NUM_WARPS)\n");
  t.AddSite("num-warps", "8", 1, "2");
  t.plan.diagnostics.push_back(MakeError("app/kern.py", 3, 5, "rule 'other' expects 1 match"));
  CHECK(FailMultipliedSites(*t.analysis, t.files, &t.plan).empty());
  CHECK(t.plan.outcomes[0].status == RuleStatus::kRewrites);
}

TEST_CASE("a site that runs, or another variable written after it, is no finding") {
  Tree t(
      "def launch():\n"
      "    NUM_WARPS = 8\n"
      "    run(NUM_WARPS)\n"
      "    NUM_WARPS_2 = 8\n"
      "    NUM_WARPS = 4\n"
      "    run(NUM_WARPS, NUM_WARPS_2)\n");
  t.AddSite("num-warps", "8", 1, "4");
  CHECK(FailMultipliedSites(*t.analysis, t.files, &t.plan).empty());
  CHECK(t.plan.outcomes[0].status == RuleStatus::kRewrites);
}

TEST_CASE("a write after the site that may run, before any read, fails the rule") {
  // A helper probe of e2916b3: the tiers rewritten while a `try:` after them
  // set the key on every path; CPython's kernel never got the rule's value.
  Tree t(
      "def launch(m):\n"
      "    config = {}\n"
      "    if m <= 64:\n"
      "        config['M'] = 32\n"
      "    else:\n"
      "        config['M'] = 128\n"
      "    config['N'] = 8\n"
      "    try:\n"
      "        config['M'] = 64\n"
      "    except Exception:\n"
      "        pass\n"
      "    run(config)\n");
  t.AddSite("tier-small", "32", 1, "16");
  CHECK(FailMultipliedSites(*t.analysis, t.files, &t.plan) == std::set<std::string>{"tier-small"});
  REQUIRE(t.plan.diagnostics.size() == 1);
  CHECK(t.plan.diagnostics[0].line == 9);
  CHECK(t.plan.diagnostics[0].message.find("line 9 writes the knob again after the rule's site "
                                           "at line 4, and may run") != std::string::npos);
}

TEST_CASE("a later clause of the site's own chain, or a read before the write, is no finding") {
  Tree chain(
      "def launch(m):\n"
      "    config = {}\n"
      "    if m <= 64:\n"
      "        config['M'] = 32\n"
      "    elif m <= 128:\n"
      "        config['M'] = 64\n"
      "    else:\n"
      "        config['M'] = 128\n"
      "    run(config)\n");
  chain.AddSite("tier-small", "32", 1, "16");
  CHECK(FailMultipliedSites(*chain.analysis, chain.files, &chain.plan).empty());
  Tree read(
      "def launch():\n"
      "    BLOCK = 64\n"
      "    if big:\n"
      "        run(BLOCK)\n"
      "    BLOCK = 16\n"
      "    run(BLOCK)\n");
  read.AddSite("block", "64", 1, "32");
  CHECK(FailMultipliedSites(*read.analysis, read.files, &read.plan).empty());
}

TEST_CASE("a return in a finally after the site fails the rule: it replaces the result") {
  Tree t(
      "def get(m):\n"
      "    config = {'M': 64}\n"
      "    try:\n"
      "        return config\n"
      "    finally:\n"
      "        return {'M': 8}\n");
  t.AddSite("default-m", "64", 1, "32");
  CHECK(FailMultipliedSites(*t.analysis, t.files, &t.plan) == std::set<std::string>{"default-m"});
  REQUIRE(t.plan.diagnostics.size() == 1);
  CHECK(t.plan.diagnostics[0].line == 6);
}

TEST_CASE("a function's return value: async, a generator, decorated or rebound is refused") {
  auto problem = [](const std::string& src) {
    std::optional<StatementTable> lines = StatementTable::Build(src);
    REQUIRE(lines.has_value());
    Site site;
    site.begin = src.find("32 * 1024");
    auto p = ReturnedValueProblem(*lines, site);
    return p ? p->second.substr(0, 40) : std::string("none");
  };
  CHECK(problem("def smem(d):\n    return 32 * 1024\n") == "none");
  CHECK(problem("import functools\n@functools.lru_cache(None)\ndef smem(d):\n"
                "    return 32 * 1024\n") == "none");
  CHECK(problem("async def smem(d):\n    return 32 * 1024\n") ==
        "the function is `async`: its callers get");
  CHECK(problem("def smem(d):\n    yield 0\n    return 32 * 1024\n") ==
        "the function yields: its callers get a g");
  CHECK(problem("@halve\ndef smem(d):\n    return 32 * 1024\n") ==
        "a decorator wraps the function (`@halve`");
  CHECK(problem("def smem(d):\n    return 32 * 1024\nsmem = other\n") ==
        "the module may bind smem again here, aft");
  CHECK(problem("def smem(d):\n    return 32 * 1024\nfrom m import *\n") ==
        "the module may bind smem again here, aft");
  CHECK(problem("def smem(d):\n    return 32 * 1024\ndef g():\n    global smem\n") ==
        "`global smem` lets a function bind it ag");
  // A call of it, `__all__`, a docstring saying "yield", staticmethod: no
  // problem (a review of 1f23222).
  CHECK(problem("def smem(d):\n    return 32 * 1024\nSMEM = smem(0)\n__all__ = ['smem']\n") ==
        "none");
  CHECK(problem("def smem(d):\n    \"\"\"Do not yield.\"\"\"\n    return 32 * 1024\n") == "none");
  CHECK(problem("class K:\n    @staticmethod\n    def smem(d):\n        return 32 * 1024\n") ==
        "none");
  // A global declared before the def counts too.
  CHECK(problem("def g():\n    global smem\ndef smem(d):\n    return 32 * 1024\n") ==
        "`global smem` lets a function bind it ag");
  // A nested def's yield is its own.
  CHECK(problem("def smem(d):\n    def g():\n        yield 1\n    return 32 * 1024\n") == "none");
  // A fallback def in `except ImportError:` (or under an `if`) at the
  // module's level: the import may be what callers get.
  CHECK(problem("try:\n    from ix import smem\nexcept ImportError:\n    def smem(d):\n"
                "        return 32 * 1024\n") == "the def stands in a block (`except Impor");
  CHECK(problem("if FAST:\n    def smem(d):\n        return 32 * 1024\n") ==
        "the def stands in a block (`if FAST:`) t");
  CHECK(problem("if FAST:\n    class K:\n        def smem(d):\n            return 32 * 1024\n") ==
        "none");
}

TEST_CASE("a line of several statements after the site that mentions the knob may write it") {
  // A review of 1f23222: `if M > 64: num_warps = 2` was read as a read.
  Tree t(
      "def cfg(M):\n"
      "    num_warps = 4\n"
      "    if M > 64: num_warps = 2\n"
      "    run(num_warps)\n");
  t.AddSite("warps", "4", 1, "8");
  CHECK(FailMultipliedSites(*t.analysis, t.files, &t.plan) == std::set<std::string>{"warps"});
}

}  // namespace muh
