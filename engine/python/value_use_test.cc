#include "engine/python/value_use.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/python/name_use.h"
#include "engine/python/ts_nodes.h"

namespace muh {

namespace {

struct Seen {
  ValueUseKind kind;
  std::string at;  // the text of ValueUse::at
  bool changed;
  bool carried;
};

// The use of the value of the first occurrence of `read` in `source`.
Seen Use(const std::string& source, const std::string& read = "c['K']", bool changed = false) {
  PythonParser parser;
  SyntaxTree tree = parser.Parse(source);
  REQUIRE_FALSE(tree.HasError());
  std::size_t b = source.find(read);
  REQUIRE(b != std::string::npos);
  std::vector<TSNode> path = PathTo(tree.Root(), static_cast<std::uint32_t>(b),
                                    static_cast<std::uint32_t>(b + read.size()));
  ValueUse u = UseOfValue(tree, path, changed);
  return Seen{u.kind, std::string(TextOf(tree, u.at)), u.changed, u.carried};
}

}  // namespace

TEST_CASE("a value taken whole by a call is passed") {
  Seen s = Use("kernel[grid](a, c['K'])\n");
  CHECK(s.kind == ValueUseKind::kPassed);
  CHECK(s.at == "kernel[grid](a, c['K'])");
  CHECK(Use("ops.align(t, (c['K']), e)\n").kind == ValueUseKind::kPassed);
  CHECK(Use("kernel[grid](a, BLOCK=c['K'])\n").kind == ValueUseKind::kPassed);
  CHECK(Use("n = triton.cdiv(m, c['K']) * 2\n").kind == ValueUseKind::kPassed);
  CHECK(Use("f(c.get('K'))\n", "c.get('K')").kind == ValueUseKind::kPassed);
  // A lambda's body carries it where this file does not follow; a call in
  // it takes it whole.
  CHECK(Use("grid = lambda m: (triton.cdiv(n, m['K']),)\n", "m['K']").kind ==
        ValueUseKind::kPassed);
}

TEST_CASE("a value changed before a call takes it is changed, naming the change") {
  Seen s = Use("kernel[grid](a, BLOCK=max(c['K'], 32))\n");
  CHECK(s.kind == ValueUseKind::kChanged);
  CHECK(s.at == "max(c['K'], 32)");
  s = Use("kernel(a, int(min(c['K'], 64)))\n");
  CHECK(s.kind == ValueUseKind::kChanged);
  CHECK(s.at == "min(c['K'], 64)");
  CHECK(Use("kernel(c['K'] if big else 16)\n").at == "c['K'] if big else 16");
  CHECK(Use("kernel(c['K'] or 32)\n").at == "c['K'] or 32");
  // A clamp, then arithmetic: the clamp is the place.
  CHECK(Use("n = triton.cdiv(m, max(c['K'], 32))\n").at == "max(c['K'], 32)");
  CHECK(Use("kernel(c['K'][0])\n").at == "c['K'][0]");
  CHECK(Use("kernel(c['K'].bit_length())\n").kind == ValueUseKind::kChanged);
  CHECK(Use("f(*c['K'])\n").kind == ValueUseKind::kChanged);
  CHECK(Use("class A(c['K']):\n    pass\n").kind == ValueUseKind::kChanged);
}

TEST_CASE("a value carried where the walk does not follow is changed") {
  CHECK(Use("def f(c):\n    return c['K']\n").at == "return c['K']");
  CHECK(Use("args = (c['K'], 4)\n").at == "(c['K'], 4)");
  CHECK(Use("a = b = c['K']\n").kind == ValueUseKind::kChanged);
  CHECK(Use("a, b = c['K'], 4\n").kind == ValueUseKind::kChanged);
  CHECK(Use("d = {'B': c['K']}\n").kind == ValueUseKind::kChanged);
  CHECK(Use("if (x := c['K']):\n    pass\n").kind == ValueUseKind::kChanged);
}

TEST_CASE("a value handed on whole is carried, one clamped or made something else is not") {
  CHECK(Use("def f(c):\n    return c['K']\n").carried);
  CHECK(Use("args = (c['K'], 4)\n").carried);
  CHECK(Use("d = {'B': c['K']}\n").carried);
  CHECK(Use("a = b = c['K']\n").carried);
  CHECK(Use("g = lambda: c['K']\n").carried);
  CHECK_FALSE(Use("def f(c):\n    return min(c['K'], 4)\n").carried);
  CHECK_FALSE(Use("kernel(c['K'][0])\n").carried);
  CHECK_FALSE(Use("kernel(c['K'].bit_length())\n").carried);
  CHECK_FALSE(Use("f(*c['K'])\n").carried);
  CHECK_FALSE(Use("kernel(max(c['K'], 32))\n").carried);
  CHECK_FALSE(Use("kernel(c['K'])\n").carried);
}

TEST_CASE("another quantity computed from a value is derived") {
  Seen s = Use("padded = n + e * (c['K'] - 1)\n");
  CHECK(s.kind == ValueUseKind::kDerived);
  CHECK(s.at == "c['K'] - 1");
  CHECK(Use("kernel(a, c['K'] * 2)\n").kind == ValueUseKind::kDerived);
  CHECK(Use("kernel(-c['K'])\n").kind == ValueUseKind::kDerived);
  CHECK(Use("log(f'{c[\"K\"]}')\n", "c[\"K\"]").kind == ValueUseKind::kDerived);
  CHECK(Use("blocks = range(c['K'])\n").kind == ValueUseKind::kDerived);
  // Through a conversion the value goes on as it is.
  CHECK(Use("kernel(int(c['K']))\n").kind == ValueUseKind::kPassed);
}

TEST_CASE("a decision on a value, or a value dropped, is no use of it") {
  CHECK(Use("if c['K'] > 64:\n    pass\n").kind == ValueUseKind::kTested);
  CHECK(Use("if c['K']:\n    pass\n").kind == ValueUseKind::kTested);
  CHECK(Use("while c['K'] and n:\n    pass\n").kind == ValueUseKind::kTested);
  CHECK(Use("assert c['K'] == 16\n").kind == ValueUseKind::kTested);
  CHECK(Use("assert c['K'] % 16 == 0\n").kind == ValueUseKind::kDerived);
  CHECK(Use("x = 1 if c['K'] else 2\n").kind == ValueUseKind::kTested);
  CHECK(Use("ok = not c['K']\n").kind == ValueUseKind::kTested);
  CHECK(Use("y = [a for a in b if c['K']]\n").kind == ValueUseKind::kTested);
  CHECK(Use("c['K']\n").kind == ValueUseKind::kDiscarded);
  // A clamp's result dropped, or tested; any other use of it is a change
  // (`print(max(...))` too: a builtin computes from the clamped value).
  Seen s = Use("max(c['K'], 32)\n");
  CHECK(s.kind == ValueUseKind::kDiscarded);
  CHECK(s.changed);
  CHECK(Use("if max(c['K'], 32) > 64:\n    pass\n").kind == ValueUseKind::kTested);
  CHECK(Use("print(max(c['K'], 32))\n").kind == ValueUseKind::kChanged);
  // `v or 32` tested is a decision; as a value it is a change.
  CHECK(Use("if c['K'] or big:\n    pass\n").kind == ValueUseKind::kTested);
  // An assert's message is shown, not used.
  CHECK(Use("assert ok, c['K']\n").kind == ValueUseKind::kDiscarded);
}

TEST_CASE("a value bound to a name is aliased, changed or not") {
  Seen s = Use("def f(c):\n    bm = c['K']\n");
  CHECK(s.kind == ValueUseKind::kAliased);
  CHECK(s.at == "bm = c['K']");
  CHECK_FALSE(s.changed);
  s = Use("bm = max(c['K'], 16)\n");
  CHECK(s.kind == ValueUseKind::kAliased);
  CHECK(s.changed);
  // An alias read with its value changed already: a call gets the change.
  s = Use("kernel(bm)\n", "bm", true);
  CHECK(s.kind == ValueUseKind::kChanged);
  CHECK(Use("if bm > 4:\n    pass\n", "bm", true).kind == ValueUseKind::kTested);
}

TEST_CASE("a builtin's name rebound is still read as the builtin: changed, the safe side") {
  CHECK(Use("def max(a, b):\n    return a\nkernel(max(c['K'], 1))\n").kind ==
        ValueUseKind::kChanged);
}

TEST_CASE("a site is the bound value when it is the whole right side or a branch of it") {
  auto bound = [](const std::string& rhs, const std::string& site) {
    std::size_t b = rhs.find(site);
    REQUIRE(b != std::string::npos);
    return IsBoundValue(rhs, b, b + site.size());
  };
  CHECK(bound(" 64", "64"));
  CHECK(bound(" 128 if cap(80) else 64", "64"));
  CHECK(bound(" 128 if cap(80) else 64", "128"));
  CHECK(bound(" 1 if a else (2 if b else (64))", "64"));
  CHECK(bound(" 128 if cap(80) else 64", "128 if cap(80) else 64"));
  // Part of another quantity: an operand, an element, a call's argument, the test.
  CHECK_FALSE(bound(" [1, 2] + [8 * i for i in range(1, 64 // 8 + 1)]", "64 // 8 + 1"));
  CHECK_FALSE(bound(" 64 * 2", "64"));
  CHECK_FALSE(bound(" (64, 2)", "64"));
  CHECK_FALSE(bound(" f(64)", "64"));
  CHECK_FALSE(bound(" 1 if 64 else 2", "64"));
}

}  // namespace muh
