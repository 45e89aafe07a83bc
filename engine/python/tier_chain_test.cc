#include "engine/python/tier_chain.h"

#include <doctest/doctest.h>

#include <string>

#include "engine/python/ts_nodes.h"

namespace muh {

namespace {

const char* kChain =
    "LIMIT = 160\n"
    "def f(M, topk):\n"
    "    numel = M * topk\n"
    "    if numel <= 64:\n"
    "        c = 16\n"
    "    elif numel <= LIMIT * 32:\n"
    "        c = 64\n"
    "    else:\n"
    "        c = 128\n";

std::optional<TierChainAt> At(const std::string& code, const std::string& needle,
                              std::string* error) {
  PythonParser parser;
  SyntaxTree tree = parser.Parse(code);
  // The value after `= ` in the first line that assigns `needle`.
  std::size_t at = code.find("= " + needle + "\n");
  if (at == std::string::npos) {
    at = code.find(needle);
  } else {
    at += 2;
  }
  return TierChainAround(tree, at, at + needle.size(), "numel", error);
}

}  // namespace

TEST_CASE("a tier chain is read from any of its clauses") {
  std::string error;
  std::string code = kChain;
  for (const auto& [needle, clause] :
       {std::pair<const char*, std::size_t>{"16", 0}, {"64", 1}, {"128", 2}}) {
    std::optional<TierChainAt> t = At(code, needle, &error);
    REQUIRE(t);
    CHECK(t->clause == clause);
    REQUIRE(t->chain.clauses.size() == 3);
    CHECK(t->chain.has_else);
    CHECK(t->chain.clauses[0].bound == "64");
    CHECK(t->chain.clauses[1].bound == "LIMIT * 32");
    CHECK(code.substr(t->chain.clauses[1].bound_begin,
                      t->chain.clauses[1].bound_end - t->chain.clauses[1].bound_begin) ==
          "LIMIT * 32");
    CHECK(t->chain.clauses[2].bound.empty());
  }
}

TEST_CASE("a site outside a chain, or a clause on another condition, is no tier") {
  std::string error;
  CHECK_FALSE(At(kChain, "M * topk", &error));
  std::string other =
      "def f(numel, M):\n"
      "    if numel <= 64:\n"
      "        c = 16\n"
      "    elif M > 8:\n"
      "        c = 32\n";
  CHECK_FALSE(At(other, "16", &error));
  CHECK(error == "the `elif` at line 4 reads `M > 8`, not `numel <= BOUND`");
}

TEST_CASE("module constants: assigned once at the top level") {
  PythonParser parser;
  std::string code = "A = 160\nB = A * 2\nC = 1\nC = 2\nD = 3\nD += 1\ndef f():\n    E = 4\n";
  SyntaxTree tree = parser.Parse(code);
  std::map<std::string, std::string> c = ModuleConstants(tree);
  CHECK(c.size() == 2);
  CHECK(c["A"] == "160");
  CHECK(c["B"] == "A * 2");
}

TEST_CASE("module constants: a name bound anywhere else is none") {
  PythonParser parser;
  std::string code =
      "A = 64\nB = 2\nC = 3\nD = 4\nE = 5\nif rocm():\n    A = 128\n"
      "def f():\n    global B\n    B = 8\n    for C, x in y:\n        pass\n"
      "    if (D := 9):\n        pass\n";
  SyntaxTree tree = parser.Parse(code);
  std::map<std::string, std::string> c = ModuleConstants(tree);
  CHECK(c.size() == 1);
  CHECK(c["E"] == "5");
}

TEST_CASE("module constants: a walrus, a chained assignment or a loop at the top level binds too") {
  PythonParser parser;
  std::string code =
      "A = 1\nB = 2\nC = 3\nif (A := 5):\n    pass\nD = B = 7\nfor C in z:\n    pass\n";
  SyntaxTree tree = parser.Parse(code);
  std::map<std::string, std::string> c = ModuleConstants(tree);
  CHECK(c.empty());
}

TEST_CASE("module constants: an import, a def, del, with/except targets or globals() rebind") {
  PythonParser parser;
  auto constants = [&parser](const std::string& code) {
    SyntaxTree tree = parser.Parse(code);
    std::string out;
    for (const auto& [name, value] : ModuleConstants(tree)) out += name + "=" + value + ";";
    return out;
  };
  // The override a fork ships: the tuning module, when present, wins.
  CHECK(constants("T = 64\nK = 1\ntry:\n    from vllm.bi100_tuning import T\n"
                  "except ImportError:\n    pass\n") == "K=1;");
  CHECK(constants("T = 64\nK = 1\nfrom m import x as T\n") == "K=1;");
  CHECK(constants("T = 64\nK = 1\nimport T.sub\n") == "K=1;");
  CHECK(constants("T = 64\nK = 1\ndef f():\n    import T\n") == "K=1;");
  CHECK(constants("T = 64\nK = 1\ndef T():\n    pass\n") == "K=1;");
  CHECK(constants("T = 64\nK = 1\ndel T\n") == "K=1;");
  CHECK(constants("T = 64\nK = 1\nwith open('f') as T:\n    pass\n") == "K=1;");
  CHECK(constants("T = 64\nK = 1\ntry:\n    pass\nexcept E as T:\n    pass\n") == "K=1;");
  // Anything may be bound by these.
  CHECK(constants("T = 64\nfrom m import *\n").empty());
  CHECK(constants("T = 64\nglobals().update(T=4096)\n").empty());
  CHECK(constants("T = 64\ndef f():\n    vars()['T'] = 1\n").empty());
  // The module reached as an object: setattr on sys.modules[__name__], its
  // __dict__, import_module(__name__).
  CHECK(constants("import sys\nT = 64\nsetattr(sys.modules[__name__], 'T', 4096)\n").empty());
  CHECK(constants("import sys\nT = 64\nsys.modules[__name__].__dict__['T'] = 4096\n").empty());
  CHECK(constants("import importlib\nT = 64\nimportlib.import_module(__name__).T = 1\n").empty());
  // A logger named after the module, another object's modules(): no module access.
  CHECK(constants("T = 64\nlogger = init_logger(__name__)\nn = model.modules()\n") ==
        "T=64;logger=init_logger(__name__);n=model.modules();");
  // An import of other names leaves T alone.
  CHECK(constants("import os\nfrom m import a, b as c\nT = 64\n") == "T=64;");
  // A pattern at the top level binds each of its names, however deep (once
  // read as nothing: T stayed 64 where CPython reads 4096).
  CHECK(constants("T = 64\nK = 1\nT, X = 4096, 1\n") == "K=1;");
  CHECK(constants("T = 64\nK = 1\n[T] = [4096]\n") == "K=1;");
  CHECK(constants("T = 64\nK = 1\n(X, (Y, *T)) = (1, (2, 4096))\n") == "K=1;");
  CHECK(constants("T = 64\nK = 1\nfor X, (Y, T) in z:\n    pass\n") == "K=1;");
  CHECK(constants("T = 64\nK = 1\na.T, b[T] = 1, 2\n") == "K=1;T=64;");
  // A capture in a `case` pattern binds the name.
  CHECK(constants("T = 64\nK = 1\nmatch 4096:\n    case T:\n        pass\n") == "K=1;");
  CHECK(constants("T = 64\nK = 1\nmatch v:\n    case [1, *T]:\n        pass\n") == "K=1;");
  // exec and eval may bind any name (`exec('T = 4096')`); a method of that name does not.
  CHECK(constants("T = 64\nexec('T = 4096')\n").empty());
  CHECK(constants("T = 64\neval('(T := 4096)')\n").empty());
  CHECK(constants("T = 64\nmodel.eval()\n") == "T=64;");
}

TEST_CASE("module constants: why a name assigned at the top level is left out") {
  PythonParser parser;
  auto why = [&parser](const std::string& code) {
    SyntaxTree tree = parser.Parse(code);
    std::map<std::string, std::string> why_not;
    ModuleConstants(tree, &why_not);
    std::string out;
    for (const auto& [name, reason] : why_not) out += name + ": " + reason + ";";
    return out;
  };
  CHECK(why("T = 64\ntry:\n    from m import T\nexcept ImportError:\n    pass\n") ==
        "T: `from m import T` (line 3) binds it again;");
  CHECK(why("T = 64\nT = 128\n") == "T: `T = 128` (line 2) binds it again;");
  CHECK(why("T = 64\ndef f():\n    global T\n    T = 1\n") ==
        "T: `global T` (line 3) binds it again;");
  CHECK(why("T = 64\nfrom m import *\n") ==
        "*: `from m import *` (line 2) may bind any name of the module;");
  CHECK(why("T = 64\nK = 1\n").empty());
}

TEST_CASE("function constants: assigned once in the function's body, before the bound") {
  PythonParser parser;
  auto constants = [&parser](const std::string& code) {
    SyntaxTree tree = parser.Parse(code);
    TSNode fn = TSNode{};
    for (uint32_t i = 0; i < ts_node_named_child_count(tree.Root()); ++i) {
      TSNode n = ts_node_named_child(tree.Root(), i);
      if (Is(n, "function_definition")) fn = n;
    }
    REQUIRE(!ts_node_is_null(fn));
    std::string out;
    for (const auto& [name, value] :
         FunctionConstants(tree, fn, code.find("BOUND"), ModuleConstants(tree))) {
      out += name + "=" + value + ";";
    }
    return out;
  };
  // A later state of the fork: the bound reads a local of get_default_config.
  CHECK(constants("def f(M):\n    _MAX = 80\n    if M <= _MAX * 16:  # BOUND\n        pass\n") ==
        "_MAX=80;");
  // A local hides the module's constant, even one not read as a constant.
  CHECK(constants("T = 64\nK = 2\ndef f(M):\n    T = 128\n    x = BOUND\n") == "K=2;T=128;");
  CHECK(constants("T = 64\ndef f(M):\n    T = 1\n    T = 2\n    x = BOUND\n").empty());
  CHECK(constants("T = 64\ndef f(M):\n    for T in y:\n        pass\n    x = BOUND\n").empty());
  // A parameter, an assignment after the bound, a nonlocal in a helper, an
  // assignment under an if: none is a constant.
  CHECK(constants("def f(M, _MAX=80):\n    _MAX = 80\n    x = BOUND\n").empty());
  CHECK(constants("def f(M):\n    x = BOUND\n    _MAX = 80\n").empty());
  CHECK(constants("def f(M):\n    _MAX = 80\n    def g():\n        nonlocal _MAX\n"
                  "        _MAX = 1\n    x = BOUND\n")
            .empty());
  CHECK(constants("def f(M):\n    if M:\n        _MAX = 80\n    x = BOUND\n").empty());
}

}  // namespace muh
