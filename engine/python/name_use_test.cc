#include "engine/python/name_use.h"

#include <doctest/doctest.h>

#include <cctype>
#include <string>
#include <vector>

namespace muh {

namespace {

// The use of the `nth` (from 0) whole-word occurrence of `word` in the
// one-file program `source`.
NameUse Use(const std::string& source, const std::string& word, int nth = 0) {
  PythonParser parser;
  SyntaxTree tree = parser.Parse(source);
  std::size_t at = std::string::npos;
  std::size_t from = 0;
  for (int k = 0; k <= nth; ++k) {
    for (;;) {
      at = source.find(word, from);
      REQUIRE(at != std::string::npos);
      from = at + 1;
      auto word_char = [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
      };
      bool left = at == 0 || !word_char(source[at - 1]);
      bool right = at + word.size() >= source.size() || !word_char(source[at + word.size()]);
      if (left && right) break;
    }
  }
  std::vector<TSNode> path = PathTo(tree.Root(), static_cast<std::uint32_t>(at),
                                    static_cast<std::uint32_t>(at + word.size()));
  return UseOf(path);
}

// As Use, for the attribute or subscript `text` (its first occurrence).
NameUse UseOfExpression(const std::string& source, const std::string& text) {
  PythonParser parser;
  SyntaxTree tree = parser.Parse(source);
  std::size_t at = source.find(text);
  REQUIRE(at != std::string::npos);
  return UseOf(PathTo(tree.Root(), static_cast<std::uint32_t>(at),
                      static_cast<std::uint32_t>(at + text.size())));
}

}  // namespace

TEST_CASE("the lone target of an assignment is assigned, and a chain, a pattern or += rebinds") {
  CHECK(Use("FLAG = True\n", "FLAG") == NameUse::kAssign);
  CHECK(Use("FLAG: bool = True\n", "FLAG") == NameUse::kAssign);
  CHECK(Use("FLAG: bool = True\n", "bool") == NameUse::kRead);
  // An annotation alone binds nothing at run time; it is counted as the
  // target all the same, and has no value (the readers then take none).
  CHECK(Use("FLAG: bool\n", "FLAG") == NameUse::kAssign);
  // The judge's finding: `x = FLAG = True` rebinds FLAG, first and middle.
  CHECK(Use("x = FLAG = True\n", "FLAG") == NameUse::kRebind);
  CHECK(Use("x = FLAG = True\n", "x") == NameUse::kRebind);
  CHECK(Use("x = FLAG = y = True\n", "FLAG") == NameUse::kRebind);
  CHECK(Use("(FLAG) = True\n", "FLAG") == NameUse::kRebind);
  CHECK(Use("FLAG, x = True, 1\n", "FLAG") == NameUse::kRebind);
  CHECK(Use("(x, [FLAG]) = (1, [True])\n", "FLAG") == NameUse::kRebind);
  CHECK(Use("x, *FLAG = 1, 2\n", "FLAG") == NameUse::kRebind);
  CHECK(Use("FLAG |= True\n", "FLAG") == NameUse::kRebind);
  CHECK(Use("x = FLAG\n", "FLAG") == NameUse::kRead);
  CHECK(Use("x = FLAG, 1\n", "FLAG") == NameUse::kRead);
  CHECK(Use("d[FLAG] = 1\n", "FLAG") == NameUse::kRead);
}

TEST_CASE("every other binding statement binds, and says which") {
  CHECK(Use("for FLAG in xs:\n    pass\n", "FLAG") == NameUse::kRebind);
  CHECK(Use("for x in FLAG:\n    pass\n", "FLAG") == NameUse::kRead);
  CHECK(Use("with c as FLAG:\n    pass\n", "FLAG") == NameUse::kRebind);
  CHECK(Use("with c as (a, FLAG):\n    pass\n", "FLAG") == NameUse::kRebind);
  CHECK(Use("with FLAG as c:\n    pass\n", "FLAG") == NameUse::kRead);
  CHECK(Use("try:\n    pass\nexcept E as FLAG:\n    pass\n", "FLAG") == NameUse::kRebind);
  CHECK(Use("try:\n    pass\nexcept FLAG as e:\n    pass\n", "FLAG") == NameUse::kRead);
  CHECK(Use("if (FLAG := f()):\n    pass\n", "FLAG") == NameUse::kRebind);
  CHECK(Use("match v:\n    case FLAG:\n        pass\n", "FLAG") == NameUse::kRebind);
  CHECK(Use("match v:\n    case [FLAG, *r]:\n        pass\n", "FLAG") == NameUse::kRebind);
  CHECK(Use("match v:\n    case {'k': FLAG}:\n        pass\n", "FLAG") == NameUse::kRebind);
  CHECK(Use("match v:\n    case P(x=FLAG):\n        pass\n", "FLAG") == NameUse::kRebind);
  CHECK(Use("match v:\n    case [x] as FLAG:\n        pass\n", "FLAG") == NameUse::kRebind);
  CHECK(Use("match FLAG:\n    case _ if FLAG:\n        pass\n", "FLAG") == NameUse::kRead);
  CHECK(Use("match FLAG:\n    case _ if FLAG:\n        pass\n", "FLAG", 1) == NameUse::kRead);
  CHECK(Use("type FLAG = int\n", "FLAG") == NameUse::kRebind);
  CHECK(Use("del FLAG\n", "FLAG") == NameUse::kDelete);
  CHECK(Use("del x, (FLAG)\n", "FLAG") == NameUse::kDelete);
  CHECK(Use("def f():\n    global FLAG\n", "FLAG") == NameUse::kDeclare);
  CHECK(Use("def FLAG():\n    pass\n", "FLAG") == NameUse::kDefine);
  CHECK(Use("class FLAG(Base):\n    pass\n", "FLAG") == NameUse::kDefine);
  CHECK(Use("class C(FLAG):\n    pass\n", "FLAG") == NameUse::kRead);
  CHECK(Use("[FLAG for FLAG in xs]\n", "FLAG", 1) == NameUse::kComprehend);
  CHECK(Use("[FLAG for FLAG in xs]\n", "FLAG") == NameUse::kRead);
}

TEST_CASE("imports bind the name they bind, and their module paths bind none") {
  CHECK(Use("import FLAG\n", "FLAG") == NameUse::kImport);
  CHECK(Use("import FLAG.sub\n", "FLAG") == NameUse::kImport);
  CHECK(Use("import pkg.FLAG\n", "FLAG") == NameUse::kNotAName);
  CHECK(Use("import m as FLAG\n", "FLAG") == NameUse::kImport);
  CHECK(Use("import FLAG as m\n", "FLAG") == NameUse::kNotAName);
  CHECK(Use("from m import FLAG\n", "FLAG") == NameUse::kImport);
  CHECK(Use("from m import (x, FLAG)\n", "FLAG") == NameUse::kImport);
  CHECK(Use("from m import x as FLAG\n", "FLAG") == NameUse::kImport);
  CHECK(Use("from m import FLAG as x\n", "FLAG") == NameUse::kNotAName);
  CHECK(Use("from FLAG import x\n", "FLAG") == NameUse::kNotAName);
  CHECK(Use("from .FLAG import x\n", "FLAG") == NameUse::kNotAName);
  CHECK(Use("from . import FLAG\n", "FLAG") == NameUse::kImport);
}

TEST_CASE("parameters, keyword names and attribute fields bind no module name") {
  CHECK(Use("def f(FLAG):\n    pass\n", "FLAG") == NameUse::kParameter);
  CHECK(Use("def f(FLAG: int = 2, *a, **k):\n    pass\n", "FLAG") == NameUse::kParameter);
  CHECK(Use("def f(*FLAG: int):\n    pass\n", "FLAG") == NameUse::kParameter);
  CHECK(Use("def f(x=FLAG):\n    pass\n", "FLAG") == NameUse::kRead);
  CHECK(Use("def f(x) -> FLAG:\n    pass\n", "FLAG") == NameUse::kRead);
  CHECK(Use("g = lambda FLAG=1: FLAG\n", "FLAG") == NameUse::kParameter);
  CHECK(Use("g = lambda FLAG=1: FLAG\n", "FLAG", 1) == NameUse::kRead);
  CHECK(Use("f(FLAG=1)\n", "FLAG") == NameUse::kNotAName);
  CHECK(Use("f(x=FLAG)\n", "FLAG") == NameUse::kRead);
  CHECK(Use("m.FLAG = 1\n", "FLAG") == NameUse::kNotAName);
  CHECK(Use("FLAG.x = 1\n", "FLAG") == NameUse::kRead);
}

TEST_CASE("reads in every expression") {
  for (const char* src : {"if FLAG:\n    pass\n",
                          "while not FLAG:\n    pass\n",
                          "x = 1 if FLAG else 2\n",
                          "print(f'{FLAG}')\n",
                          "print(*FLAG)\n",
                          "f(**FLAG)\n",
                          "assert FLAG, 'm'\n",
                          "raise FLAG\n",
                          "x = {FLAG: 1}\n",
                          "x = {1, FLAG}\n",
                          "x = (y for y in FLAG)\n",
                          "@FLAG\ndef f():\n    pass\n",
                          "async def f():\n    await FLAG\n",
                          "def f():\n    yield FLAG\n",
                          "def f():\n    return FLAG\n",
                          "x = a[1:FLAG]\n",
                          "x = FLAG and y or -z\n",
                          "x = [a for a in b if FLAG]\n",
                          "FLAG\n",
                          "FLAG()\n"}) {
    CAPTURE(src);
    CHECK(Use(src, "FLAG") == NameUse::kRead);
  }
}

TEST_CASE("an attribute or subscript stores where an identifier would bind") {
  CHECK(UseOfExpression("t.FLAG = True\n", "t.FLAG") == NameUse::kAssign);
  CHECK(UseOfExpression("x = t.FLAG = True\n", "t.FLAG") == NameUse::kRebind);
  CHECK(UseOfExpression("t.FLAG += 1\n", "t.FLAG") == NameUse::kRebind);
  CHECK(UseOfExpression("for t.FLAG in xs:\n    pass\n", "t.FLAG") == NameUse::kRebind);
  // A comprehension's `for` stores to the attribute, whatever the scope.
  CHECK(Binds(UseOfExpression("_ = [0 for t.FLAG in [True]]\n", "t.FLAG")));
  CHECK(UseOfExpression("with c as t.FLAG:\n    pass\n", "t.FLAG") == NameUse::kRebind);
  CHECK(UseOfExpression("del t.FLAG\n", "t.FLAG") == NameUse::kDelete);
  CHECK(UseOfExpression("print(t.FLAG)\n", "t.FLAG") == NameUse::kRead);
  CHECK(UseOfExpression("t.FLAG.x = 1\n", "t.FLAG") == NameUse::kRead);
  CHECK(UseOfExpression("if t.FLAG == 1:\n    pass\n", "t.FLAG") == NameUse::kRead);
}

TEST_CASE("a position not listed, or nested past the bound, may bind") {
  // A syntax error's ERROR node is no position the whitelist knows.
  CHECK(Binds(Use("FLAG = = 1\n", "FLAG")));
  std::string deep = "x = " + std::string(100, '(') + "FLAG" + std::string(100, ')') + ", 1\n";
  CHECK(Use(deep, "FLAG") == NameUse::kUnknown);  // 100 brackets: past the 64 steps
}

}  // namespace muh

namespace muh {

TEST_CASE("what may bind any name of a module") {
  auto wide = [](const std::string& source, const std::string& text) {
    PythonParser parser;
    SyntaxTree tree = parser.Parse(source);
    std::size_t at = source.find(text);
    REQUIRE(at != std::string::npos);
    return NamespaceWide(tree, PathTo(tree.Root(), static_cast<std::uint32_t>(at),
                                      static_cast<std::uint32_t>(at + text.size())));
  };
  CHECK(wide("globals()['X'] = 1\n", "globals"));
  CHECK(wide("g = globals\n", "globals"));
  CHECK(wide("def f():\n    exec(s)\n", "exec"));
  CHECK(wide("def f():\n    return eval(s)\n", "eval"));
  CHECK(wide("locals()['X'] = 1\n", "locals"));
  CHECK_FALSE(wide("def f():\n    print(locals())\n", "locals"));
  CHECK(wide("from m import *\n", "*"));
  CHECK(wide("sys.modules[__name__].X = 1\n", "sys.modules"));
  CHECK(wide("m.__dict__['X'] = 1\n", "m.__dict__"));
  CHECK(wide("importlib.import_module(__name__)\n", "__name__"));
  CHECK_FALSE(wide("logger = init_logger(__name__)\n", "__name__"));
  CHECK_FALSE(wide("x.globals = 1\n", "globals"));
}

TEST_CASE("a case pattern captures lone names, and values, class names and keywords bind nothing") {
  const std::string m =
      "match x:\n    case A.B | P(k=c) | {D.E: d} | Q(e) | [*f] | str() as g:\n"
      "        pass\n";
  CHECK(Use(m, "A") == NameUse::kRead);
  CHECK(Use(m, "B") == NameUse::kNotAName);
  CHECK(Use(m, "P") == NameUse::kRead);
  CHECK(Use(m, "k") == NameUse::kNotAName);
  CHECK(Use(m, "c") == NameUse::kRebind);
  CHECK(Use(m, "D") == NameUse::kRead);
  CHECK(Use(m, "d") == NameUse::kRebind);
  CHECK(Use(m, "Q") == NameUse::kRead);
  CHECK(Use(m, "e") == NameUse::kRebind);
  CHECK(Use(m, "f") == NameUse::kRebind);
  CHECK(Use(m, "g") == NameUse::kRebind);
}

namespace {

// "name:line" of every binding ForEachScopeBinding reports in the first
// def of `source` (or the module, when there is none).
std::string ScopeBindings(const std::string& source) {
  PythonParser parser;
  SyntaxTree tree = parser.Parse(source);
  TSNode scope = tree.Root();
  for (uint32_t i = 0; i < ts_node_named_child_count(scope); ++i) {
    TSNode c = ts_node_named_child(scope, i);
    if (std::string_view(ts_node_type(c)) == "function_definition") {
      scope = c;
      break;
    }
  }
  std::string out;
  ForEachScopeBinding(scope, [&](const std::vector<TSNode>& path, NameUse) {
    TSNode n = path.back();
    if (!out.empty()) out += ' ';
    out += source.substr(ts_node_start_byte(n), ts_node_end_byte(n) - ts_node_start_byte(n));
    out += ':' + std::to_string(ts_node_start_point(n).row + 1);
  });
  return out;
}

}  // namespace

TEST_CASE("a scope's bindings: its own, not a nested scope's, but a nested nonlocal") {
  CHECK(ScopeBindings("def f(a, b=(w := 1)):\n    x = 1\n    for y in z: pass\n") ==
        "a:1 b:1 x:2 y:3");
  // A nested def binds its name here; its parameters, defaults' names and
  // body bind there. A lambda's and a class's likewise.
  CHECK(ScopeBindings("def f():\n    @d(e := 1)\n    def g(p=(q := 2)):\n        r = 3\n"
                      "    h = lambda s: (t := s)\n    class K:\n        u = 4\n") ==
        "e:2 g:3 q:3 h:5 K:6");
  // A comprehension's variable is its own; a `:=` in it is the function's,
  // and so is one in its first iterable.
  CHECK(ScopeBindings("def f():\n    [v for v in (a := x) if (b := v)]\n") == "a:2 b:2");
  // A nested `nonlocal` or `global` may rebind when called.
  CHECK(ScopeBindings("def f():\n    n = 1\n    def g():\n        nonlocal n\n"
                      "        n = 2\n") == "n:2 g:3 n:4");
  CHECK(ScopeBindings("x = 1\nclass C:\n    y = 2\nimport a.b\n") == "x:1 C:2 a:4");
}

TEST_CASE("PathFinder answers as PathTo does, range after range, and starts over when sent back") {
  PythonParser parser;
  const std::string source =
      "import m\n"
      "def f(a, b=(1, 2)):\n"
      "    if a and m.X:\n"
      "        m.X = [b, {a: b}]\n"
      "    return (a if b else m.Y)\n"
      "x = f(1) + f(2, b=3)\n";
  SyntaxTree tree = parser.Parse(source);
  REQUIRE_FALSE(tree.HasError());
  // Every range of one to four bytes, and some wider: in ascending order of
  // begin (a zero-width range and one across statements too), then a few
  // sent back.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> ranges;
  const auto size = static_cast<std::uint32_t>(source.size());
  for (std::uint32_t b = 0; b < size; ++b) {
    for (std::uint32_t w : {0u, 1u, 2u, 3u, 4u, 9u, 30u}) {
      if (b + w <= size) ranges.emplace_back(b, b + w);
    }
  }
  ranges.emplace_back(5, 6);
  ranges.emplace_back(40, 41);
  ranges.emplace_back(0, size);
  // Each named node's own range, in document order, as the callers ask
  // for the names they find: each answer ends deep in the tree.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> nodes;
  ForEachNamedPath(tree.Root(), [&](const std::vector<TSNode>& path) {
    nodes.emplace_back(ts_node_start_byte(path.back()), ts_node_end_byte(path.back()));
  });
  for (const auto* asked : {&ranges, &nodes}) {
    PathFinder finder(tree.Root());
    for (const auto& range : *asked) {
      const std::uint32_t b = range.first;   // not a structured binding: CAPTURE's lambda
      const std::uint32_t e = range.second;  // takes it (clang 14 refuses those)
      CAPTURE(b);
      CAPTURE(e);
      const std::vector<TSNode> want = PathTo(tree.Root(), b, e);
      const std::vector<TSNode> got = finder.PathTo(b, e);
      REQUIRE(got.size() == want.size());
      for (std::size_t i = 0; i < got.size(); ++i) CHECK(ts_node_eq(got[i], want[i]));
    }
  }
}

}  // namespace muh
