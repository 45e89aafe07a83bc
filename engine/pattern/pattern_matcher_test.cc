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

}  // namespace muh
