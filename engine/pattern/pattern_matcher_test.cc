#include "engine/pattern/pattern_matcher.h"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "engine/pattern/code_pattern.h"

namespace muh {

namespace {

// "NAME=text ..." of the user's captures per match, matches joined by " | ".
std::string Found(const CodePattern& p, const std::string& code) {
  CompiledPattern c;
  CodePatternError e;
  REQUIRE_MESSAGE(CompileCodePattern(p, &c, &e), e.message);
  PythonParser parser;
  SyntaxTree tree = parser.Parse(code);
  std::vector<PatternTreeMatch> found;
  std::size_t budget = 0;
  REQUIRE(MatchPatternTrees(c.trees, tree, &found, &budget));
  CHECK(budget >= kPatternStepBudget);
  std::string out;
  for (const PatternTreeMatch& m : found) {
    std::string one;
    for (const PatternBinding& b : m.captures) {
      const std::string& name = c.trees[m.tree].captures[b.capture];
      if (name[0] == '_') continue;
      uint32_t at = ts_node_start_byte(b.node);
      one += (one.empty() ? "" : " ") + name + "=" +
             std::string(tree.bytes().substr(at, ts_node_end_byte(b.node) - at));
    }
    out += (out.empty() ? "" : " | ") + (one.empty() ? "-" : one);
  }
  return out;
}

std::string Finds(const std::string& pattern, const std::string& code) {
  return Found(CodePattern{pattern, "", {}}, code);
}

// Texts that query text would have read as syntax.
const std::vector<std::string> kTricky = {"(",
                                          ")",
                                          "()",
                                          "(_)",
                                          "((identifier) @x)",
                                          "\"",
                                          "'",
                                          "@value",
                                          "(#eq? @_p0 \"x\")",
                                          "[a b]",
                                          ". (",
                                          "; comment",
                                          "_p0",
                                          "#match? \")"};

// Names of node kinds and of the query language's parts.
const std::vector<std::string> kNames = {"identifier", "string", "string_content", "integer",
                                         "block",      "module", "ERROR",          "MISSING",
                                         "eq",         "match",  "value",          "p0"};

}  // namespace

TEST_CASE("an ordered node's children: each the next named child, the last the last") {
  CHECK(Found({"f($A, $B)", "", {}}, "f(1, 2)\nf(1, 2, 3)\nf(1)\n") == "A=1 B=2");
  CHECK(Found({"f($A, $$$)", "", {}}, "f(1, 2)\nf(1)\nf()\n") == "A=1 | A=1");
  CHECK(Found({"f($$$, $A)", "", {}}, "f(1, 2)\nf(3)\n") == "A=2 | A=3");
}

TEST_CASE("a run between children: every mapping, each set of captures once") {
  CHECK(Found({"f($$$, $A, $$$)", "", {}}, "f(1, 2, 3)\n") == "A=1 | A=2 | A=3");
  CHECK(Found({"f($$$, 1, $$$)", "", {}}, "f(1, 2, 1)\n") == "- | -");
}

TEST_CASE("tokens: an operator is part of the shape") {
  CHECK(Found({"a < $B", "", {}}, "a < 1\na <= 2\na > 3\n") == "B=1");
  CHECK(Found({"not $X", "", {}}, "not y\n") == "X=y");
}

TEST_CASE("a block's statements: in order, others between") {
  CodePattern p{"if $C:\n    x = 1\n    y = $V", "", {}};
  CHECK(Found(p, "if a:\n    x = 1\n    z = 0\n    y = 2\n") == "C=a V=2");
  CHECK(Found(p, "if a:\n    y = 2\n    x = 1\n") == "");
}

TEST_CASE("inside: any depth under the body, an expression never as a statement") {
  CodePattern p{"g($V)", "def f($$$):\n    $$$", {}};
  CHECK(Found(p, "def f():\n    g(1)\n    if a:\n        return g(2)\ng(3)\n") == "V=1 | V=2");
}

TEST_CASE("constraints: a pinned leaf, a metavariable twice, where:") {
  CHECK(Found({"$X = $X", "", {}}, "a = a\na = b\n") == "X=a");
  CodePattern p{"k = $V", "", {}};
  p.where = {{"V", WhereConstraint::Kind::kRange, {}, 2, 10}};
  CHECK(Found(p, "k = 1\nk = 5\nk = 11\nj = 5\n") == "V=5");
}

// Generated patterns: what a pattern's text holds inside a string literal
// or a comment, and what its metavariables are named, change nothing but
// the literal itself and the captures' names. (When patterns compiled to
// query text, parentheses, quotes and names like `identifier` were one
// more language that could get them wrong.)

TEST_CASE("parentheses and quotes in a string literal match that literal, nothing else") {
  for (const std::string& t : kTricky) {
    // Python strings holding `t`, quoted either way.
    std::string single, dbl;
    for (char ch : t) {
      single += ch == '\'' ? std::string("\\'") : std::string(1, ch);
      dbl += ch == '"' ? std::string("\\\"") : std::string(1, ch);
    }
    std::string code = "x = f('" + single + "', 1)\nx = f('plain', 2)\nx = f(\"" + dbl + "\", 3)\n";
    bool same = single == dbl;  // the quotes aside, the literal reads alike
    INFO(t);
    CHECK(Finds("x = f('" + single + "', $V)", code) == (same ? "V=1 | V=3" : "V=1"));
    CHECK(Finds("x = f(\"" + dbl + "\", $V)", code) == (same ? "V=1 | V=3" : "V=3"));
    CHECK(Finds("x = f('plain', $V)", code) == "V=2");
  }
}

TEST_CASE("parentheses and quotes in a comment change nothing") {
  std::string code = "y = g(1)\ny = g(2, 3)\nz = g(4)\n";
  std::string plain = Finds("y = g($V)", code);
  CHECK(plain == "V=1");
  for (const std::string& t : kTricky) {
    INFO(t);
    CHECK(Finds("y = g($V)  # " + t, code) == plain);
    CHECK(Finds("# " + t + "\ny = g($V)", code) == plain);
  }
}

TEST_CASE("a metavariable named like a node kind is a metavariable") {
  std::string code = "w = h(1, 'a')\nw = h(x, 'b')\nw = h(2)\n";
  for (const std::string& n : kNames) {
    INFO(n);
    CHECK(Finds("w = h($" + n + ", $S)", code) == n + "=1 S='a' | " + n + "=x S='b'");
    CHECK(Finds("w = h($" + n + ", '$S')", code) == n + "=1 S=a | " + n + "=x S=b");
    CHECK(Finds("$" + n + " = h($" + n + ")", "w = h(w)\nw = h(v)\n") == n + "=w");
  }
}

}  // namespace muh
