#include "engine/python/statement_choice.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "engine/python/syntax_tree.h"
#include "engine/query/query.h"
#include "tests/fixture_testing.h"

namespace muh {

namespace {

// The kept parts as text, ranges joined by '|', then the own ranges.
std::string Parts(const std::string& src, const StatementChoice& choice) {
  std::optional<ChosenParts> parts = ChooseParts(src, choice);
  if (!parts) return "(gave up)";
  std::string out;
  for (const TSRange& r : parts->ranges) {
    out += src.substr(r.start_byte, r.end_byte - r.start_byte) + "|";
  }
  out += " own:";
  for (const auto& [b, e] : parts->own) out += " " + src.substr(b, e - b) + "|";
  return out;
}

StatementChoice Choice(const char* first, const char* any, bool nested = true) {
  StatementChoice c;
  c.first.push_back({first, true});
  c.any.push_back({first, true});
  c.any.push_back({any, true});
  c.nested = nested;
  return c;
}

}  // namespace

TEST_CASE("the choice keeps a run of a suite's statements and the headers above them") {
  const std::string src =
      "import os\n"
      "if V:\n"
      "    def a():\n"
      "        pass\n"
      "    @dec\n"
      "    def f(x,\n"
      "          y):\n"
      "        z = 1\n"
      "        B = 2\n"
      "        w = 3\n"
      "        C = B\n"
      "        return C\n"
      "    def b():\n"
      "        pass\n"
      "tail = 1\n";
  CHECK(Parts(src, Choice("f", "B")) ==
        "if V:\n|    @dec\n    def f(x,\n          y):\n|        B = 2\n        w = 3\n"
        "        C = B\n| own:         B = 2\n        w = 3\n        C = B\n|");
  // Not entered: the whole top-level statement, as with top-level choice.
  CHECK(Parts(src, Choice("f", "B", false)) == Parts(src, Choice("V", "nothing", false)));
  // A whole word only: `Bx` holds no `B`.
  CHECK(Parts("Bx = 1\nB = 2\n", Choice("B", "B")) == "B = 2\n| own: B = 2\n|");
  CHECK(Parts("Bx = 1\n", Choice("B", "B")) == " own:");
}

TEST_CASE("a suite holding no literal keeps its first statement, in the rest too when alone") {
  CHECK(Parts("def f():\n    a = 1\n    b = 2\n", Choice("f", "B")) ==
        "def f():\n    a = 1\n| own:     a = 1\n|");
  // The only statement of a suite stays in the rest, which would not parse
  // with an empty suite.
  CHECK(Parts("def f():\n    B = 1\n", Choice("f", "B")) == "def f():\n    B = 1\n| own:");
  // With two, the smaller stays.
  CHECK(Parts("def f():\n    B = 1\n    B = 22\n", Choice("f", "B")) ==
        "def f():\n    B = 1\n    B = 22\n| own:     B = 22\n|");
}

TEST_CASE("the choice enters only statements of one clause, indented with spaces") {
  const std::string with_else = "if f:\n    a = 1\n    B = 2\nelse:\n    c = 3\n";
  CHECK(Parts(with_else, Choice("f", "B")) == with_else + "| own: " + with_else + "|");
  const std::string tabs = "def f():\n\ta = 1\n\tB = 2\n";
  CHECK(Parts(tabs, Choice("f", "B")) == tabs + "| own: " + tabs + "|");
  const std::string one_line = "def f(): return B\n";
  CHECK(Parts(one_line, Choice("f", "B")) == one_line + "| own: " + one_line + "|");
  CHECK(Parts("    x = 1\n", Choice("x", "x")) == "(gave up)");
  CHECK(Parts("x = (1,\n", Choice("x", "x")) == "(gave up)");
}

namespace {

// Every bi100 query the plan would run on a file in part, checked as the
// plan would run it: the parts chosen for it alone, parsed, give exactly
// the matches of the whole file.
void CheckSameMatches(const std::vector<std::filesystem::path>& files, std::size_t* entered,
                      std::size_t* matches) {
  PythonParser parser;
  std::vector<std::unique_ptr<Query>> queries;
  for (const std::string& text : testing::Bi100Queries()) {
    QueryError err;
    auto q = Query::Compile(text, &err);
    REQUIRE_MESSAGE(q, err.message);
    if (q->StatementLocal() && !q->RequiredLiterals().empty()) queries.push_back(std::move(q));
  }
  for (const auto& path : files) {
    CAPTURE(path.string());
    std::string src = testing::Slurp(path);
    std::optional<SyntaxTree> full;
    for (const auto& q : queries) {
      CAPTURE(q->source());
      std::vector<Query::LiteralGroup> groups = q->RequiredLiteralGroups();
      StatementChoice choice;
      for (const std::string& t : groups[0].texts)
        choice.first.push_back({t, groups[0].identifier});
      for (const Query::LiteralGroup& g : groups) {
        for (const std::string& t : g.texts) choice.any.push_back({t, g.identifier});
      }
      choice.nested = q->SurvivesStatementPruning();
      std::optional<ChosenParts> parts = ChooseParts(src, choice);
      if (!parts) continue;
      if (!full) full.emplace(parser.Parse(src));
      std::vector<QueryMatch> want = q->Run(*full);
      if (parts->ranges.empty()) {
        CHECK(want.empty());
        continue;
      }
      SyntaxTree part = parser.ParseRanges(src, parts->ranges);
      if (part.HasError()) continue;  // the plan parses the whole file then
      std::size_t kept = 0;
      for (const TSRange& r : parts->ranges) kept += r.end_byte - r.start_byte;
      CHECK(kept <= src.size());
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
      if (choice.nested && !want.empty()) ++*entered;
      *matches += want.size();
    }
  }
}

}  // namespace

TEST_CASE("the parts chosen for a query give the matches of the whole file (fixtures)") {
  std::size_t entered = 0, matches = 0;
  CheckSameMatches(testing::FixturePython(), &entered, &matches);
  CHECK(matches >= 17);
  CHECK(entered >= 5);
}

TEST_CASE("the parts chosen for a query give the matches of the whole file (real tree)") {
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
  std::size_t entered = 0, matches = 0;
  CheckSameMatches(files, &entered, &matches);
  CHECK(matches >= 17);
  CHECK(entered >= 5);
}

}  // namespace muh
