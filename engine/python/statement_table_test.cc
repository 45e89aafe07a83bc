#include "engine/python/statement_table.h"

#include <doctest/doctest.h>

#include <string>

namespace muh {

TEST_CASE("the table's lines nest by their blocks and skip strings, comments and brackets") {
  std::string src =
      "import os\n"
      "\n"
      "if FLAG:  # a comment\n"
      "    from a import (b,\n"
      "                   c)\n"
      "    x = '''\n"
      "import fake\n"
      "'''\n"
      "else:\n"
      "    y = 1 \\\n"
      "        + 2\n";
  auto lines = StatementTable::Build(src);
  REQUIRE(lines.has_value());
  const auto& ls = lines->lines();
  REQUIRE(ls.size() == 6);
  CHECK(lines->Keyword(0) == "import");
  CHECK(lines->Keyword(1) == "if");
  CHECK(lines->HeaderCondition(1) == "FLAG");
  CHECK(lines->Code(1) == "if FLAG:");
  CHECK(ls[2].parent == 1);
  CHECK(lines->Code(2) == "from a import (b,\n                   c)");
  CHECK(ls[3].line == 6);
  CHECK(ls[4].parent == -1);
  CHECK(lines->Keyword(4) == "else");
  CHECK(ls[5].parent == 4);
  CHECK(lines->IndexAt(src.find("import fake")) == 3);
  CHECK(lines->InString(src.find("import fake")));
  CHECK_FALSE(lines->InCode(src.find("a comment")));
  CHECK(lines->InCode(src.find("FLAG")));
  CHECK(lines->LineOf(src.find("+ 2")) == 11);
}

TEST_CASE("the table refuses a file whose parse has an error: unbalanced brackets, open strings") {
  for (const char* src :
       {"x = (1,\n", "x = 'open\n", "x = 1)\n", "x = 1\ns = '''0123456789abcdef0123\n",
        "s = '''abc''", "s = 'abc\\'", "s = \"0123456789abcdef0123456789 '\n\""}) {
    CHECK_MESSAGE(!StatementTable::Build(src).has_value(), src);
  }
  CHECK(StatementTable::Build("s = 'abc\\\\'").has_value());
}

TEST_CASE("the table counts every newline: in strings, after escapes and continuations") {
  std::string src =
      "a = '''x\n"
      "y'''  # c\n"
      "b = 'p\\\n"
      "q' + \\\n"
      "    1\n"
      "c = 2";
  auto lines = StatementTable::Build(src);
  REQUIRE(lines.has_value());
  REQUIRE(lines->lines().size() == 3);
  CHECK(lines->lines()[1].line == 3);
  CHECK(lines->lines()[2].line == 6);
  CHECK(lines->LineOf(0) == 1);
  CHECK(lines->LineOf(src.find("y'''")) == 2);
  CHECK(lines->LineOf(src.find("q'")) == 4);
  CHECK(lines->LineOf(src.find("1\n")) == 5);
  CHECK(lines->LineOf(src.find("c =")) == 6);
  CHECK(lines->LineOf(src.size() + 10) == 6);
}

TEST_CASE("the table's strings and comments hide brackets, quotes and '#' wherever they fall") {
  std::string src =
      "x = \"0123456789abcdef ' # ( [ { \\\" still in\"  # ) a comment\n"
      "y = '''a '' b \"\"\" c \\''' d'''.join((1,\n"
      "    2))\n"
      "z = 'ends with a backslash \\\\'\n"
      "w=(1)#c";
  auto lines = StatementTable::Build(src);
  REQUIRE(lines.has_value());
  REQUIRE(lines->lines().size() == 4);
  CHECK(lines->Code(0) == "x = \"0123456789abcdef ' # ( [ { \\\" still in\"");
  CHECK(lines->InString(src.find("( [ {")));
  CHECK_FALSE(lines->InCode(src.find(") a comment")));
  CHECK(lines->Code(1) == "y = '''a '' b \"\"\" c \\''' d'''.join((1,\n    2))");
  CHECK(lines->InString(src.find("d'''")));
  CHECK(lines->InCode(src.find(".join")));
  CHECK(lines->lines()[2].line == 4);
  CHECK(lines->InString(src.find("backslash")));
  CHECK(lines->InCode(src.find("w=")));
  CHECK(lines->Code(3) == "w=(1)");
  CHECK_FALSE(lines->InCode(src.size() - 1));
}

TEST_CASE("a line's statements are split at each semicolon and at a compound header's colon") {
  std::string src =
      "import os; import a.b  # c; d\n"
      "if x: import y; z = {1: 2}\n"
      "f = lambda: g(';')\n"
      "v: Dict = w\n"
      "try: from m import (p,\n    q)\n"
      "except ImportError: pass\n";
  auto lines = StatementTable::Build(src);
  REQUIRE(lines.has_value());
  CHECK(lines->StatementAt(0, src.find("os")) == "import os");
  CHECK(lines->StatementAt(0, src.find("a.b")) == "import a.b");
  std::size_t begin = 0;
  CHECK(lines->StatementAt(1, src.find("y;"), &begin) == "import y");
  CHECK(begin == src.find("import y"));
  CHECK(lines->StatementAt(1, src.find("{1")) == "z = {1: 2}");
  CHECK(lines->StatementAt(1, src.find("x:")) == "if x");
  CHECK(lines->StatementAt(2, src.find("g(")) == "f = lambda: g(';')");
  CHECK(lines->StatementAt(3, src.find("w\n")) == "v: Dict = w");
  CHECK(lines->StatementAt(4, src.find("q)")) == "from m import (p,\n    q)");
  CHECK(lines->HasSeveralStatements(0));
  CHECK(lines->HasSeveralStatements(1));
  CHECK_FALSE(lines->HasSeveralStatements(2));
  CHECK_FALSE(lines->HasSeveralStatements(3));
  CHECK(lines->HasSeveralStatements(4));
}

TEST_CASE("a dedent to a column no enclosing block starts at is refused, as Python does") {
  // tree-sitter-python reads `b` as a top-level statement without an error.
  CHECK_FALSE(StatementTable::Build("if x:\n        a\n    b\n").has_value());
  CHECK(StatementTable::Build("if x:\n        a\nb\n").has_value());
}

TEST_CASE("where the lexer it replaced read Python wrongly") {
  SUBCASE("`match` and `case` are soft keywords: `match: int = 3` is one statement") {
    auto t = StatementTable::Build("match: int = 3\n");
    REQUIRE(t.has_value());
    CHECK_FALSE(t->HasSeveralStatements(0));
    CHECK(t->StatementAt(0, 8) == "match: int = 3");
  }
  SUBCASE("a lambda in a header: its colon is no header's") {
    std::string src = "if lambda: 0: pass\n";
    auto t = StatementTable::Build(src);
    REQUIRE(t.has_value());
    CHECK(t->HeaderCondition(0) == "lambda: 0");
    CHECK(t->StatementAt(0, src.find("0")) == "if lambda: 0");
    CHECK(t->StatementAt(0, src.find("pass")) == "pass");
  }
  SUBCASE("an f-string may hold its own quote in a replacement field (Python 3.12)") {
    std::string src = "x = f\"{a[\"k\"]}\"\ny = 1\n";
    auto t = StatementTable::Build(src);
    REQUIRE(t.has_value());
    CHECK(t->InString(src.find("k")));
    CHECK(t->StringAt(src.find("k")) == std::make_pair(std::uint32_t{5}, std::uint32_t{15}));
  }
  SUBCASE("CR alone ends a line") {
    std::string src = "x = 1\ry = 2\rif x:\r    z = 3\r";
    auto t = StatementTable::Build(src);
    REQUIRE(t.has_value());
    REQUIRE(t->lines().size() == 4);
    CHECK(t->Code(1) == "y = 2");
    CHECK(t->lines()[3].parent == 2);
    CHECK(t->lines()[3].line == 4);
    CHECK(t->LineOf(src.find("z")) == 4);
  }
}

TEST_CASE("logical lines: a semicolon and backslashes join, decorators and clauses stand alone") {
  std::string src =
      "x = 1; \\\n"
      "y = 2\n"
      "@d  # c\n"
      "@e(1,\n"
      "  2)\n"
      "def f(): pass\n"
      "match x:\n"
      "    case 1: y = 2\n"
      "    case _:\n"
      "        z = 3\n"
      "try:\n"
      "    a\n"
      "except E as e: b\n"
      "finally:\n"
      "    c  # d\n";
  auto t = StatementTable::Build(src);
  REQUIRE(t.has_value());
  const auto& ls = t->lines();
  REQUIRE(ls.size() == 13);
  CHECK(t->Code(0) == "x = 1; \\\ny = 2");
  CHECK(t->HasSeveralStatements(0));
  CHECK(t->StatementAt(0, src.find("y =")) == "\\\ny = 2");  // blanks trimmed, not a backslash
  CHECK(t->Code(1) == "@d");
  CHECK(t->Code(2) == "@e(1,\n  2)");
  CHECK(t->Code(3) == "def f(): pass");
  CHECK(t->HeaderCondition(3) == "f()");
  CHECK(ls[3].parent == -1);
  CHECK(t->Keyword(5) == "case");
  CHECK(ls[5].parent == 4);
  CHECK(t->HeaderCondition(5) == "1");
  CHECK(ls[7].parent == 6);
  CHECK(ls[7].indent == 8);
  CHECK(t->Code(10) == "except E as e: b");
  CHECK(ls[10].parent == -1);
  CHECK(ls[12].parent == 11);
  CHECK(t->Code(12) == "c");
  CHECK(ls[12].end == src.size());
}

TEST_CASE("code before and after an offset skips blanks, continuations and comments") {
  std::string src = "x = {\n    'a': 1,  # one\n    # alone\n    'b': 2 \\\n}\n";
  auto t = StatementTable::Build(src);
  REQUIRE(t);
  std::size_t b = src.find("'b'");
  CHECK(t->CodeBefore(b) == src.find(",  #") + 1);
  std::size_t two = src.find("2 ") + 1;
  CHECK(src[t->CodeAfter(two)] == '}');
  CHECK(t->CodeBefore(0) == 0);
  CHECK(t->CodeAfter(src.size()) == src.size());
}

}  // namespace muh
