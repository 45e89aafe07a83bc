#include "engine/python/reaching_values.h"

#include <doctest/doctest.h>

namespace muh {

namespace {

// The values BLOCK takes in `f` where `cap(80)` is false (or as asked):
// each as its text, `~` marking one shared with the other path; or the
// problem. `tail` follows the def: by default it imports `cap`, `p` and `q`
// from vllm, the platform, whose answers no code between a value and a test
// changes.
std::string Below(const std::string& body, const std::string& condition = "cap(80)",
                  bool holds = false, const std::string& variable = "BLOCK",
                  const std::string& key = "",
                  const std::string& tail = "\nfrom vllm.platforms import cap, p, q\n") {
  std::string source = "def f(x):\n" + body + tail;
  PythonParser parser;
  SyntaxTree tree = parser.Parse(source);
  ValueQuestion q;
  q.function = "f";
  q.variable = variable;
  q.key = key;
  std::size_t at = 0;
  std::string error;
  q.condition = *ParseBranchCondition(condition, &at, &error);
  q.condition_as_written = condition;
  q.holds = holds;
  ReachingValues r = FindReachingValues(tree, q);
  if (!r.problem.empty()) return "problem: " + r.problem;
  std::string out;
  for (const ReachingValue& v : r.values)
    out += (out.empty() ? "" : " ") + v.text + (v.shared ? "~" : "");
  return out;
}

}  // namespace

TEST_CASE("a conditional expression on the condition gives its branch") {
  CHECK(Below("    BLOCK = 128 if cap(80) else 64\n    run(BLOCK)\n") == "64");
  CHECK(Below("    BLOCK = 128 if cap(80) else 64\n    run(BLOCK)\n", "cap(80)", true) == "128");
  CHECK(Below("    BLOCK = 128 if ( cap( 80 ) ) else 64\n    run(BLOCK)\n") == "64");
}

TEST_CASE("if/else blocks, several statements a branch, if not, nested blocks") {
  CHECK(Below("    if cap(80):\n        BLOCK = 128\n        W = 8\n    else:\n        BLOCK = 64\n"
              "        W = 4\n    run(BLOCK, W)\n") == "64");
  CHECK(Below("    if cap(80):\n        BLOCK = 128\n        W = 8\n    else:\n        BLOCK = 64\n"
              "        W = 4\n    run(BLOCK, W)\n",
              "cap(80)", false, "W") == "4");
  CHECK(Below("    if not cap(80):\n        BLOCK = 64\n    else:\n        BLOCK = 128\n"
              "    run(BLOCK)\n") == "64");
  CHECK(Below("    BLOCK = 128\n    if x:\n        if not (cap(80)):\n            BLOCK = 32\n"
              "    run(BLOCK)\n") == "128~ 32");
  CHECK(Below("    if x > 1:\n        BLOCK = 16\n    elif cap(80):\n        BLOCK = 128\n"
              "    else:\n        BLOCK = 64\n    run(BLOCK)\n") == "16~ 64");
}

TEST_CASE("a branch on a higher device capability is not on the path below a lower one") {
  const std::string chain =
      "    if p.has_device_capability(90):\n        BLOCK = 256\n"
      "    elif p.has_device_capability(80):\n        BLOCK = 128\n"
      "    else:\n        BLOCK = 64\n    run(BLOCK)\n";
  CHECK(Below(chain, "p.has_device_capability(80)") == "64");
  // Another receiver's test may go either way: its value is shared.
  CHECK(Below("    if q.has_device_capability(90):\n        BLOCK = 256\n"
              "    elif p.has_device_capability(80):\n        BLOCK = 128\n"
              "    else:\n        BLOCK = 64\n    run(BLOCK)\n",
              "p.has_device_capability(80)") == "256~ 64");
}

TEST_CASE("a value the other path reads after its first read is shared too") {
  // The other path (cap(80) true) reads BLOCK first in validate(), then
  // reads the 64 at the launch: 64 is shared, so it must change on this
  // path only.
  CHECK(Below("    BLOCK = 32\n    if cap(80):\n        validate(BLOCK)\n    BLOCK = 64\n"
              "    run(BLOCK)\n") == "64~");
}

TEST_CASE("a value on both paths is shared, and `when-true` of `not C` is the false path") {
  CHECK(Below("    BLOCK = 128 if cap(80) else 64\n    W = 8\n    run(BLOCK, W)\n", "cap(80)",
              false, "W") == "8~");
  CHECK(Below("    BLOCK = 128 if cap(80) else 64\n    run(BLOCK)\n", "not cap(80)", true) == "64");
}

TEST_CASE("the value at the first read counts, and later changes do not") {
  CHECK(Below("    BLOCK = 128 if cap(80) else 64\n    if x:\n        BLOCK = BLOCK // 2\n"
              "    run(BLOCK)\n") == "64");
}

TEST_CASE("a conditional expression on another condition is one value, computed") {
  CHECK(Below("    if cap(80):\n        BLOCK = 128\n    else:\n        smem = get()\n"
              "        BLOCK = 64 if smem >= 65536 else 32\n    run(BLOCK)\n") ==
        "64 if smem >= 65536 else 32");
}

TEST_CASE("a call that reads no names is computed too") {
  CHECK(Below("    if cap(80):\n        BLOCK = 128\n    else:\n        BLOCK = smem_block()\n"
              "    run(BLOCK)\n") ==
        "problem: BLOCK is computed by `smem_block()`: no literal to rewrite");
}

TEST_CASE("a rule that cannot be answered says why") {
  CHECK(Below("    BLOCK = 64\n    run(BLOCK)\n") ==
        "problem: `cap(80)` is tested nowhere in f: no path where `cap(80)` is false");
  CHECK(Below("    if cap(80):\n        BLOCK = 128\n    run(BLOCK)\n") ==
        "problem: BLOCK is read here, but assigned nowhere before on the path where `cap(80)` "
        "is false in f");
  CHECK(Below("    y = cap(80)\n    BLOCK, W = 64, 4\n    run(BLOCK)\n") ==
        "problem: BLOCK is unpacked from `64, 4`: no value of its own to rewrite");
  CHECK(Below("    if cap(80):\n        BLOCK = 128\n    run(BLOCK)\n", "cap(80)", false, "N")
            .rfind("problem:", 0) == 0);
}

TEST_CASE("a dict's key: its entry in a dict literal, or a write to the key") {
  CHECK(Below("    if cap(80):\n        cfg = {'M': 128, 'N': 64}\n    else:\n"
              "        cfg = {'M': 32, 'N': 16}\n    run(**cfg)\n",
              "cap(80)", false, "cfg", "M") == "32");
  CHECK(Below("    cfg = {'M': 128}\n    if not cap(80):\n        cfg[\"M\"] = 16\n    run(cfg)\n",
              "cap(80)", false, "cfg", "M") == "16");
  CHECK(Below("    cfg = {'M': 128}\n    if not cap(80):\n        cfg = load()\n    run(cfg)\n",
              "cap(80)", false, "cfg",
              "M") == "problem: cfg is built by `load()`: no 'M' entry to rewrite");
  CHECK(
      Below("    x = cap(80)\n    cfg = {'N': 1}\n    run(cfg)\n", "cap(80)", false, "cfg", "M") ==
      "problem: cfg['M'] is read here, but assigned nowhere before on the path where `cap(80)` "
      "is false in f");
}

TEST_CASE("a binding other than `V = value` that reaches the read is refused, naming it") {
  auto refused = [](const std::string& body, const std::string& what) {
    // `cap` from vllm: the platform, which the code between cannot change.
    std::string got =
        Below(body, "cap(80)", false, "BLOCK", "", "from vllm.platforms import cap\n");
    INFO(got);
    return got.rfind("problem: BLOCK is bound by `" + what + "`", 0) == 0;
  };
  const std::string test = "    y = 1 if cap(80) else 2\n";
  CHECK(
      refused("    BLOCK = 64\n    for BLOCK in (8,):\n        pass\n" + test + "    run(BLOCK)\n",
              "for BLOCK in (8,):"));
  CHECK(refused(
      "    BLOCK = 64\n    with ctx(8) as BLOCK:\n        pass\n" + test + "    run(BLOCK)\n",
      "ctx(8) as BLOCK"));
  CHECK(refused(
      "    BLOCK = 64\n    if (BLOCK := 8) > 0 and x:\n        pass\n" + test + "    run(BLOCK)\n",
      "BLOCK := 8"));
  CHECK(refused(
      "    BLOCK = 64\n    if x:\n        from m import V as BLOCK\n" + test + "    run(BLOCK)\n",
      "from m import V as BLOCK"));
  CHECK(
      refused("    BLOCK = 64\n    match x:\n        case 1:\n            BLOCK = 8\n"
              "        case BLOCK:\n            pass\n" +
                  test + "    run(BLOCK)\n",
              "case BLOCK:"));
  // Where it does not reach the read, it is no site.
  CHECK(Below("    for BLOCK in (8,):\n        pass\n    BLOCK = 64\n" + test +
              "    run(BLOCK)\n") == "64~");
}

TEST_CASE("a match case's assignment is a path, and del unbinds") {
  CHECK(Below("    BLOCK = 64\n    match x:\n        case 1:\n            BLOCK = 8\n"
              "    y = 1 if cap(80) else 2\n    run(BLOCK)\n") == "64~ 8~");
  CHECK(Below("    BLOCK = 64\n    if x:\n        del BLOCK\n        BLOCK = 8\n"
              "    y = 1 if cap(80) else 2\n    run(BLOCK)\n") == "64~ 8~");
}

TEST_CASE("nonlocal or global: no value of its own") {
  CHECK(Below("    BLOCK = 64 if cap(80) else 32\n    def g():\n        nonlocal BLOCK\n"
              "        BLOCK = 8\n    g()\n    run(BLOCK)\n")
            .rfind("problem: BLOCK is rebound through `nonlocal BLOCK` (line 4)", 0) == 0);
  CHECK(Below("    global BLOCK\n    BLOCK = 64 if cap(80) else 32\n    g()\n    run(BLOCK)\n")
            .rfind("problem: BLOCK is declared `global BLOCK` (line 2)", 0) == 0);
}

TEST_CASE("break and continue: the value before them leaves the loop, and break skips its else") {
  const std::string test = "    y = 1 if cap(80) else 2\n";
  CHECK(
      Below("    BLOCK = 64\n    for i in r:\n        BLOCK = 8\n        if x:\n            break\n"
            "        BLOCK = 16\n" +
            test + "    run(BLOCK)\n") == "64~ 8~ 16~");
  CHECK(Below("    BLOCK = 64\n    for i in r:\n        BLOCK = 8\n        if x:\n"
              "            continue\n        BLOCK = 16\n" +
              test + "    run(BLOCK)\n") == "64~ 8~ 16~");
  CHECK(Below("    BLOCK = 64\n    for i in r:\n        break\n    else:\n        BLOCK = 8\n" +
              test + "    run(BLOCK)\n") == "64~ 8~");
}

TEST_CASE("a read in a loop sees what an earlier iteration assigned") {
  CHECK(Below("    BLOCK = 64\n    for i in r:\n        if i:\n            run(BLOCK)\n"
              "        BLOCK = 128 if cap(80) else 32\n") == "64~ 32");
  // A `cap` of the module's own: the loop's iterator may change its answer.
  CHECK(Below("    BLOCK = 64\n    for i in r:\n        if i:\n            run(BLOCK)\n"
              "        BLOCK = 128 if cap > 80 else 32\n",
              "cap > 80", false, "BLOCK", "", "")
            .rfind("problem: BLOCK = 64 (line 2) is shared by both paths, and wrapping it would "
                   "read `cap` there, not at the test (line 6): `for i in r:` (line 3) runs in "
                   "between",
                   0) == 0);
  // A call of the module's own in the condition: the wrap would call it again.
  CHECK(Below("    BLOCK = 64\n    BLOCK = 128 if cap(80) else BLOCK\n    run(BLOCK)\n", "cap(80)",
              false, "BLOCK", "", "")
            .rfind("problem: BLOCK = 64 (line 2) is shared by both paths, and wrapping it would "
                   "evaluate the condition once more, where `cap(80)` (line 3) runs code",
                   0) == 0);
}

TEST_CASE("a def, lambda or class that reads the knob, rebound after it, is refused") {
  CHECK(Below("    BLOCK = 128 if cap(80) else 64\n    get = lambda: BLOCK\n    BLOCK = 8\n"
              "    run(get())\n")
            .rfind("problem: BLOCK is read by `lambda: BLOCK` (line 3), which the walk does not "
                   "follow (a def or lambda reads it when called, a class body where it stands), "
                   "and line 4 binds BLOCK again after it",
                   0) == 0);
  CHECK(Below("    BLOCK = 128 if cap(80) else 64\n    def get():\n        return BLOCK\n"
              "    run(get())\n    BLOCK = 8\n")
            .rfind("problem: BLOCK is read by `def get():` (line 3)", 0) == 0);
  // Its own local, or nothing rebinding it later: no problem.
  CHECK(Below("    BLOCK = 128 if cap(80) else 64\n    def get():\n        BLOCK = 1\n"
              "        return BLOCK\n    run(BLOCK)\n    BLOCK = 8\n") == "64");
  CHECK(Below("    BLOCK = 128 if cap(80) else 64\n    get = lambda: BLOCK\n    run(get())\n") ==
        "64");
}

TEST_CASE("a dict splat after the key's entry may replace it") {
  CHECK(Below("    x = cap(80)\n    cfg = {'M': 32, **over}\n    run(cfg)\n", "cap(80)", false,
              "cfg", "M") ==
        "problem: cfg['M'] may be replaced by `**over` (line 3), after its entry: no "
        "value of its own to rewrite");
  CHECK(Below("    x = cap(80)\n    cfg = {**base, 'M': 32}\n    run(cfg)\n", "cap(80)", false,
              "cfg", "M") == "32~");
}

TEST_CASE("the rewrite that changes a shared value on one path only") {
  CHECK(OnThisPath("cap(80)", false, "8", "4") == "8 if cap(80) else 4");
  CHECK(OnThisPath("cap(80)", true, "8", "4") == "4 if cap(80) else 8");
  // What binds looser than the conditional expression is parenthesised.
  CHECK(OnThisPath("cap(80)", false, "101, 102", "4") == "(101, 102) if cap(80) else 4");
  CHECK(OnThisPath("cap(80)", false, "lambda: 8", "4") == "(lambda: 8) if cap(80) else 4");
  CHECK(OnThisPath("cap(80)", false, "8 if x else 16", "4") ==
        "(8 if x else 16) if cap(80) else 4");
  CHECK(OnThisPath("cap(80)", false, "8", "2, 4") == "8 if cap(80) else (2, 4)");
  CHECK(OnThisPath("cap(80)", false, "(8, 16)", "[4]") == "(8, 16) if cap(80) else [4]");
  CHECK(OnThisPath("cap(80)", false, "(8) + (16)", "c.x") == "((8) + (16)) if cap(80) else c.x");
}

TEST_CASE("closed world: a binding the walk does not follow is refused, naming it") {
  const std::string tail = "    if cap(80):\n        BLOCK = 128\n    run(BLOCK)\n";
  auto refused = [](const std::string& r, const std::string& what) {
    CAPTURE(r);
    CHECK(r.rfind("problem: ", 0) == 0);
    CHECK(r.find(what) != std::string::npos);
    CHECK(r.find("does not follow") != std::string::npos);
  };
  // `:=` in a nested def's default, a decorator or a lambda's default runs
  // in f's scope, where the def or lambda stands.
  refused(Below("    BLOCK = 64\n    def g(y=(BLOCK := 8)):\n        pass\n" + tail),
          "`def g(y=(BLOCK := 8)):` (line 3)");
  refused(Below("    BLOCK = 64\n    @deco(BLOCK := 8)\n    def g():\n        pass\n" + tail),
          "line 3");
  refused(Below("    BLOCK = 64\n    h = lambda y=(BLOCK := 8): y\n" + tail), "line 3");
  // A type alias, a `:=` in a subscript target or in a del.
  refused(Below("    BLOCK = 64\n    del d[(BLOCK := 8)]\n" + tail), "line 3");
  refused(Below("    BLOCK = 64\n    type BLOCK = int\n" + tail), "line 3");
  refused(Below("    BLOCK = 64\n    d[(BLOCK := 8)] = 1\n" + tail), "line 3");
  // A nested def's `global BLOCK` may rebind a module BLOCK, not f's: the
  // walk does not model it, so it refuses.
  refused(Below("    BLOCK = 64\n    def g():\n        global BLOCK\n        BLOCK = 1\n" + tail),
          "line 4");
}

TEST_CASE("closed world: code that does not run on the path, and a parameter, are accounted") {
  // An `except*` handler is a handler.
  CHECK(Below("    BLOCK = 64\n    try:\n        go()\n    except* E:\n        BLOCK = 8\n"
              "    if cap(80):\n        BLOCK = 128\n    run(BLOCK)\n") == "64 8");
  // After return, under a condition false on this path, after an `if`
  // that surely holds: no refusal.
  CHECK(Below("    BLOCK = 64\n    if cap(80):\n        BLOCK = 128\n    run(BLOCK)\n    return\n"
              "    BLOCK = 8\n") == "64");
  CHECK(Below("    BLOCK = 64\n    if cap(80):\n        BLOCK = (BLOCK := 8)\n    run(BLOCK)\n") ==
        "64");
  CHECK(Below("    BLOCK = 64\n    if not cap(80):\n        pass\n    elif (BLOCK := 9):\n"
              "        pass\n    run(BLOCK)\n") == "64~");
  // A parameter of the knob's name that reaches the read is its value.
  CHECK(Below("    run(BLOCK)\n", "cap(80)", false, "BLOCK", "",
              "\ndef g(BLOCK=4):\n    run(BLOCK)\n") != "");
  const std::string r = Below("    if cap(80):\n        BLOCK = 64\n    run(BLOCK)\n", "cap(80)",
                              false, "BLOCK", "", "\n");
  CHECK(r.find("assigned nowhere") != std::string::npos);
  std::string source = "def f(BLOCK=4):\n    if cap(80):\n        BLOCK = 64\n    run(BLOCK)\n";
  PythonParser parser;
  SyntaxTree tree = parser.Parse(source);
  ValueQuestion q;
  q.function = "f";
  q.variable = "BLOCK";
  std::size_t at = 0;
  std::string error;
  q.condition = *ParseBranchCondition("cap(80)", &at, &error);
  q.condition_as_written = "cap(80)";
  q.holds = false;
  ReachingValues below = FindReachingValues(tree, q);
  CHECK(below.problem.find("is bound by `BLOCK=4` (line 1)") != std::string::npos);
  q.holds = true;
  ReachingValues above = FindReachingValues(tree, q);
  CHECK(above.problem.empty());
  REQUIRE(above.values.size() == 1);
  CHECK(above.values[0].text == "64");
}

}  // namespace muh
