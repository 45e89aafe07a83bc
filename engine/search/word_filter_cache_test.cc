#include "engine/search/word_filter_cache.h"

#include <doctest/doctest.h>

#include <thread>
#include <vector>

namespace muh {

TEST_CASE("a file's word filter is built once and shared") {
  WordFilterCache cache({"b.py", "a.py"});
  const WordFilter* a = cache.For("a.py", "alpha = beta\n");
  REQUIRE(a != nullptr);
  CHECK(a->MayHold("alpha"));
  CHECK_FALSE(a->MayHold("gamma"));
  // Later callers get the same filter, whatever text they pass.
  CHECK(cache.For("a.py", "gamma\n") == a);
  CHECK(cache.For("c.py", "gamma\n") == nullptr);  // not served
  // From several threads at once: one filter.
  std::vector<const WordFilter*> got(4, nullptr);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < got.size(); ++i) {
    threads.emplace_back([&, i] { got[i] = cache.For("b.py", "delta\n"); });
  }
  for (std::thread& t : threads) t.join();
  for (const WordFilter* f : got) CHECK(f == got[0]);
  CHECK(got[0]->MayHold("delta"));
}

}  // namespace muh
