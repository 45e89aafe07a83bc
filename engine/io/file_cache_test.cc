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
  std::optional<std::string_view> first = cache.Get("a.py", &err, &scratch);
  REQUIRE(first);
  CHECK(*first == "x = 1\n");
  dir.Write("a.py", "x = 2\n");  // read once: the run sees one version
  std::optional<std::string_view> again = cache.Get("a.py", &err, &scratch);
  REQUIRE(again);
  CHECK(again->data() == first->data());
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
    CHECK_FALSE(cache.Get("gone.py", &e, &scratch));
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
  std::optional<std::string_view> got = cache.Get("b.py", &err, &scratch);
  REQUIRE(got);
  CHECK(got->data() == scratch.data());
  CHECK(scratch == "y = 3\n");
}

TEST_CASE("FileCache::GetWithin keeps a file only while the cache holds less than the budget") {
  TempDir dir;
  dir.Write("a.py", "a = 1\n");    // 6 bytes
  dir.Write("b.py", "b = 22\n");   // 7 bytes
  dir.Write("c.py", "c = 333\n");  // 8 bytes
  TreeIo tree;
  Diagnostic err;
  REQUIRE(TreeIo::Open(dir.str(), &tree, &err));
  FileCache cache(tree, {"a.py", "b.py", "c.py"});
  std::string scratch;
  // Empty cache, budget 10: a.py is kept (6 bytes now held).
  std::optional<std::string_view> a = cache.GetWithin(10, "a.py", &err, &scratch);
  REQUIRE(a);
  CHECK(*a == "a = 1\n");
  CHECK(cache.Cached("a.py"));
  CHECK(scratch.empty());
  // 6 < 10: b.py is kept too (13 held).
  REQUIRE(cache.GetWithin(10, "b.py", &err, &scratch));
  CHECK(cache.Cached("b.py"));
  // 13 >= 10: c.py is read into the caller's buffer, and not kept.
  std::optional<std::string_view> c = cache.GetWithin(10, "c.py", &err, &scratch);
  REQUIRE(c);
  CHECK(*c == "c = 333\n");
  CHECK(c->data() == scratch.data());
  CHECK_FALSE(cache.Cached("c.py"));
  // Get keeps it whatever the cache holds; GetWithin then serves the kept bytes.
  std::optional<std::string_view> kept = cache.Get("c.py", &err, &scratch);
  REQUIRE(kept);
  CHECK(cache.Cached("c.py"));
  std::string other;
  std::optional<std::string_view> again = cache.GetWithin(0, "c.py", &err, &other);
  REQUIRE(again);
  CHECK(again->data() == kept->data());
  CHECK(other.empty());
  // A kept file stays served, whatever the budget.
  std::optional<std::string_view> a_again = cache.GetWithin(0, "a.py", &err, &other);
  REQUIRE(a_again);
  CHECK(a_again->data() == a->data());
  CHECK_FALSE(cache.Cached("unlisted.py"));
}

TEST_CASE("FileCache holds an empty file and a file larger than an arena block") {
  TempDir dir;
  dir.Write("empty.py", "");
  std::string big(3u << 20, 'x');
  big.back() = '\n';
  dir.Write("big.py", big);
  TreeIo tree;
  Diagnostic err;
  REQUIRE(TreeIo::Open(dir.str(), &tree, &err));
  FileCache cache(tree, {"empty.py", "big.py"});
  std::string scratch;
  std::optional<std::string_view> empty = cache.Get("empty.py", &err, &scratch);
  REQUIRE(empty);
  CHECK(empty->empty());
  std::optional<std::string_view> got = cache.Get("big.py", &err, &scratch);
  REQUIRE(got);
  CHECK(*got == big);
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
  std::vector<const char*> seen[4];
  std::vector<std::thread> threads;
  for (auto& s : seen) {
    threads.emplace_back([&cache, &paths, &s] {
      for (const std::string& p : paths) {
        Diagnostic e;
        std::string scratch;
        std::optional<std::string_view> got = cache.Get(p, &e, &scratch);
        s.push_back(got ? got->data() : nullptr);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (const auto& s : seen) CHECK(s == seen[0]);
  CHECK(std::string(seen[0][7], 6) == "v = 7\n");
}

}  // namespace
}  // namespace muh
