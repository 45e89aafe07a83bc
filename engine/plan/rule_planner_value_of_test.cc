#include <doctest/doctest.h>

#include "engine/plan/planner.h"
#include "engine/rules/rule_loader.h"

namespace muh {

namespace {

// Plans one `value-of` rule (NUM_WARPS in f where cap(80) is false, or as
// `when` says, to 4) on `source`: the new file, or the messages.
std::string PlanWarps(const std::string& source, const std::string& when = "when-false: cap(80)") {
  const std::string rules =
      "version: 1\nrules:\n  - id: warps\n    files: a.py\n    value-of:\n"
      "      name: NUM_WARPS\n      in: f\n      " +
      when + "\n    with: \"4\"\n";
  RuleSet set;
  std::vector<Diagnostic> errs;
  REQUIRE(LoadRules("r.yaml", rules, {}, &set, &errs));
  std::map<std::string, SourceText> files;
  files.emplace("a.py", SourceText("a.py", source));
  PlanResult r = Plan(set, files, {"a.py"});
  if (r.ok()) return r.new_contents.count("a.py") != 0 ? r.new_contents.at("a.py") : source;
  std::string out;
  for (const Diagnostic& d : r.diagnostics) out += d.Format() + "\n";
  return out;
}

}  // namespace

TEST_CASE(
    "value-of: each value on the path is a site, and a shared one changes on this path only") {
  CHECK(PlanWarps("def f():\n    if cap(80):\n        NUM_WARPS = 8\n    else:\n"
                  "        NUM_WARPS = 2\n    go(NUM_WARPS)\n") ==
        "def f():\n    if cap(80):\n        NUM_WARPS = 8\n    else:\n"
        "        NUM_WARPS = 4\n    go(NUM_WARPS)\n");
  // A shared value is wrapped in the condition where evaluating it once
  // more changes nothing: a comparison of a parameter.
  const std::string when = "when-false: cap >= 80";
  std::string once = PlanWarps(
      "def f(cap):\n    B = 1 if (cap >= 80) else 2\n    NUM_WARPS = 8\n"
      "    go(NUM_WARPS)\n",
      when);
  CHECK(once ==
        "def f(cap):\n    B = 1 if (cap >= 80) else 2\n    NUM_WARPS = 8 if cap >= 80 else 4\n"
        "    go(NUM_WARPS)\n");
  CHECK(PlanWarps(once, when) == once);  // the written conditional is the site's value now
  // A call may act, or answer otherwise, the second time: no wrap.
  CHECK(PlanWarps("def f():\n    B = 1 if (cap(80)) else 2\n    NUM_WARPS = 8\n"
                  "    go(NUM_WARPS)\n") ==
        "a.py:3:17: error: rule 'warps': NUM_WARPS = 8 (line 3) is shared by both paths, and "
        "wrapping it would evaluate the condition once more, where `cap(80)` (line 2) runs code "
        "that may act, or answer otherwise, the second time: no safe rewrite\n");
}

TEST_CASE("value-of: a value computed at run time, or none, fails the rule at the code") {
  CHECK(PlanWarps("def f(n):\n    if cap(80):\n        NUM_WARPS = 8\n    else:\n"
                  "        NUM_WARPS = 4 if n > 1 else 2\n    go(NUM_WARPS)\n") ==
        "a.py:5:21: error: rule 'warps': NUM_WARPS is computed from n: no literal to rewrite "
        "(it holds `4 if n > 1 else 2`)\n");
  CHECK(PlanWarps("def f():\n    NUM_WARPS = 8\n    go(NUM_WARPS)\n") ==
        "a.py:1:1: error: rule 'warps': `cap(80)` is tested nowhere in f: no path where "
        "`cap(80)` is false\n");
}

TEST_CASE("value-of: a shared value is not wrapped in a condition on a name bound after it") {
  const std::string when = "when-true: cap < 80";
  const std::string unsafe =
      "def f(x):\n    NUM_WARPS = 8\n    cap = get_cap(x)\n    if cap < 80:\n"
      "        go(NUM_WARPS)\n";
  CHECK(PlanWarps(unsafe, when) ==
        "a.py:2:17: error: rule 'warps': NUM_WARPS = 8 (line 2) is shared by both paths, and "
        "wrapping it would test `cap` before line 3 assigns it: no safe rewrite\n");
  // `cap` assigned before the shared value: the wrap reads the same `cap`.
  CHECK(PlanWarps("def f(x):\n    cap = get_cap(x)\n    NUM_WARPS = 8\n    if cap < 80:\n"
                  "        go(NUM_WARPS)\n",
                  when) ==
        "def f(x):\n    cap = get_cap(x)\n    NUM_WARPS = 4 if cap < 80 else 8\n"
        "    if cap < 80:\n        go(NUM_WARPS)\n");
  // The test first, then `cap` rebound, then the shared value.
  CHECK(PlanWarps("def f(x):\n    B = 1 if cap < 80 else 2\n    cap = get_cap(x)\n"
                  "    NUM_WARPS = 8\n    go(NUM_WARPS, B)\n",
                  when) ==
        "a.py:4:17: error: rule 'warps': NUM_WARPS = 8 (line 4) is shared by both paths, and "
        "wrapping it would test `cap` after line 3 assigns it, unlike the test at line 2: no safe "
        "rewrite\n");
}

TEST_CASE("value-of: every test of the condition in the function is checked, not the first") {
  const std::string when = "when-true: cap < 80";
  // The first test reads the `cap` the wrap would; the later one, that
  // decides the use, reads another.
  CHECK(PlanWarps("def f(x):\n    B = 1 if cap < 80 else 2\n    NUM_WARPS = 8\n"
                  "    cap = get_cap(x)\n    if cap < 80:\n        go(NUM_WARPS, B)\n",
                  when) ==
        "a.py:3:17: error: rule 'warps': NUM_WARPS = 8 (line 3) is shared by both paths, and "
        "wrapping it would test `cap` before line 4 assigns it: no safe rewrite\n");
  // A test in a nested function reads its own `cap`: the function's own
  // test is the one checked.
  CHECK(PlanWarps("def f(x):\n    def g(cap):\n        return 1 if cap < 80 else 2\n"
                  "    NUM_WARPS = 8\n    cap = get_cap(x)\n    if cap < 80:\n"
                  "        go(NUM_WARPS, g)\n",
                  when) ==
        "a.py:4:17: error: rule 'warps': NUM_WARPS = 8 (line 4) is shared by both paths, and "
        "wrapping it would test `cap` before line 5 assigns it: no safe rewrite\n");
  // Two tests that read the same `cap`: wrapped.
  CHECK(PlanWarps("def f(x):\n    cap = get_cap(x)\n    B = 1 if cap < 80 else 2\n"
                  "    NUM_WARPS = 8\n    if cap < 80:\n        go(NUM_WARPS, B)\n",
                  when) ==
        "def f(x):\n    cap = get_cap(x)\n    B = 1 if cap < 80 else 2\n"
        "    NUM_WARPS = 4 if cap < 80 else 8\n    if cap < 80:\n        go(NUM_WARPS, B)\n");
}

}  // namespace muh
