// Which modules the imports reach, on a small tree held in memory: relative
// imports, imports of other top-level packages, and imports of modules
// outside the tree side by side.
#include "engine/liveness/reachability.h"

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

namespace muh {

TEST_CASE("imports reach relative, absolute and aliased modules, and nothing outside the tree") {
  std::map<std::string, std::string> files = {
      {"app/__init__.py", ""},
      {"app/main.py",
       "import os\n"
       "from typing import List\n"
       "from . import a\n"
       "from .b import f\n"
       "import app.c as c\n"
       "from lib.e import g  # another top-level package\n"
       "from \\\n"
       "    .sub import h\n"},
      {"app/a.py", "from .. import app\n"},
      {"app/b.py", "def f():\n    from .d import x\n"},
      {"app/c.py", ""},
      {"app/d.py", ""},
      {"app/sub.py", ""},
      {"app/unused.py", "import app.d\n"},
      {"lib/e.py", "import typing, lib.k\n"},
      {"lib/k.py", ""},
      {"os.py", ""},
  };
  std::vector<std::string> paths;
  for (const auto& [p, bytes] : files) paths.push_back(p);
  ReadFn read = [&files](const std::string& p) -> std::optional<std::string_view> {
    return std::string_view(files.at(p));
  };
  LivenessFacts facts;
  facts.entry_module = "app.main";
  TreeIndex index(paths, read, facts);
  Reachability reach = Reachability::Run(&index);
  REQUIRE(reach.entry_found());
  for (const char* p : {"app/__init__.py", "app/main.py", "app/a.py", "app/b.py", "app/c.py",
                        "app/sub.py", "lib/e.py", "lib/k.py", "os.py"}) {
    CHECK_MESSAGE(reach.Reached(p), p);
  }
  // d is imported only inside f, which nothing calls; nothing imports unused.
  CHECK_FALSE(reach.Reached("app/d.py"));
  CHECK_FALSE(reach.Reached("app/unused.py"));
  CHECK(reach.reached_count() == 9);
  REQUIRE(reach.Via("app/sub.py") != nullptr);
  CHECK(reach.Via("app/sub.py")->path == "app/main.py");
  CHECK(reach.Via("app/sub.py")->line == 7);
}

}  // namespace muh

namespace muh {

TEST_CASE("a dynamic import in a one-line def or after ';' is seen") {
  for (const char* main : {"import importlib\ndef load(n): return importlib.import_module(n)\n",
                           "import importlib; m = importlib.import_module(NAME)\n"}) {
    std::map<std::string, std::string> files = {
        {"app/__init__.py", ""}, {"app/main.py", main}, {"app/other.py", ""}};
    std::vector<std::string> paths;
    for (const auto& [p, bytes] : files) paths.push_back(p);
    ReadFn read = [&files](const std::string& p) -> std::optional<std::string_view> {
      return std::string_view(files.at(p));
    };
    LivenessFacts facts;
    facts.entry_module = "app.main";
    TreeIndex index(paths, read, facts);
    Reachability reach = Reachability::Run(&index);
    CHECK_FALSE(reach.Reached("app/other.py"));
    CHECK_MESSAGE(reach.opaque().size() == 1, main);
  }
}

}  // namespace muh
