#include "engine/python/wrap_safety.h"

#include <doctest/doctest.h>

#include "engine/python/ts_nodes.h"

namespace muh {

namespace {

// The node of `source` at the first `text` from byte `from` on.
TSNode NodeAt(const SyntaxTree& tree, const std::string& source, const std::string& text,
              std::size_t from = 0) {
  std::size_t at = source.find(text, from);
  REQUIRE(at != std::string::npos);
  return ts_node_descendant_for_byte_range(tree.Root(), static_cast<uint32_t>(at),
                                           static_cast<uint32_t>(at + text.size()));
}

// Whether `NUM_WARPS = 8` in `def f(x):` + `body` may be wrapped in
// `condition`, the first one after `if ` (or `test`): "" when it may, else
// the name bound in between and the line that binds it ("cap@3"), with
// " after" where the test comes first.
std::string Hazard(const std::string& body, const std::string& condition = "cap < 80",
                   const std::string& test = "if ") {
  std::string source = "def f(x):\n" + body;
  PythonParser parser;
  SyntaxTree tree = parser.Parse(source);
  REQUIRE(!tree.HasError());
  TSNode fn = ts_node_named_child(tree.Root(), 0);
  REQUIRE(Is(fn, "function_definition"));
  TSNode cond = NodeAt(tree, source, condition, source.find(test));
  std::size_t value = source.find("NUM_WARPS = 8") + 12;
  std::optional<WrapHazard> h = WrapHazardOf(tree, fn, value, cond);
  if (!h || h->state || h->effect || !h->guard.empty()) return "";  // State's tests
  return h->rebinding.name + "@" + std::to_string(h->rebinding.line) +
         (h->before_test ? "" : " after") + (h->nested_in.empty() ? "" : " in " + h->nested_in);
}

// As Hazard, with `head` before `def f(x):`, for the hazards of state:
// "READ@LINE by TEXT@LINE" (the read the condition makes, and the code in
// between that may change it), or what Hazard says of a rebinding.
std::string State(const std::string& head, const std::string& body,
                  const std::string& condition = "cap < 80", const std::string& test = "if ") {
  std::string source = head + "def f(x):\n" + body;
  PythonParser parser;
  SyntaxTree tree = parser.Parse(source);
  REQUIRE(!tree.HasError());
  TSNode fn = ts_node_named_child(tree.Root(), ts_node_named_child_count(tree.Root()) - 1);
  REQUIRE(Is(fn, "function_definition"));
  TSNode cond = NodeAt(tree, source, condition, source.find(test, head.size()));
  std::size_t value = source.find("NUM_WARPS = 8") + 12;
  std::optional<WrapHazard> h = WrapHazardOf(tree, fn, value, cond);
  if (!h) return "";
  if (h->effect) return "twice " + h->effect->by + "@" + std::to_string(h->effect->by_line);
  if (!h->guard.empty()) {
    return h->guard + "@" + std::to_string(h->guard_line) +
           (h->guard_holds_test ? " holds the test" : " holds the value");
  }
  if (!h->state) return "rebinds " + h->rebinding.name;
  return h->state->read + "@" + std::to_string(h->state->read_line) + " by " + h->state->by + "@" +
         std::to_string(h->state->by_line);
}

std::string Read(const std::string& expression) {
  std::string source = "(" + expression + ")\n";
  PythonParser parser;
  SyntaxTree tree = parser.Parse(source);
  REQUIRE(!tree.HasError());
  TSNode e = ts_node_named_child(ts_node_named_child(tree.Root(), 0), 0);
  std::string out;
  for (const std::string& n : NamesRead(tree, Unwrapped(e))) out += (out.empty() ? "" : " ") + n;
  return out;
}

}  // namespace

TEST_CASE("the names a condition reads: not attributes, keywords or its own bindings") {
  CHECK(Read("p.has_device_capability(80) and cap(x=y.z)") == "p cap y");
  CHECK(Read("any(c > m for c in cs)") == "any m cs");
  CHECK(Read("[c for c in c if c]") == "c");  // the first iterable is read outside
  CHECK(Read("all(a < b for a in xs for b in a)") == "all xs");
  CHECK(Read("{k: v for k, v in d.items()} and w") == "d w");
  CHECK(Read("(lambda a, *r, b=d, **k: a + b + e)(1)") == "d e");
  CHECK(Read("(n := f()) > 3 and n < m") == "f m");
  CHECK(Read("f'{a}' == b[c]") == "a b c");
}

TEST_CASE("an assignment of any form between the value and the test is a hazard") {
  const std::string before = "    NUM_WARPS = 8\n";
  const std::string after = "    if cap < 80:\n        go(NUM_WARPS)\n";
  CHECK(Hazard(before + "    cap = get_cap(x)\n" + after) == "cap@3");
  CHECK(Hazard(before + "    y = 1\n    cap += 1\n" + after) == "cap@4");
  CHECK(Hazard(before + "    cap: int = get_cap(x)\n" + after) == "cap@3");
  CHECK(Hazard(before + "    cap: int\n" + after) == "cap@3");
  CHECK(Hazard(before + "    a, cap = get(x)\n" + after) == "cap@3");
  CHECK(Hazard(before + "    (a, [b, *cap]) = get(x)\n" + after) == "cap@3");
  CHECK(Hazard(before + "    a = cap = b = 1\n" + after) == "cap@3");
  // The first binding, wherever it is nested.
  CHECK(Hazard(before + "    if x:\n        while x:\n            cap = 1\n    cap = 2\n" +
               after) == "cap@5");
  // The value's own statement assigns after computing the value.
  CHECK(Hazard("    cap = NUM_WARPS = 8\n" + after) == "cap@2");
  CHECK(Hazard("    NUM_WARPS = 8\n    if x:\n        cap = 1\n    elif cap < 80:\n"
               "        go(NUM_WARPS)\n",
               "cap < 80", "elif ") == "cap@4");
}

TEST_CASE("every other binding form is a hazard") {
  const std::string before = "    NUM_WARPS = 8\n";
  const std::string after = "    if cap < 80:\n        go(NUM_WARPS)\n";
  auto with = [&](const std::string& line) { return Hazard(before + line + after); };
  CHECK(with("    for cap in x:\n        pass\n") == "cap@3");
  CHECK(with("    for i, (j, cap) in x:\n        pass\n") == "cap@3");
  CHECK(with("    with open(x) as cap:\n        pass\n") == "cap@3");
  CHECK(with("    with a() as b, open(x) as (c, cap):\n        pass\n") == "cap@3");
  CHECK(with("    y = (cap := get(x))\n") == "cap@3");
  CHECK(with("    ys = [cap := y for y in x]\n") == "cap@3");  // `:=` binds in f
  CHECK(with("    import cap\n") == "cap@3");
  CHECK(with("    import cap.sub\n") == "cap@3");
  CHECK(with("    import m as cap\n") == "cap@3");
  CHECK(with("    from m import a, cap\n") == "cap@3");
  CHECK(with("    from . import b as cap\n") == "cap@3");
  CHECK(with("    def cap():\n        pass\n") == "cap@3");
  CHECK(with("    @d\n    def cap():\n        pass\n") == "cap@4");
  CHECK(with("    class cap:\n        pass\n") == "cap@3");
  CHECK(with("    global cap\n") == "cap@3");
  CHECK(with("    nonlocal cap\n") == "cap@3");
  CHECK(with("    del cap\n") == "cap@3");
  CHECK(with("    del a, cap\n") == "cap@3");
  CHECK(with("    try:\n        pass\n    except E as cap:\n        pass\n") == "cap@5");
  CHECK(with("    try:\n        pass\n    except* E as cap:\n        pass\n") == "cap@5");
  CHECK(with("    match x:\n        case [a, cap]:\n            pass\n") == "cap@4");
  CHECK(with("    match x:\n        case P(k=cap):\n            pass\n") == "cap@4");
  CHECK(with("    match x:\n        case {'k': cap}:\n            pass\n") == "cap@4");
  CHECK(with("    match x:\n        case [1, *cap]:\n            pass\n") == "cap@4");
  CHECK(with("    match x:\n        case 1 as cap:\n            pass\n") == "cap@4");
}

TEST_CASE("what is no hazard: before, after, other scopes, other names") {
  const std::string after = "    if cap < 80:\n        go(NUM_WARPS)\n";
  CHECK(Hazard("    cap = get_cap(x)\n    NUM_WARPS = 8\n" + after) == "");
  CHECK(Hazard("    NUM_WARPS = 8\n" + after + "    cap = 1\n") == "");
  CHECK(Hazard("    NUM_WARPS = 8\n    if cap < 80:\n        cap = 1\n        go(NUM_WARPS)\n") ==
        "");
  // A nested scope binds its own names; `g` is bound, not `cap`.
  CHECK(Hazard("    NUM_WARPS = 8\n    def g(cap=1):\n        cap = 2\n"
               "    h = lambda cap: cap\n    class K:\n        cap = 3\n" +
               after) == "");
  CHECK(Hazard("    NUM_WARPS = 8\n    ys = [cap for cap in x]\n" + after) == "");
  // An attribute, a subscript, a keyword argument and an import's module
  // name bind no name.
  CHECK(Hazard("    NUM_WARPS = 8\n    x.cap = 1\n    x[cap] = 2\n    go(cap=1)\n"
               "    from cap import y\n    import a.cap\n    match x:\n"
               "        case cap.A | P(cap=1) | {cap.B: 1}:\n            pass\n" +
               after) == "");
  // The condition's own comprehension variable, lambda parameter and
  // attribute name.
  const std::string between = "    NUM_WARPS = 8\n    cap = 1\n";
  CHECK(Hazard(between + "    if any(cap > 1 for cap in x):\n        go(NUM_WARPS)\n",
               "any(cap > 1 for cap in x)") == "");
  CHECK(Hazard(between + "    if check(lambda cap: cap > 1):\n        go(NUM_WARPS)\n",
               "check(lambda cap: cap > 1)") == "");
  CHECK(Hazard(between + "    if p.cap < 80:\n        go(NUM_WARPS)\n", "p.cap < 80") == "");
  CHECK(Hazard(between + "    if p.cap(cap=80):\n        go(NUM_WARPS)\n", "p.cap(cap=80)") == "");
  CHECK(Hazard("    NUM_WARPS = 8\n    p = get(x)\n    if p.cap < 80:\n        go(NUM_WARPS)\n",
               "p.cap < 80") == "p@3");
}

TEST_CASE("a test in a nested scope that binds the name itself is a hazard") {
  // The helper imports the name (or takes it as a parameter): the function
  // around it does not bind it, and the wrap would raise NameError there.
  CHECK(Hazard("    def g():\n        from p import cap\n        if cap < 80:\n"
               "            return 1\n    NUM_WARPS = 8\n") == "cap@3 in g");
  CHECK(Hazard("    def g(cap):\n        if cap < 80:\n            return 1\n"
               "    NUM_WARPS = 8\n") == "cap@2 in g");
  CHECK(Hazard("    k = lambda cap: 1 if cap < 80 else 2\n    NUM_WARPS = 8\n", "cap < 80",
               "1 if ") == "cap@2 in a lambda");
  // A helper that reads the outer name binds nothing: no hazard from it.
  CHECK(Hazard("    cap = get(x)\n    def g():\n        if cap < 80:\n            return 1\n"
               "    NUM_WARPS = 8\n") == "");
}

TEST_CASE("a test before the value: a binding between them is a hazard too") {
  const std::string test = "    B = 1 if cap < 80 else 2\n";
  CHECK(Hazard(test + "    cap = 3\n    NUM_WARPS = 8\n    go(NUM_WARPS)\n", "cap < 80", "B = ") ==
        "cap@3 after");
  CHECK(Hazard(test + "    NUM_WARPS = 8\n    cap = 3\n    go(NUM_WARPS)\n", "cap < 80", "B = ") ==
        "");
  CHECK(Hazard(test + "    cap = NUM_WARPS = 8\n    go(NUM_WARPS)\n", "cap < 80", "B = ") == "");
}

TEST_CASE("code between the value and the test may change what the test reads") {
  const std::string vllm = "from vllm.platforms import current_platform\n";
  const std::string value = "    NUM_WARPS = 8\n";
  const std::string test = "    if cap < 80:\n        go(NUM_WARPS)\n";
  // A call may rebind a global, or change an object's attribute.
  CHECK(State("", value + "    tune()\n" + test) == "cap@4 by tune()@3");
  CHECK(State("", value + "    tune()\n    if s.ok:\n        go(NUM_WARPS)\n", "s.ok") ==
        "s@4 by tune()@3");
  // So may a parameter's object, a store through an attribute or a
  // subscript, a loop, a with, an import, a decorator, a yield.
  CHECK(State("", value + "    x.n = 1\n    if x.n:\n        go(NUM_WARPS)\n", "x.n") ==
        "x@4 by x.n = 1@3");
  CHECK(State("", value + "    del d[0]\n" + test) == "cap@4 by del d[0]@3");
  CHECK(State("", value + "    for i in y:\n        pass\n" + test) == "cap@5 by for i in y:@3");
  CHECK(State("", value + "    ys = [i for i in y]\n" + test) == "cap@4 by for i in y@3");
  CHECK(State("", value + "    with m:\n        pass\n" + test) == "cap@5 by with m:@3");
  CHECK(State("", value + "    import m2\n" + test) == "cap@4 by import m2@3");
  CHECK(State("", value + "    @d\n    def g():\n        pass\n" + test) == "cap@6 by @d@3");
  CHECK(State("", value + "    yield 1\n" + test) == "cap@4 by yield 1@3");
  // A local some nested scope rebinds (`nonlocal`), across a call.
  CHECK(State("", "    cap = 1\n    def g():\n        nonlocal cap\n        cap = 90\n" + value +
                      "    g()\n" + test) == "cap@8 by g()@7");
}

TEST_CASE("what code in between cannot change: the platform, and locals computed from it") {
  const std::string vllm = "from vllm.platforms import current_platform\n";
  const std::string value = "    NUM_WARPS = 8\n";
  const std::string cond = "current_platform.has_device_capability(80)";
  CHECK(State(vllm, value + "    tune()\n    if " + cond + ":\n        go(NUM_WARPS)\n", cond) ==
        "");
  CHECK(State(vllm,
              "    ok = " + cond + "\n" + value + "    tune()\n    if ok:\n        go(NUM_WARPS)\n",
              "ok", "if ok") == "");
  // The test binds the local before the value: its own call is no hazard.
  CHECK(State(vllm, "    ok = " + cond + "\n" + value + "    go(NUM_WARPS)\n", "ok", "ok =") == "");
  // No code runs in between: a global, a parameter and an attribute stay.
  CHECK(State("", value + "    y = 1\n    if x.n < cap:\n        go(NUM_WARPS)\n", "x.n < cap") ==
        "");
  // Defining a function runs none of its body; a call of the platform's
  // API changes nothing.
  CHECK(State(vllm, value + "    def g():\n        tune()\n    c = " + cond + "\n" +
                        "    if cap < 80:\n        go(NUM_WARPS)\n") == "");
  // A name bound from vllm and otherwise (`except ImportError: x = None`)
  // is not the platform's.
  const std::string fallback =
      "try:\n    " + vllm + "except ImportError:\n    current_platform = None\n";
  CHECK(State(fallback,
              value + "    tune()\n    if current_platform.name:\n        go(NUM_WARPS)\n",
              "current_platform.name") == "current_platform@8 by tune()@7");
  CHECK(State(fallback, value + "    if " + cond + ":\n        go(NUM_WARPS)\n", cond) ==
        "twice current_platform.has_device_capability(80)@7");
  // A local from the parameter is not fixed.
  CHECK(State(vllm, "    ok = x > 1\n" + value + "    tune()\n    if ok:\n        go(NUM_WARPS)\n",
              "ok", "if ok") == "ok@6 by tune()@5");
}

TEST_CASE("a condition that runs code is not evaluated once more") {
  const std::string vllm = "from vllm.platforms import current_platform\n";
  const std::string value = "    NUM_WARPS = 8\n";
  auto at_test = [&](const std::string& cond) {
    return State(vllm, value + "    if " + cond + ":\n        go(NUM_WARPS)\n", cond);
  };
  CHECK(at_test("next(it)") == "twice next(it)@4");
  CHECK(at_test("cap < 80 and probe()") == "twice probe()@4");
  CHECK(at_test("(n := cap) > 3") == "twice n := cap@4");
  CHECK(at_test("[await a for a in b]") == "twice await a@4");
  // The platform's API answers the same each time.
  CHECK(at_test("current_platform.has_device_capability(80)") == "");
  CHECK(at_test("not current_platform.is_rocm() and cap < 80") == "");
}

TEST_CASE("a test and a value in different try or with bodies: the test may raise there") {
  // The probe's finding: a handler catches the query's exception, and the
  // code runs on to the wrap, which asks again and raises.
  CHECK(State("",
              "    try:\n        b = 1 if cap < 80 else 2\n    except RuntimeError:\n"
              "        b = 2\n    NUM_WARPS = 8\n") == "try@2 holds the test");
  CHECK(State("",
              "    try:\n        b = 1 if cap < 80 else 2\n    except RuntimeError:\n"
              "        NUM_WARPS = 8\n") == "try@2 holds the test");
  CHECK(State("",
              "    NUM_WARPS = 8\n    with suppress(RuntimeError):\n"
              "        b = 1 if cap < 80 else 2\n") == "with@3 holds the test");
  CHECK(State("",
              "    try:\n        NUM_WARPS = 8\n    finally:\n        pass\n"
              "    b = 1 if cap < 80 else 2\n") == "try@2 holds the value");
  // In the same body, a test that raises stops the original and the wrap alike.
  CHECK(State("",
              "    try:\n        b = 1 if cap < 80 else 2\n        NUM_WARPS = 8\n"
              "    except RuntimeError:\n        pass\n") == "");
  CHECK(State("", "    with open(x):\n        b = 1 if cap < 80 else 2\n        NUM_WARPS = 8\n")
            .find("with@") == std::string::npos);
}

TEST_CASE("StatementAround finds the simple statement holding a byte") {
  std::string source = "def f(x):\n    if x:\n        a = {'k': 8}\n";
  PythonParser parser;
  SyntaxTree tree = parser.Parse(source);
  TSNode fn = ts_node_named_child(tree.Root(), 0);
  TSNode s = StatementAround(fn, source.find('8'));
  CHECK(Is(s, "expression_statement"));
  CHECK(ts_node_start_byte(s) == source.find("a = "));
}

}  // namespace muh
