#include "engine/search/statement_excerpt.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "engine/python/syntax_tree.h"
#include "engine/query/query.h"
#include "tests/fixture_testing.h"

namespace muh {

namespace {

std::vector<std::string> SpanTexts(const std::string& src) {
  PythonParser parser;
  SyntaxTree tree = parser.Parse(src);
  std::vector<std::string> out;
  for (const StatementSpan& s : TopLevelSpans(tree))
    out.push_back(src.substr(s.begin, s.end - s.begin));
  return out;
}

std::vector<std::pair<std::size_t, std::size_t>> Where(const std::vector<QueryMatch>& ms) {
  std::vector<std::pair<std::size_t, std::size_t>> out;
  for (const QueryMatch& m : ms) {
    for (const Capture& c : m.captures) out.emplace_back(c.begin, c.end);
  }
  return out;
}

std::optional<Excerpt> ExcerptHolding(const std::string& src,
                                      const std::vector<LiteralNeed>& needs) {
  PythonParser parser;
  return muh::ExcerptHolding(parser.Parse(src), needs);
}

}  // namespace

TEST_CASE("top-level statements: decorators, clauses and comments stay with theirs") {
  const std::string src =
      "# head\n"
      "import os\n"
      "@dec\n"
      "# between\n"
      "@other(1)\n"
      "def f():\n"
      "    x = 1\n"
      "# a comment at column 0 inside the body\n"
      "    return x\n"
      "if A:\n"
      "    pass\n"
      "elif B:\n"
      "    pass\n"
      "else:\n"
      "    pass\n"
      "try:\n"
      "    pass\n"
      "except E:\n"
      "    pass\n"
      "finally:\n"
      "    pass\n"
      "S = '''\n"
      "def not_a_statement():\n"
      "'''\n"
      "T = (1,\n"
      "2)\n";
  CHECK(SpanTexts(src) ==
        std::vector<std::string>{"# head\nimport os\n",
                                 "@dec\n# between\n@other(1)\ndef f():\n    x = 1\n# a comment at "
                                 "column 0 inside the body\n    return x\n",
                                 "if A:\n    pass\nelif B:\n    pass\nelse:\n    pass\n",
                                 "try:\n    pass\nexcept E:\n    pass\nfinally:\n    pass\n",
                                 "S = '''\ndef not_a_statement():\n'''\n", "T = (1,\n2)\n"});
  CHECK(SpanTexts("") == std::vector<std::string>{""});
  CHECK(SpanTexts("# only a comment\n") == std::vector<std::string>{"# only a comment\n"});
}

TEST_CASE("an excerpt keeps the statements that meet a need, in place") {
  const std::string src = "A = 1\r\ndef f():\r\n    return KNOB\r\n\r\nB = 'é'\nKNOB = 2\n";
  std::optional<Excerpt> e = ExcerptHolding(src, {{{"KNOB"}}});
  REQUIRE(e);
  CHECK(e->text == "     \r\ndef f():\r\n    return KNOB\r\n\r\n        \nKNOB = 2\n");
  CHECK(e->text.size() == src.size());
  CHECK(e->spans == 2);
  CHECK(e->kept == src.size() - 7 - 9);

  // Every group of a need: KNOB alone is not enough where f also needs `return`.
  e = ExcerptHolding(src, {{{"KNOB"}, {"return", "yield"}}});
  REQUIRE(e);
  CHECK(e->spans == 1);
  // Needs add up: a statement meeting any one is kept.
  e = ExcerptHolding(src, {{{"A = 1"}}, {{"B = '"}}});
  REQUIRE(e);
  CHECK(e->spans == 2);
  // No statement meets it: nothing to parse.
  e = ExcerptHolding(src, {{{"absent"}}});
  REQUIRE(e);
  CHECK(e->kept == 0);
  CHECK(e->text.find_first_not_of(" \r\n") == std::string::npos);
  // Whole file: every statement is needed, a need without groups, or an error at the top level.
  CHECK_FALSE(ExcerptHolding(src, {{{"=", "return"}}}));
  CHECK_FALSE(ExcerptHolding(src, {{}}));
  CHECK_FALSE(ExcerptHolding("A = '''never closed\nKNOB = 1\n", {{{"KNOB"}}}));
}

TEST_CASE(
    "an excerpt of a file with a syntax error only where its statements stand as Python has them") {
  // Brackets and quotes that error recovery guesses about: no excerpt.
  for (std::string src : {"x = (1,\nKNOB = 1\n", "x = 1)\nKNOB = 1\n", "x = 'open\nKNOB = 1\n",
                          "def f(:\n  pass\nKNOB = 1\n"}) {
    CHECK_MESSAGE(!ExcerptHolding(src, {{{"KNOB"}}}), src);
  }
  // An error inside one statement leaves the others: the knob's is kept alone.
  std::optional<Excerpt> e = ExcerptHolding("x = = 1\nKNOB = 1\n", {{{"KNOB"}}});
  REQUIRE(e);
  CHECK(e->text == "       \nKNOB = 1\n");
}

TEST_CASE("a query finds the same matches in the excerpt as in the whole file") {
  const std::string src =
      "import triton\n"
      "_PARTITION_SIZE = 512\n"
      "class C:\n"
      "    @triton.jit\n"
      "    def k(self):\n"
      "        _PARTITION_SIZE = 256\n"
      "def g():\n"
      "    return 1\n"
      "if X:\n"
      "    _PARTITION_SIZE = 1024\n"
      "else:\n"
      "    y = 2\n";
  QueryError err;
  auto q = Query::Compile(
      "((assignment left: (identifier) @n right: (integer) @v) (#eq? @n \"_PARTITION_SIZE\"))",
      &err);
  REQUIRE(q);
  REQUIRE(q->InsideOneStatement());
  std::optional<Excerpt> e = ExcerptHolding(src, {{{"_PARTITION_SIZE"}}});
  REQUIRE(e);
  CHECK(e->spans == 3);
  PythonParser parser;
  SyntaxTree whole = parser.Parse(src);
  SyntaxTree part = parser.Parse(e->text);
  CHECK_FALSE(part.HasError());
  auto where = [](const std::vector<QueryMatch>& ms) {
    std::vector<std::pair<std::size_t, std::string>> out;
    for (const QueryMatch& m : ms) out.emplace_back(m.Find("v")->begin, m.Find("v")->text);
    return out;
  };
  CHECK(where(q->Run(part)) == where(q->Run(whole)));
  CHECK(where(q->Run(part)).size() == 3);
}

TEST_CASE("every bi100 query finds in the excerpts what it finds in the whole files" *
          doctest::test_suite("slow")) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files = testing::FixturePython();
  const fs::path real = testing::RealTreePath();
  if (fs::exists(real / "vllm")) {
    for (const auto& e : fs::recursive_directory_iterator(real)) {
      if (e.is_regular_file() && e.path().extension() == ".py") files.push_back(e.path());
    }
  } else {
    MESSAGE("the real tree is absent: fixtures only");
  }
  std::vector<std::unique_ptr<Query>> queries;
  for (const std::string& text : testing::Bi100Queries()) {
    QueryError err;
    std::unique_ptr<Query> q = Query::Compile(text, &err);
    REQUIRE_MESSAGE(q, err.message);
    if (q->InsideOneStatement()) queries.push_back(std::move(q));
  }
  // 11 since our matcher takes `. (comment)* .`: the use_v1 override and
  // its done-when search excerpts too.
  REQUIRE(queries.size() >= 11);
  PythonParser parser;
  int excerpts = 0, with_matches = 0;
  for (const fs::path& path : files) {
    const std::string src = testing::Slurp(path);
    std::optional<SyntaxTree> whole;
    for (const auto& q : queries) {
      const std::vector<Query::LiteralGroup> groups = q->RequiredLiteralGroups();
      LiteralNeed need;
      for (const Query::LiteralGroup& g : groups) {
        auto& texts = need.emplace_back();
        for (const std::string& t : g.texts) texts.push_back(t);
      }
      std::optional<Excerpt> e = ExcerptHolding(src, {need});
      if (!e) continue;
      if (!whole) whole.emplace(parser.Parse(src));
      const auto want = Where(q->Run(*whole));
      if (e->kept == 0) {
        CHECK_MESSAGE(want.empty(), path.string() << ": " << q->source());
        continue;
      }
      SyntaxTree part = parser.Parse(e->text);
      if (part.HasError()) continue;  // the search then parses the whole file
      ++excerpts;
      with_matches += !want.empty();
      CHECK_MESSAGE(Where(q->Run(part)) == want, path.string() << ": " << q->source());
    }
  }
  CHECK(excerpts > 0);
  CHECK(with_matches > 0);
  MESSAGE(excerpts << " excerpts compared, " << with_matches << " with matches");
}

}  // namespace muh
