#include "engine/base/parallel.h"

#include <doctest/doctest.h>

#include <new>
#include <stdexcept>
#include <vector>

namespace muh {

TEST_CASE("parallel: every index runs once, results by index") {
  std::vector<int> out(1000, 0);
  ParallelFor(out.size(), 4, [&](NoWorkerState&, std::size_t i) { out[i] = static_cast<int>(i); });
  for (std::size_t i = 0; i < out.size(); ++i) CHECK(out[i] == static_cast<int>(i));
}

TEST_CASE("parallel: a worker's exception reaches the caller after all workers joined") {
  std::atomic<int> ran{0};
  auto run = [&] {
    ParallelFor(1000, 4, [&](NoWorkerState&, std::size_t i) {
      ++ran;
      if (i == 10) throw std::bad_alloc();
    });
  };
  CHECK_THROWS_AS(run(), std::bad_alloc);
  CHECK(ran.load() <= 1000);
}

}  // namespace muh
