#include "engine/rules/tier_rule.h"

#include <doctest/doctest.h>

#include "engine/pattern/code_pattern.h"
#include "engine/rules/pattern_query.h"

namespace muh {

TEST_CASE("a tier statement's pattern matches it in the if, any elif and the else") {
  // Any condition that names the variable: the planner reads the chain and
  // says which clause is not `numel <= BOUND`.
  CompiledPattern compiled;
  CodePatternError e;
  REQUIRE(CompileCodePattern({"x = $value", "", {}}, &compiled, &e));
  REQUIRE(compiled.trees.size() == 1);
  PatternTree tier = TierPattern("numel", compiled.trees[0]);
  CHECK(tier.root.type == "if_statement");
  CHECK(tier.captures.front() == "_pcond");
  PatternQuery q({tier});
  std::string code =
      "x = 0\n"
      "if numel <= 64:\n"
      "    x = 1\n"
      "elif numel <= 1024:\n"
      "    y = 2\n"
      "    x = 2\n"
      "else:\n"
      "    x = 3\n"
      "if other <= 64:\n"
      "    x = 4\n"
      "if numel_total <= 64:\n"
      "    x = 5\n"
      "if numel:\n"
      "    if a:\n"
      "        x = 6\n";
  PythonParser parser;
  SyntaxTree tree = parser.Parse(code);
  std::string values;
  for (const QueryMatch& m : q.Run(tree)) values += m.Find("value")->text;
  CHECK(values == "123");
}

TEST_CASE("a tier family that finds nothing says where its chain's variable still is") {
  CompiledPattern compiled;
  CodePatternError e;
  REQUIRE(CompileCodePattern({"x = $value", "", {}}, &compiled, &e));
  PatternQuery q({TierPattern("numel", compiled.trees[0])});
  PythonParser parser;
  SyntaxTree tree = parser.Parse("def f(numel):\n    return numel\n");
  std::optional<NoMatchReason> why = q.ExplainNoMatch(tree);
  REQUIRE(why);
  CHECK(why->matching_part == "numel");
  CHECK(!why->matching_at.empty());
}

}  // namespace muh
