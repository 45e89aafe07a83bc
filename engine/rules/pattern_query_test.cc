#include "engine/rules/pattern_query.h"

#include <doctest/doctest.h>

#include "engine/pattern/code_pattern.h"

namespace muh {

namespace {

PatternQuery Compiled(const std::vector<std::string>& alternatives, const CodePattern& p) {
  CompiledPattern c;
  CodePatternError e;
  std::size_t failing = 0;
  REQUIRE_MESSAGE(CompileCodePatterns(alternatives, p, &c, &e, &failing), e.message);
  return PatternQuery(c.trees);
}

}  // namespace

TEST_CASE("a pattern's captures, its literals, and where its matches begin") {
  CodePattern p;
  p.where = {{"V", WhereConstraint::Kind::kAnyOf, {"1", "2"}}};
  PatternQuery q = Compiled({"config['K'] = $V"}, p);
  CHECK(q.capture_names() == std::vector<std::string>{"_p0", "_p1", "V"});
  CHECK(q.HasCapture("V"));
  std::vector<SiteQuery::LiteralGroup> groups = q.RequiredLiteralGroups();
  REQUIRE(groups.size() == 3);
  CHECK(groups[0].texts == std::vector<std::string>{"config"});
  CHECK(groups[0].identifier);
  CHECK(groups[1].texts == std::vector<std::string>{"K"});
  CHECK(!groups[1].identifier);  // a string's content
  CHECK(groups[2].texts == std::vector<std::string>{"1", "2"});
  CHECK(q.InsideOneStatement());
  PythonParser parser;
  SyntaxTree tree = parser.Parse("x = 0\nconfig['K'] = 2\nconfig['K'] = 3\n");
  std::vector<QueryMatch> found = q.Run(tree);
  REQUIRE(found.size() == 1);
  CHECK(found[0].Begin() == 6);
  CHECK(found[0].Find("V")->text == "2");
  CHECK(found[0].Find("V")->node_type == "integer");
}

TEST_CASE("alternatives without a shared inside: one tree each, no literal required") {
  PatternQuery q = Compiled({"a < $V", "a <= $V"}, {});
  CHECK(q.trees().size() == 2);
  CHECK(q.RequiredLiteralGroups().empty());
  PythonParser parser;
  SyntaxTree tree = parser.Parse("b = a <= 2\nc = a < 1\n");
  std::vector<QueryMatch> found = q.Run(tree);
  REQUIRE(found.size() == 2);
  CHECK(found[0].Find("V")->text == "2");  // in file order, whichever tree found it
}

TEST_CASE("a pattern that finds nothing names the part of it still there") {
  PatternQuery q = Compiled({"BLOCK = $V"}, {"", "def kernel($$$):\n    $$$", {}});
  PythonParser parser;
  SyntaxTree tree = parser.Parse("def other():\n    BLOCK = 1\n");
  std::optional<NoMatchReason> why = q.ExplainNoMatch(tree);
  REQUIRE(why);
  CHECK(!why->matching_part.empty());
  CHECK(why->matching_at == std::vector<std::size_t>{17});
}

}  // namespace muh
