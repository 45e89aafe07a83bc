#include "engine/base/run_once.h"

#include <doctest/doctest.h>

#include <new>
#include <thread>
#include <vector>

namespace muh {
namespace {

TEST_CASE("RunOnce runs its work once, whichever thread comes first") {
  RunOnce once;
  std::atomic<int> runs{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < 100; ++i) once([&] { ++runs; });
    });
  }
  for (std::thread& t : threads) t.join();
  CHECK(runs == 1);
}

TEST_CASE("RunOnce lets an exception out and runs the work again next time") {
  RunOnce once;
  int tries = 0;
  CHECK_THROWS_AS(once([&] {
                    ++tries;
                    throw std::bad_alloc();
                  }),
                  std::bad_alloc);
  once([&] { ++tries; });
  once([&] { ++tries; });
  CHECK(tries == 2);
}

}  // namespace
}  // namespace muh
