#include "engine/python/py_lines.h"

#include <doctest/doctest.h>

#include <string>

namespace muh {

TEST_CASE("logical lines nest by indentation and skip strings, comments and brackets") {
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
  auto lines = PyLines::Lex(src);
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

TEST_CASE("the lexer gives up on unbalanced brackets and open strings") {
  CHECK_FALSE(PyLines::Lex("x = (1,\n").has_value());
  CHECK_FALSE(PyLines::Lex("x = 'open\n").has_value());
  CHECK_FALSE(PyLines::Lex("x = 1)\n").has_value());
}

TEST_CASE("lines count every newline: in strings, after escapes and continuations") {
  std::string src =
      "a = '''x\n"
      "y'''  # c\n"
      "b = 'p\\\n"
      "q' + \\\n"
      "    1\n"
      "c = 2";
  auto lines = PyLines::Lex(src);
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

TEST_CASE("strings and comments hide brackets, quotes and '#' wherever they fall") {
  // Long enough that the lexer's 16-byte steps end inside strings, right
  // before a quote, and on an escaped quote.
  std::string src =
      "x = \"0123456789abcdef ' # ( [ { \\\" still in\"  # ) a comment\n"
      "y = '''a '' b \"\"\" c \\''' d'''.join((1,\n"
      "    2))\n"
      "z = 'ends with a backslash \\\\'\n"
      "w=(1)#c";
  auto lines = PyLines::Lex(src);
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

TEST_CASE("the lexer gives up on a string still open at the file's end") {
  CHECK_FALSE(PyLines::Lex("x = 1\ns = '''0123456789abcdef0123\n").has_value());
  CHECK_FALSE(PyLines::Lex("s = '''abc''").has_value());
  CHECK_FALSE(PyLines::Lex("s = 'abc\\'").has_value());
  CHECK_FALSE(PyLines::Lex("s = \"0123456789abcdef0123456789 '\n\"").has_value());
  CHECK(PyLines::Lex("s = 'abc\\\\'").has_value());
}

}  // namespace muh

namespace muh {

TEST_CASE("the statements of one line: ';' and a compound header's colon separate them") {
  std::string src =
      "import os; import a.b  # c; d\n"
      "if x: import y; z = {1: 2}\n"
      "f = lambda: g(';')\n"
      "v: Dict = w\n"
      "try: from m import (p,\n    q)\n";
  auto lines = PyLines::Lex(src);
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

}  // namespace muh
