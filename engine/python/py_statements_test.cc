#include "engine/python/py_statements.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "engine/python/syntax_tree.h"
#include "engine/query/query.h"
#include "tests/fixture_testing.h"

namespace muh {

namespace {
// The first line of each statement.
std::vector<std::string> Heads(const std::string& src) {
  auto spans = TopLevelStatements(src);
  REQUIRE(spans.has_value());
  std::vector<std::string> out;
  for (const StatementSpan& s : *spans) {
    std::string text = src.substr(s.begin, s.end - s.begin);
    out.push_back(text.substr(0, text.find('\n')));
  }
  return out;
}
}  // namespace

TEST_CASE("statements start in column 0 outside strings, brackets and continuations") {
  std::string src =
      "# header\n"
      "import os\n"
      "\n"
      "X = (1,\n"
      "2)\n"
      "Y = '''\n"
      "Z = 3\n"
      "'''\n"
      "W = 1 + \\\n"
      "2\n"
      "s = \"a # not a comment ( \\\" \"\n"
      "def f():\n"
      "    return 1\n"
      "# trailing comment\n"
      "  \n"
      "V = {'k': [1, 2],\n"
      "}\n";
  CHECK(Heads(src) == std::vector<std::string>{"import os", "X = (1,", "Y = '''", "W = 1 + \\",
                                               "s = \"a # not a comment ( \\\" \"",
                                               "def f():", "V = {'k': [1, 2],"});
}

TEST_CASE("compound statements and decorators stay whole") {
  std::string src =
      "if a:\n    x = 1\nelif b:\n    x = 2\nelse:\n    x = 3\n"
      "try:\n    pass\nexcept E:\n    pass\nfinally:\n    pass\n"
      "@dec\n@triton.autotune(\n    configs=[],\n)\ndef k():\n    pass\n"
      "elsewhere = 1\n";
  CHECK(Heads(src) == std::vector<std::string>{"if a:", "try:", "@dec", "elsewhere = 1"});
}

TEST_CASE("rows and columns of the spans") {
  std::string src = "a = 1\n\nb = (2,\n 3)\nc = 4";
  auto spans = TopLevelStatements(src);
  REQUIRE(spans);
  REQUIRE(spans->size() == 3);
  CHECK((*spans)[0].begin == 0);
  CHECK((*spans)[0].end == 7);
  CHECK((*spans)[0].begin_row == 0);
  CHECK((*spans)[0].end_row == 2);
  CHECK((*spans)[1].begin_row == 2);
  CHECK((*spans)[1].end_row == 4);
  CHECK((*spans)[2].end == src.size());
  CHECK((*spans)[2].end_row == 4);
  CHECK((*spans)[2].end_column == 5);
  std::string crlf = "a = (1,\r\n 2)\r\nb = 3\r\n";
  CHECK(Heads(crlf).size() == 2);
}

TEST_CASE("the lexer gives up rather than guess") {
  for (const char* bad : {"x = 'abc\ny = 1\n", "x = (1,\n", "x = '''abc\n", "x = 1)\n", "x = \\\n",
                          // Indented code first, which libtree-sitter parses (found by fuzz_query).
                          "# c\n    x = 1\n    w = z\n", "    x = 1\ny = 2\n"}) {
    CAPTURE(bad);
    CHECK_FALSE(TopLevelStatements(bad).has_value());
  }
  CHECK(TopLevelStatements("")->empty());
}

// The promise verify's search relies on: for a statement-local query, the
// statements holding its first required literal group, parsed alone, give
// exactly the matches of the whole file.
namespace {

// Over `files`: every statement-local bi100 query finds in the parse of the
// statements holding its first group's literals what it finds in the whole
// file. Counts the files parsed in part and the matches compared.
void CheckSameMatches(const std::vector<std::filesystem::path>& files, std::size_t* partial,
                      std::size_t* matches) {
  PythonParser parser;
  std::vector<std::unique_ptr<Query>> queries;
  for (const std::string& text : testing::Bi100Queries()) {
    QueryError err;
    auto q = Query::Compile(text, &err);
    REQUIRE_MESSAGE(q, err.message);
    if (q->StatementLocal() && !q->RequiredLiterals().empty()) queries.push_back(std::move(q));
  }
  CHECK(queries.size() >= 15);
  for (const auto& path : files) {
    CAPTURE(path.string());
    std::string src = testing::Slurp(path);
    if (!TopLevelStatements(src)) continue;
    SyntaxTree full = parser.Parse(src);
    for (const auto& q : queries) {
      const Query::LiteralGroup group = q->RequiredLiteralGroups()[0];
      std::vector<StatementLiteral> literals;
      for (const std::string& lit : group.texts) literals.push_back({lit, group.identifier});
      std::vector<QueryMatch> want = q->Run(full);
      std::vector<TSRange> ranges = *StatementsHolding(src, literals);
      if (ranges.empty()) {
        CHECK(want.empty());
        continue;
      }
      SyntaxTree part = parser.ParseRanges(src, ranges);
      if (part.HasError()) continue;  // the search parses the whole file then
      ++*partial;
      std::vector<QueryMatch> got = q->Run(part);
      REQUIRE(got.size() == want.size());
      for (std::size_t i = 0; i < got.size(); ++i) {
        REQUIRE(got[i].captures.size() == want[i].captures.size());
        for (std::size_t c = 0; c < got[i].captures.size(); ++c) {
          CHECK(got[i].captures[c].name == want[i].captures[c].name);
          CHECK(got[i].captures[c].begin == want[i].captures[c].begin);
          CHECK(got[i].captures[c].end == want[i].captures[c].end);
          CHECK(got[i].captures[c].text == want[i].captures[c].text);
        }
      }
      *matches += want.size();
    }
  }
}

}  // namespace

TEST_CASE("parsing only the statements holding the literals finds every match") {
  std::size_t partial = 0, matches = 0;
  CheckSameMatches(testing::FixturePython(), &partial, &matches);
  CHECK(partial > 50);
  CHECK(matches >= 17);
}

TEST_CASE("parsing only the statements holding the literals finds every match (real tree)") {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(MUHPATCH_SOURCE_DIR) / ".." / "shared/targets/enginex-vllm";
  if (!fs::is_directory(root)) {
    MESSAGE("skipped: ../shared/targets/enginex-vllm is absent");
    return;
  }
  std::vector<fs::path> files;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (e.is_regular_file() && e.path().extension() == ".py") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  std::size_t partial = 0, matches = 0;
  CheckSameMatches(files, &partial, &matches);
  CHECK(matches >= 17);
}

TEST_CASE("statement-local queries") {
  QueryError err;
  auto local = [&](const char* text) {
    auto q = Query::Compile(text, &err);
    REQUIRE_MESSAGE(q, err.message);
    return q->StatementLocal();
  };
  CHECK(local("(assignment left: (identifier) @n)"));
  CHECK(local("(module (expression_statement (assignment left: (identifier) @n)))"));
  CHECK_FALSE(local("(module (expression_statement) @a (function_definition) @b)"));
  CHECK_FALSE(local("(module . (expression_statement) @a)"));
  CHECK_FALSE(local("(module (expression_statement) @a) @m"));
  CHECK_FALSE(local("(_ (expression_statement) @a)"));
  CHECK_FALSE(local("(identifier) @a (integer) @b"));        // two patterns
  CHECK_FALSE(local("(block (expression_statement)* @a)"));  // libtree-sitter's matcher
}

TEST_CASE("a CR that no LF follows ends a statement's line") {
  auto spans = TopLevelStatements("x = 1\rdef f():\r    return 1\ry = 2\r");
  REQUIRE(spans);
  REQUIRE(spans->size() == 3);
  CHECK((*spans)[1].begin == 6);
  CHECK((*spans)[1].begin_row == 1);
  CHECK((*spans)[2].begin_row == 3);
}

}  // namespace muh
