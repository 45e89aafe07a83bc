#include "engine/python/syntax_tree.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("valid Python parses without problems") {
  PythonParser parser;
  std::string src = "x = 1\nif x:\n    y = (x +\n         2)\n";
  SyntaxTree tree = parser.Parse(src);
  CHECK_FALSE(tree.HasError());
  CHECK_FALSE(tree.FirstProblem().has_value());
  CHECK(std::string(ts_node_type(tree.Root())) == "module");
}

TEST_CASE("indentation CPython reads as a TabError is a problem, and consistent tabs are none") {
  // Each verdict is CPython 3's (compile()).
  struct Case {
    const char* src;
    bool tab_error;
  };
  const Case cases[] = {
      {"if x:\n\tif y:\n\t\ta = 1\n\tb = 2\nelse:\n        c = 3\n", false},
      {"if x:\n\ta = 1\n        b = 2\n", true},
      {"if x:\n        a = 1\n\tb = 2\n", true},
      {"def f():\n\tif x:\n\t        a = 1\n\telse:\n\t\tb = 2\n", false},
      {"def f():\n    x = (1,\n\t2)\n\treturn x\n", true},
      {"def f():\n    s = '''\n\tq'''\n    return s\n", false},
      {"class A:\n\t@d\n\tdef f(self):\n\t\tpass\n", false},
      {"if x:\n    a = 1\n\t# c\n    b = 2\n", false},
      {"if x:\n  \ta = 1\n  \tb = 2\n", false},
      {"if x:\n  \ta = 1\n\tb = 2\n", true},
      {"try:\n\ta = 1\nexcept E:\n        b = 2\nfinally:\n    c = 3\n", false},
      // A line after a backslash continuation has no indentation of its own.
      {"def zz1():\n\tif x:\n\t\ta = 1; \\\n                b = 2\n\treturn 1\n", false},
      {"def zz2():\n\ta = 1; \\\nb = 2\n        c = 3\n", true},
      {"def f():\n\tif x:\n\t\ta = 1\n\\\n        b = 2\n", true},
  };
  PythonParser parser;
  for (const Case& c : cases) {
    CAPTURE(std::string(c.src));
    std::string src = c.src;
    SyntaxTree tree = parser.Parse(src);
    std::optional<SyntaxProblem> p = tree.FirstProblem();
    CHECK_MESSAGE(p.has_value() == c.tab_error, (p ? p->what : std::string()));
    if (p && c.tab_error) CHECK(p->what == "inconsistent use of tabs and spaces in indentation");
  }
}

TEST_CASE("a coding declaration whose reading may differ from UTF-8's is a problem") {
  // Each as CPython 3.11 reads it: under utf-7, `+AAo-` in a comment is a
  // newline and the statement after it runs (y is 3).
  PythonParser parser;
  auto problem = [&](const std::string& src) { return parser.Parse(src).HasError(); };
  CHECK(problem("# -*- coding: utf-7 -*-\ny = 2  # +AAo-y = 3\n"));
  CHECK(problem("#!/usr/bin/env python\n# -*- coding: utf-7 -*-\ny = 2\n"));
  CHECK(problem("\n# coding=utf_16\ny = 2\n"));
  CHECK(problem("# coding: latin-1\ns = '\xe9'\n"));  // a byte past ASCII, read as latin-1
  CHECK_FALSE(problem("# -*- coding: utf-8 -*-\ny = 2\n"));
  CHECK_FALSE(problem("# vim: set fileencoding=UTF_8 :\ny = 2\n"));
  CHECK_FALSE(problem("# coding: latin-1\ny = 2\n"));  // ASCII bytes read alike
  // After a line of code, CPython reads no declaration.
  CHECK_FALSE(problem("x = 1\n# -*- coding: utf-7 -*-\ny = 2\n"));
  CHECK_FALSE(problem("x = 1\n\n# coding: utf-7\n"));
  auto first = parser.Parse("# coding: utf-7\n").FirstProblem();
  REQUIRE(first);
  CHECK(first->offset == 2);
  CHECK(first->what.find("'utf-7'") != std::string::npos);
}

TEST_CASE("the first problem is located") {
  PythonParser parser;
  std::string src = "x = 1\ny = (2\nz = 3\n";
  SyntaxTree tree = parser.Parse(src);
  REQUIRE(tree.HasError());
  auto problem = tree.FirstProblem();
  REQUIRE(problem.has_value());
  CHECK(problem->offset >= 6);
}

}  // namespace muh

namespace muh {

namespace {
std::string Sexp(const SyntaxTree& t) {
  char* s = ts_node_string(t.Root());
  std::string out(s);
  free(s);  // NOLINT: libtree-sitter allocates with malloc
  return out;
}

// The bytes of `src` with `edits` (ascending) applied.
std::string Edited(const std::string& src, const std::vector<ByteEdit>& edits) {
  std::string out;
  std::size_t at = 0;
  for (const ByteEdit& e : edits) {
    out.append(src, at, e.offset - at);
    out.append(e.text);
    at = e.offset + e.length;
  }
  out.append(src, at, std::string::npos);
  return out;
}
}  // namespace

TEST_CASE("an incremental reparse gives the tree a full parse gives") {
  PythonParser parser;
  std::string old_src = "A = 1\nif x:\n    B = 64\nelse:\n    B = 128\nC = [1,\n     2]\n";
  SyntaxTree old_tree = parser.Parse(old_src);
  // Offsets into old_src: "1" at 4, "64" at 20, "128" at 37, "C" at 41, "2" at 54.
  REQUIRE(old_src.substr(37, 3) == "128");
  REQUIRE(old_src.substr(54, 1) == "2");
  const std::vector<std::vector<ByteEdit>> cases = {
      {{4, 1, "4096"}},
      {{20, 2, "32"}, {37, 3, "32 if y else 16"}},
      {{4, 1, "(\n  2)"}, {54, 1, "2, 3,\n     4"}},
      {{20, 2, "(1"}},  // breaks the syntax
      {{0, 0, "# head\n"}, {41, 0, "D = 0\n"}},
  };
  for (const auto& edits : cases) {
    const std::string new_src = Edited(old_src, edits);
    CAPTURE(new_src);
    SyntaxTree full = parser.Parse(new_src);
    SyntaxTree inc = parser.Reparse(old_tree, new_src, edits);
    CHECK(Sexp(inc) == Sexp(full));
    CHECK(inc.HasError() == full.HasError());
  }
}

TEST_CASE("CR-only line ends parse as LF, and the tree keeps the real bytes") {
  CHECK_FALSE(LoneCrAsLf("a = 1\r\nb = 2\n"));
  CHECK(LoneCrAsLf("a = 1\rb = 2\r\nc\r") == std::optional<std::string>("a = 1\nb = 2\r\nc\n"));
  const std::string src = "def f():\r    return 1\rKNOB = 512\r";
  PythonParser parser;
  SyntaxTree tree = parser.Parse(src);
  CHECK_FALSE(tree.HasError());
  CHECK(tree.bytes().data() == src.data());
  CHECK(ts_node_named_child_count(tree.Root()) == 2);
  // An incremental reparse after an edit on a CR-only line.
  const std::string edited = "def f():\r    return 1\rKNOB = 1024\r";
  SyntaxTree again = parser.Reparse(tree, edited, {ByteEdit{29, 3, "1024"}});
  CHECK_FALSE(again.HasError());
}

}  // namespace muh

namespace muh {

TEST_CASE("a match statement the grammar misreads as an annotation is a problem") {
  PythonParser parser;
  // CPython reads a match statement; tree-sitter-python 0.23.6 reads
  // `match[[True]]: case[[FLAG]]: pass`, an annotation no Python can write.
  std::string misread = "FLAG = False\nmatch [True]:\n    case [FLAG]:\n        pass\n";
  SyntaxTree tree = parser.Parse(misread);
  CHECK(tree.HasError());
  auto problem = tree.FirstProblem();
  REQUIRE(problem);
  CHECK(problem->offset == misread.find("match"));
  CHECK(problem->what.find("misreads") != std::string::npos);
  // Read as CPython reads them: no problem.
  for (const char* fine :
       {"match x:\n    case [FLAG]:\n        pass\n", "match [x]:\n    case 1:\n        pass\n",
        "match = re.match(p, s)\nx: int = 1\n", "def f[T: int](x: T) -> T:\n    return x\n"}) {
    CHECK_MESSAGE(!parser.Parse(fine).HasError(), fine);
  }
}

}  // namespace muh

namespace muh {

TEST_CASE("a name Python folds (NFKC) into another is a problem, and text elsewhere is not") {
  PythonParser parser;
  std::string folded =
      "HAS_TRITON = False\n\xE2\x84\x8C"
      "AS_TRITON = True\n";  // U+210C
  SyntaxTree t = parser.Parse(folded);
  REQUIRE(t.HasError());
  REQUIRE(t.FirstProblem());
  CHECK(t.FirstProblem()->offset == 19);
  CHECK(t.FirstProblem()->what.find("NFKC") != std::string::npos);
  // In a comment, a string or after a BOM: no name.
  std::string text =
      "\xEF\xBB\xBF"
      "x = '\xE2\x84\x8C'  # \xE6\x95\xB0\n";
  SyntaxTree u = parser.Parse(text);
  CHECK_FALSE(u.HasError());
}

TEST_CASE("a keyword the grammar reads as a name, or Python 2's print, is a problem") {
  PythonParser parser;
  struct Case {
    std::string source;
    std::string at;  // where the problem is
    std::string what;
  };
  // The first: `else` after a statement that closed the `if` reads as an
  // annotated assignment to a name `else`; CPython rejects the file.
  const Case cases[] = {
      {"if A:\n    K = 2\ne\nelse:\n    K = 3\n", "else", "`else` is a keyword"},
      {"x = pass\n", "pass", "`pass` is a keyword"},
      {"f(if=3)\n", "if=", "`if` is a keyword"},
      {"y = x.await\n", "await", "`await` is a keyword"},
      {"print x\n", "print", "Python 2 `print`"},
      {"exec 'x'\n", "exec", "Python 2 `exec`"},
  };
  for (const Case& c : cases) {
    CAPTURE(c.source);
    SyntaxTree t = parser.Parse(c.source);
    REQUIRE(t.HasError());
    REQUIRE(t.FirstProblem());
    CHECK(t.FirstProblem()->offset == c.source.find(c.at));
    CHECK(t.FirstProblem()->what.find(c.what) != std::string::npos);
  }
  // Keywords as keywords, in comments and strings, soft keywords as names,
  // and print and exec called: no problem.
  const std::string fine =
      "# if else pass\nimport os as o\nmatch = case = type = _ = 1\n"
      "s = 'if \\n else' + \"\"\"for\n in\"\"\"\nprint(x if y else z)\nexec('1')\n"
      "v = 0x1f if True else None\nlambda: (yield)\n";
  CHECK_FALSE(parser.Parse(fine).HasError());
}

TEST_CASE("the prefilter: bytes past ASCII only in comments and plain strings hold no name") {
  CHECK_FALSE(MayHoldFoldedName("x = 1  # \xE6\x95\xB0\ny = '\xE6\x95\xB0'\n"));
  CHECK_FALSE(MayHoldFoldedName("\"\"\"\xE6\x95\xB0\n\xE6\x95\xB0\"\"\"\nz = b\"\\\"\xE6\"\n"));
  CHECK_FALSE(
      MayHoldFoldedName("\xEF\xBB\xBF"
                        "x = 1\n"));
  CHECK(
      MayHoldFoldedName("\xE2\x84\x8C"
                        "AS = 1\n"));
  CHECK(
      MayHoldFoldedName("x = f'{\xE2\x84\x8C"
                        "AS}'\n"));                 // an f-string's field is code
  CHECK(MayHoldFoldedName("x = '\xE6\x95\xB0\n"));  // unterminated: unsure
}

}  // namespace muh
