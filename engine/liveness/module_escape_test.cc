#include "engine/liveness/module_escape.h"

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

namespace muh {
namespace {

std::optional<Evidence> EscapeIn(const std::string& main_text) {
  std::map<std::string, std::string> files = {
      {"app/__init__.py", ""}, {"app/k.py", "def f():\n    pass\n"}, {"app/main.py", main_text}};
  ReadFn read = [&files](const std::string& p) -> std::optional<std::string_view> {
    return std::string_view(files.at(p));
  };
  LivenessFacts facts;
  TreeIndex index({"app/__init__.py", "app/k.py", "app/main.py"}, read, facts);
  return ModuleEscape(
      &index, [](const std::string&) { return true; }, "app/k.py");
}

TEST_CASE("a module object used only by attribute access stays put") {
  CHECK_FALSE(EscapeIn("from app import k\nk.f()\n"));
  CHECK_FALSE(EscapeIn("import app.k as m\nm.f()\nm .f()\n"));
  CHECK_FALSE(EscapeIn("import app.k\napp.k.f()\n"));
  CHECK_FALSE(EscapeIn("from app.k import f\nf()\nk = 1\nprint(k)\n"));  // another k
}

TEST_CASE("a module object used as a value escapes, wherever it goes") {
  for (const char* text :
       {"from app import k\ngetattr(k, 'f' + '')()\n", "from app import k\nmods = [k]\n",
        "from . import k\nvars(k)['f']()\n", "import app.k as m\nm.__dict__['f']()\n",
        "import app.k\nregister(app.k)\n"}) {
    auto e = EscapeIn(text);
    REQUIRE_MESSAGE(e, text);
    CHECK(e->path == "app/main.py");
    CHECK(e->line == 2);
    CHECK(e->what.rfind("the module object app.k is used as a value", 0) == 0);
  }
}

TEST_CASE("a module's object reached by a name escapes every module: sys.modules, __globals__") {
  // A helper probe of 7301f17: each reached k's functions by a built name
  // while only `sys.modules[__name__]` was known.
  for (const char* text : {"import sys\nimport app.k\ngetattr(sys.modules.get('app.k'), 'f')()\n",
                           "import sys\nfrom app.k import f\nsys.modules[f.__module__].f()\n",
                           "import os\nfrom app.k import f\nf.__globals__['f']()\n",
                           "import inspect\nfrom app.k import f\ninspect.getmodule(f).f()\n",
                           "import sys\nimport app.k\nsys.modules['app.k'].f()\n"}) {
    auto e = EscapeIn(text);
    REQUIRE_MESSAGE(e, text);
    CHECK(e->path == "app/main.py");
    CHECK(e->line == 3);
  }
  // Another module asked by its literal name is not this one, and another
  // file's `sys.modules[__name__]` is that file's own.
  CHECK_FALSE(EscapeIn("import sys\nsys.modules['os'].getcwd()\n"));
  CHECK_FALSE(EscapeIn("import sys\nsetattr(sys.modules[__name__], 'X', 1)\n"));
  CHECK_FALSE(EscapeIn("import sys\nsys.modules.get(__name__).X = 1\n"));
}

}  // namespace
}  // namespace muh

namespace muh {
namespace {

TEST_CASE("a frame's f_globals and a module-level locals() reach the module by a built name") {
  // A helper probe of 3cee5a3: sys._getframe().f_globals[name]() and
  // `for n in dir(): locals()[n]()` at module level called a function
  // muhpatch thought no one named.
  CHECK(EscapeIn("import sys\ndef run(n):\n    sys._getframe().f_globals[n]()\n"));
  std::map<std::string, std::string> files = {
      {"app/__init__.py", ""},
      {"app/k.py",
       "def zork():\n    pass\nfor n in dir():\n    if n[:2] == 'zo':\n        locals()[n]()\n"},
      {"app/main.py", "import app.k\n"}};
  ReadFn read = [&files](const std::string& p) -> std::optional<std::string_view> {
    return std::string_view(files.at(p));
  };
  LivenessFacts facts;
  TreeIndex index({"app/__init__.py", "app/k.py", "app/main.py"}, read, facts);
  CHECK(ModuleEscape(
      &index, [](const std::string&) { return true; }, "app/k.py"));
  CHECK_FALSE(EscapeIn("def g():\n    x = 1\n    return locals()\n"));  // the def's own
}

}  // namespace
}  // namespace muh
