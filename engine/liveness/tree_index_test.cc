#include "engine/liveness/tree_index.h"

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

namespace muh {
namespace {

TEST_CASE("Occurrences finds text the word filter cannot know, such as a dashed dict key") {
  std::map<std::string, std::string> files = {
      {"a.py", "cfg = {'num-warps': 4}\nn = cfg['num-warps']\nnum = 1\n"}};
  ReadFn read = [&files](const std::string& p) -> std::optional<std::string_view> {
    return std::string_view(files.at(p));
  };
  LivenessFacts facts;
  TreeIndex index({"a.py"}, read, facts);
  CHECK(index.Occurrences("a.py", "num-warps") == std::vector<std::size_t>{8, 32});
  // Whole words: a '-' bounds a word as a space does.
  CHECK(index.Occurrences("a.py", "num") == std::vector<std::size_t>{8, 32, 44});
  CHECK(index.Occurrences("a.py", "um").empty());
  CHECK(index.Occurrences("a.py", "m-w").empty());
}

TEST_CASE("a file the word filter rules out is forgotten, and read again when needed") {
  std::map<std::string, std::string> files = {{"a.py", "import os\nFLAG = True\n"},
                                              {"b.py", "x = 1\n"}};
  std::map<std::string, int> reads;
  std::vector<std::string> forgotten;
  ReadFn read = [&](const std::string& p) -> std::optional<std::string_view> {
    ++reads[p];
    return std::string_view(files.at(p));
  };
  LivenessFacts facts;
  TreeIndex index({"a.py", "b.py"}, read, facts, {},
                  [&](const std::string& p) { forgotten.push_back(p); });
  CHECK(index.Occurrences("b.py", "FLAG").empty());
  CHECK(forgotten == std::vector<std::string>{"b.py"});
  // a.py holds the word: its offsets view its bytes, which are kept.
  CHECK(index.Occurrences("a.py", "FLAG") == std::vector<std::size_t>{10});
  CHECK(forgotten == std::vector<std::string>{"b.py"});
  CHECK(index.Occurrences("a.py", "missing").empty());
  CHECK(forgotten == std::vector<std::string>{"b.py"});
  // b.py is read again for a word it holds, and its lines come from the new read.
  CHECK(index.Occurrences("b.py", "x") == std::vector<std::size_t>{0});
  CHECK(reads["b.py"] == 2);
  CHECK(reads["a.py"] == 1);
  REQUIRE(index.Lines("b.py") != nullptr);
  CHECK(index.Lines("b.py")->src() == "x = 1\n");
}

TEST_CASE("a platform predicate's name is the fork's only when imported from vllm") {
  std::map<std::string, std::string> files = {
      {"app/a.py", "from vllm.platforms import current_platform\nfrom vllm.utils import is_hip\n"},
      {"app/b.py", "from app.util import is_hip\n"},
      {"app/c.py", "def is_rocm():\n    return True\n"},
      {"app/d.py", "from vllm.utils import is_hip\nis_hip = lambda: True\n"},
      {"app/e.py", "def f(current_platform):\n    return current_platform\n"},
      {"vllm/utils.py", "def is_hip():\n    return False\n"},
      {"vllm/other.py", "def is_hip():\n    return True\n"}};
  ReadFn read = [&files](const std::string& p) -> std::optional<std::string_view> {
    return std::string_view(files.at(p));
  };
  LivenessFacts facts;
  TreeIndex index({"app/a.py", "app/b.py", "app/c.py", "app/d.py", "app/e.py", "vllm/other.py",
                   "vllm/utils.py"},
                  read, facts);
  CHECK(index.PlatformName("app/a.py", "current_platform"));
  CHECK(index.PlatformName("app/a.py", "is_hip"));
  CHECK_FALSE(index.PlatformName("app/b.py", "is_hip"));
  CHECK_FALSE(index.PlatformName("app/c.py", "is_rocm"));
  CHECK_FALSE(index.PlatformName("app/d.py", "is_hip"));  // rebound after the import
  CHECK_FALSE(index.PlatformName("app/e.py", "current_platform"));
  CHECK(index.PlatformName("vllm/utils.py", "is_hip"));
  CHECK_FALSE(index.PlatformName("vllm/other.py", "is_hip"));
}

TEST_CASE("a scan drops what it alone lexed, and a file asked again is read again") {
  std::map<std::string, std::string> files = {{"a.py", "import os\nif X:\n    Y = 1\n"}};
  int reads = 0;
  std::vector<std::string> forgotten;
  ReadFn read = [&](const std::string& p) -> std::optional<std::string_view> {
    ++reads;
    return std::string_view(files.at(p));
  };
  LivenessFacts facts;
  TreeIndex index({"a.py"}, read, facts, {}, [&](const std::string& p) { forgotten.push_back(p); });
  CHECK_FALSE(index.Lexed("a.py"));
  REQUIRE(index.Lines("a.py") != nullptr);
  CHECK(index.Lexed("a.py"));
  index.Drop("a.py");
  CHECK_FALSE(index.Lexed("a.py"));
  CHECK(forgotten == std::vector<std::string>{"a.py"});
  REQUIRE(index.Lines("a.py") != nullptr);
  CHECK(index.Lines("a.py")->src() == "import os\nif X:\n    Y = 1\n");
  CHECK(reads == 2);
  // A file whose guards were asked keeps its lines: a guard is a reference.
  index.Guard("a.py", 2);
  index.Drop("a.py");
  CHECK(index.Lexed("a.py"));
}

TEST_CASE("ReboundElsewhere names the statement of another file that may rebind a name") {
  std::map<std::string, std::string> files = {
      {"m.py", "LIM = 64\n"},
      {"doc.py", "import m\n\"\"\"LIM is m's bound.\"\"\"\nprint(m.LIM == 3)\n"},
      {"ovr.py", "import m as _m\n\nif True:\n    _m.LIM = 4096\n"},
      {"str.py", "import m\nsetattr(m, 'LIM', 1)\n"}};
  ReadFn read = [&files](const std::string& p) -> std::optional<std::string_view> {
    return std::string_view(files.at(p));
  };
  LivenessFacts facts;
  SUBCASE("an attribute store") {
    TreeIndex index({"doc.py", "m.py", "ovr.py"}, read, facts);
    std::optional<Evidence> by = index.ReboundElsewhere("m.py", "LIM");
    REQUIRE(by);
    CHECK(*by == Evidence{"ovr.py", 4, "_m.LIM = 4096"});
  }
  SUBCASE("a string that is not prose") {
    TreeIndex index({"m.py", "str.py"}, read, facts);
    CHECK(index.ReboundElsewhere("m.py", "LIM") == Evidence{"str.py", 2, "setattr(m, 'LIM', 1)"});
  }
  SUBCASE("a docstring and a comparison rebind nothing, nor does the module itself") {
    TreeIndex index({"doc.py", "m.py"}, read, facts);
    CHECK_FALSE(index.ReboundElsewhere("m.py", "LIM"));
  }
}

}  // namespace
}  // namespace muh
