#include "engine/io/file_arena.h"

#include <doctest/doctest.h>

#include <cstring>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace muh {

TEST_CASE("an arena's pieces are distinct, writable and stay put") {
  FileArena arena;
  std::vector<std::pair<char*, std::size_t>> taken;
  // Small pieces fill blocks; a large one gets a mapping of its own.
  for (std::size_t n : std::vector<std::size_t>{1, 4096, 100000, 3u << 20, 7, 5u << 20, 0}) {
    char* p = arena.Take(n);
    REQUIRE(p != nullptr);
    std::memset(p, static_cast<int>(taken.size() + 1), n);
    taken.emplace_back(p, n);
  }
  for (std::size_t i = 0; i < taken.size(); ++i) {
    const auto& [p, n] = taken[i];
    for (std::size_t j = 0; j < n; j += 997) CHECK(p[j] == static_cast<char>(i + 1));
  }
}

TEST_CASE("an arena is shared by threads") {
  FileArena arena;
  std::vector<std::vector<char*>> got(4);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < got.size(); ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 2000; ++i) {
        char* p = arena.Take(1000);
        std::memset(p, static_cast<int>(t), 1000);
        got[t].push_back(p);
      }
    });
  }
  for (std::thread& th : threads) th.join();
  std::set<char*> all;
  for (std::size_t t = 0; t < got.size(); ++t) {
    for (char* p : got[t]) {
      CHECK(p[0] == static_cast<char>(t));
      CHECK(p[999] == static_cast<char>(t));
      all.insert(p);
    }
  }
  CHECK(all.size() == 8000);
}

}  // namespace muh
