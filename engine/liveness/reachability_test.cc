// Which modules the imports reach, on a small tree held in memory: relative
// imports, imports of other top-level packages, and imports of modules
// outside the tree side by side.
#include "engine/liveness/reachability.h"

#include <doctest/doctest.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace muh {

namespace {

// A tree held in memory and what the imports reach from app.main.
struct Reach {
  explicit Reach(std::map<std::string, std::string> f, LivenessFacts given = {})
      : files(std::move(f)), facts(std::move(given)) {
    for (const auto& [p, bytes] : files) paths.push_back(p);
    facts.entry_module = "app.main";
    index = std::make_unique<TreeIndex>(paths, read, facts);
    run = std::make_unique<Reachability>(Reachability::Run(index.get()));
    for (const std::string& p : paths) {
      if (run->Reached(p)) reached.push_back(p);
    }
  }
  std::map<std::string, std::string> files;
  std::vector<std::string> paths;
  ReadFn read = [this](const std::string& p) -> std::optional<std::string_view> {
    return std::string_view(files.at(p));
  };
  LivenessFacts facts;
  std::unique_ptr<TreeIndex> index;
  std::unique_ptr<Reachability> run;
  std::vector<std::string> reached;
};

}  // namespace

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
  Reach r(files);
  const Reachability& reach = *r.run;
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

TEST_CASE(
    "imports after a file's opening imports are read when they may name a module not reached") {
  // main.py's head ends at its last import at column 0; the imports in the
  // function and under the `if` after it are read from the whole file's
  // parse, because they name modules nothing else reaches.
  std::map<std::string, std::string> files = {
      {"app/__init__.py", ""},
      {"app/main.py",
       "from . import a\n"
       "X = 1\n"
       "def run():\n"
       "    return 0\n"
       "run()\n"
       "if X:\n"
       "    from app import (  # a comment with a bracket )\n"
       "        b,\n"
       "    )\n"
       "if not X:\n"
       "    import app.c\n"},
      {"app/a.py", ""},
      {"app/b.py", ""},
      {"app/c.py", ""},
  };
  Reach r(files);
  CHECK(r.reached ==
        std::vector<std::string>{"app/__init__.py", "app/a.py", "app/b.py", "app/main.py"});
  CHECK(r.run->opaque().empty());
}

TEST_CASE("an import past the head in a file that does not parse leaves the result open") {
  std::map<std::string, std::string> files = {
      {"app/__init__.py", ""},
      {"app/main.py",
       "from . import a\n"
       "def broken(:\n"
       "    import app.b\n"},
      {"app/a.py", ""},
      {"app/b.py", ""},
  };
  Reach r(files);
  CHECK(r.reached == std::vector<std::string>{"app/__init__.py", "app/a.py", "app/main.py"});
  REQUIRE(r.run->opaque().size() == 1);
  CHECK(r.run->opaque()[0].path == "app/main.py");
  CHECK(r.run->opaque()[0].what == "the file could not be read or lexed");
}

TEST_CASE("a column-0 import inside a string that the head would end in: the whole file decides") {
  // The last column-0 import is inside a string: the prefix ending after it
  // leaves the string open, its parse fails, and the whole file is read,
  // where no import of b runs.
  std::map<std::string, std::string> files = {
      {"app/__init__.py", ""},
      {"app/main.py",
       "from . import a\n"
       "DOC = \"\"\"\n"
       "from app import b\n"
       "x = 1\n"
       "\"\"\"\n"},
      {"app/a.py", ""},
      {"app/b.py", ""},
  };
  Reach r(files);
  CHECK(r.reached == std::vector<std::string>{"app/__init__.py", "app/a.py", "app/main.py"});
  CHECK(r.run->opaque().empty());
}

TEST_CASE("a star import from a package reaches the submodules its __all__ may name") {
  auto reached = [](const std::string& init) {
    Reach r(std::map<std::string, std::string>{{"app/__init__.py", ""},
                                               {"app/main.py", "from app.p import *\n"},
                                               {"app/p/__init__.py", init},
                                               {"app/p/a.py", ""},
                                               {"app/p/b.py", ""}});
    std::string out;
    for (const std::string& p : r.reached) {
      if (p == "app/p/a.py" || p == "app/p/b.py") out += p + ";";
    }
    return out;
  };
  CHECK(reached("").empty());  // no __all__: no submodule
  CHECK(reached("__all__ = ['a']\n") == "app/p/a.py;");
  CHECK(reached("__all__ = [\n    'b',  # the b module\n]\n") == "app/p/b.py;");
  CHECK(reached("__all__ = []\n__all__.append('b')\n") == "app/p/b.py;");
  // Computed: any submodule may be named.
  CHECK(reached("from .x import names\n__all__ = ['a'] + names\n") == "app/p/a.py;app/p/b.py;");
  CHECK(reached("__all__ = [n for n in dir()]\n") == "app/p/a.py;app/p/b.py;");
}

TEST_CASE("code run from a file, a spec or a string leaves the result open unless declared") {
  // Each loader in main's function `load`, which main calls; k is imported nowhere.
  for (const char* call :
       {"exec(src)", "eval(src)", "runpy.run_path(src)", "runpy.run_module(src)",
        "importlib.util.spec_from_file_location('k', src)", "spec.loader.exec_module(m)",
        "loader.load_module()", "importlib.machinery.SourceFileLoader('k', src)",
        "imp.load_source('k', src)"}) {
    std::map<std::string, std::string> files = {
        {"app/__init__.py", ""},
        {"app/main.py", std::string("def load(src):\n    ") + call + "\nload(X)\n"},
        {"app/k.py", ""},
    };
    Reach r(files);
    CHECK_FALSE(r.run->Reached("app/k.py"));
    REQUIRE_MESSAGE(r.run->opaque().size() == 1, call);
    CHECK(r.run->opaque()[0].line == 2);
    CHECK(r.run->DeclarationFor(r.run->opaque()[0]) == "app/main.py:load");
    // Declared to load no module of the tree: nothing is open.
    LivenessFacts facts;
    DeclaredFact nothing;
    nothing.kind = DeclaredFact::Kind::kImportsNothing;
    nothing.path = "app/main.py";
    nothing.callee = "load";
    facts.declared.push_back(nothing);
    Reach declared(files, facts);
    CHECK_MESSAGE(declared.run->opaque().empty(), call);
  }
  // A loader taken as a value, or imported under another name, is called by
  // a name the analysis does not search for.
  for (const char* text :
       {"load = importlib.import_module\nload(X)\n",
        "from importlib import import_module as load\nload(X)\n", "run = exec\nrun(X)\n",
        "builtins.__import__ = hook\n",
        // A loader's module searched by a computed name.
        "import importlib\ngetattr(importlib, n)(X)\n", "import builtins\nvars(builtins)[n](X)\n",
        "import importlib\nimportlib.__dict__[n](X)\n",
        // A default argument runs with the def statement, called or not.
        "def g(m=importlib.import_module(X)):\n    pass\n"}) {
    Reach r(std::map<std::string, std::string>{
        {"app/__init__.py", ""}, {"app/main.py", text}, {"app/k.py", ""}});
    CHECK_MESSAGE(r.run->opaque().size() == 1, text);
  }
  // Where imports look, changed at run time; reading sys.path or os.path is no change.
  for (const char* text : {"sys.path.insert(0, d)\n", "sys.path += [d]\n", "sys.path[:0] = [d]\n",
                           "import app\napp.__path__.append(d)\n", "sys.meta_path.insert(0, f)\n",
                           "sys.path_hooks.append(h)\n"}) {
    Reach r(std::map<std::string, std::string>{
        {"app/__init__.py", ""}, {"app/main.py", text}, {"app/k.py", ""}});
    CHECK_MESSAGE(r.run->opaque().size() == 1, text);
  }
  Reach reads(std::map<std::string, std::string>{
      {"app/__init__.py", ""},
      {"app/main.py", "print(sys.path)\nif d in sys.path:\n    pass\nos.path.join(d)\n"}});
  CHECK(reads.run->opaque().empty());
  // Attributes of a loader's module that load nothing: no load.
  Reach attrs(std::map<std::string, std::string>{
      {"app/__init__.py", ""},
      {"app/main.py",
       "import importlib.util\nimportlib.util.find_spec('x')\nimportlib.invalidate_caches()\n"}});
  CHECK(attrs.run->opaque().empty());
  // Imported under its own name, its calls are found by the word.
  Reach plain(std::map<std::string, std::string>{
      {"app/__init__.py", ""},
      {"app/main.py", "from importlib import import_module\nimport_module('app.k')\n"},
      {"app/k.py", ""}});
  CHECK(plain.run->opaque().empty());
  CHECK(plain.run->Reached("app/k.py"));
  // A method named eval (torch's model.eval()) or exec loads nothing.
  Reach methods(std::map<std::string, std::string>{
      {"app/__init__.py", ""},
      {"app/main.py", "model.eval()\nself.exec(x)\ndef eval(x):\n    pass\n"}});
  CHECK(methods.run->opaque().empty());
}

}  // namespace muh

namespace muh {

TEST_CASE("a dynamic import in a one-line def or after a semicolon is seen") {
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

namespace muh {

TEST_CASE("a child interpreter started with sys.executable is a load: -m a literal, else opaque") {
  // A helper probe of f93f1eb: a child running a tree module by a
  // computed name ran a site muhpatch called dead.
  struct Case {
    const char* main;
    bool other;  // app/other.py reached
    int opaque;  // loads not followed
  };
  const Case cases[] = {
      {"import subprocess, sys\nsubprocess.run([sys.executable, '-m', 'app.other'])\n", true, 0},
      {"import subprocess, sys\nsubprocess.run([sys.executable, __file__])\n", false, 0},
      {"import subprocess, sys\nn = 'app.' + 'other'\nsubprocess.run([sys.executable, '-m', n])\n",
       false, 1},
      {"import os, sys\nos.system(sys.executable + ' ' + 'app/other.py')\n", false, 1},
      {"import sys\nprint(sys.executable)\n", false, 1},
  };
  for (const Case& c : cases) {
    Reach r({{"app/__init__.py", ""}, {"app/main.py", c.main}, {"app/other.py", ""}});
    CHECK_MESSAGE(r.run->Reached("app/other.py") == c.other, c.main);
    CHECK_MESSAGE(r.run->opaque().size() == static_cast<std::size_t>(c.opaque), c.main);
  }
}

}  // namespace muh

namespace muh {

TEST_CASE(
    "any other process started is a load unless its command is written out and runs no Python") {
  // A helper probe of ef5c477 left open: `os.system("python -m x")` and a
  // command built elsewhere ran a tree module while the site was dead.
  struct Case {
    const char* main;
    bool other;  // app/other.py reached
    int opaque;  // loads not followed
  };
  const Case cases[] = {
      {"import subprocess\nsubprocess.check_output(['/sbin/ldconfig', '-p'])\n", false, 0},
      {"import os\nos.system('python -m app.other')\n", true, 0},
      {"import subprocess as sp\nsp.run(['python3', '-m', 'app.other'])\n", true, 0},
      {"from subprocess import run as go\ngo(cmd)\n", false, 1},
      {"from subprocess import Popen\nPopen(cmd)\n", false, 1},
      {"import subprocess\ncmd = ['python', 'x.py']\nsubprocess.run(cmd)\n", false, 1},
      {"import os\nos.execvp('python', ['python', '-m', 'app.other'])\n", true, 0},
      {"import subprocess\nrun = subprocess.run\n", false, 1},  // taken as a value
      {"def run(x):\n    pass\nrun(cmd)\n", false, 0},          // not subprocess's
  };
  for (const Case& c : cases) {
    Reach r({{"app/__init__.py", ""}, {"app/main.py", c.main}, {"app/other.py", ""}});
    CHECK_MESSAGE(r.run->Reached("app/other.py") == c.other, c.main);
    CHECK_MESSAGE(r.run->opaque().size() == static_cast<std::size_t>(c.opaque), c.main);
  }
}

}  // namespace muh

namespace muh {

TEST_CASE("doctest, unittest discovery, pydoc, site, logging files and breakpoint are loads") {
  // A helper probe of 3cee5a3: each loaded app/other.py while muhpatch
  // called its site dead. sys.path under another name may be changed too.
  const char* mains[] = {
      "import doctest\ndoctest.run_docstring_examples(g, {})\n",
      "import doctest\ndoctest.testmod()\n",
      "import unittest\nunittest.TestLoader().discover('.', pattern='o*.py')\n",
      "import pydoc\npydoc.importfile(p)\n",
      "import site\nsite.addsitedir(d)\n",
      "import logging.config\nlogging.config.fileConfig(f)\n",
      "import os\nos.environ['PYTHONBREAKPOINT'] = n\nbreakpoint()\n",
      "import sys\np = sys.path\np.insert(0, d)\nimport other\n",
      "from sys import path\npath.insert(0, d)\nimport other\n",
  };
  for (const char* main : mains) {
    Reach r({{"app/__init__.py", ""}, {"app/main.py", main}, {"app/other.py", ""}});
    CHECK_MESSAGE(r.run->opaque().size() == 1, main);
  }
  Reach read({{"app/__init__.py", ""},
              {"app/main.py", "import sys\nn = sys.path.count(d)\n"},
              {"app/other.py", ""}});
  CHECK(read.run->opaque().empty());
}

}  // namespace muh
