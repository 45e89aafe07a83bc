#include "engine/io/file_cache.h"

#include <doctest/doctest.h>

#include <thread>
#include <vector>

#include "engine/io/test_tree.h"

namespace muh {
namespace {

using testing::TempDir;

TEST_CASE("FileCache reads a listed file once and serves the same bytes to every caller") {
  TempDir dir;
  dir.Write("a.py", "x = 1\n");
  TreeIo tree;
  Diagnostic err;
  REQUIRE(TreeIo::Open(dir.str(), &tree, &err));
  FileCache cache(tree, {"a.py"});
  std::string scratch;
  const std::string* first = cache.Get("a.py", &err, &scratch);
  REQUIRE(first != nullptr);
  CHECK(*first == "x = 1\n");
  dir.Write("a.py", "x = 2\n");  // read once: the run sees one version
  const std::string* again = cache.Get("a.py", &err, &scratch);
  CHECK(again == first);
  CHECK(*again == "x = 1\n");
  CHECK(scratch.empty());
}

TEST_CASE("FileCache gives the read's reason every time a listed file cannot be read") {
  TempDir dir;
  TreeIo tree;
  Diagnostic err;
  REQUIRE(TreeIo::Open(dir.str(), &tree, &err));
  FileCache cache(tree, {"gone.py"});
  std::string scratch;
  for (int i = 0; i < 2; ++i) {
    Diagnostic e;
    CHECK(cache.Get("gone.py", &e, &scratch) == nullptr);
    CHECK(e.Format() == "gone.py: error: no such file in the tree");
  }
}

TEST_CASE("FileCache reads a path it was not given into the caller's buffer") {
  TempDir dir;
  dir.Write("b.py", "y = 3\n");
  TreeIo tree;
  Diagnostic err;
  REQUIRE(TreeIo::Open(dir.str(), &tree, &err));
  FileCache cache(tree, {});
  std::string scratch;
  const std::string* got = cache.Get("b.py", &err, &scratch);
  CHECK(got == &scratch);
  CHECK(scratch == "y = 3\n");
}

TEST_CASE("FileCache is safe to share between threads") {
  TempDir dir;
  std::vector<std::string> paths;
  for (int i = 0; i < 50; ++i) {
    paths.push_back("m" + std::to_string(i) + ".py");
    dir.Write(paths.back(), "v = " + std::to_string(i) + "\n");
  }
  TreeIo tree;
  Diagnostic err;
  REQUIRE(TreeIo::Open(dir.str(), &tree, &err));
  FileCache cache(tree, paths);
  std::vector<const std::string*> seen[4];
  std::vector<std::thread> threads;
  for (auto& s : seen) {
    threads.emplace_back([&cache, &paths, &s] {
      for (const std::string& p : paths) {
        Diagnostic e;
        std::string scratch;
        s.push_back(cache.Get(p, &e, &scratch));
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (const auto& s : seen) CHECK(s == seen[0]);
  CHECK(*seen[0][7] == "v = 7\n");
}

}  // namespace
}  // namespace muh
