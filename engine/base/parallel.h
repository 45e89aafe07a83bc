// Runs fn(state, i) for every i in [0, n), one worker per core (or
// `threads` when non-zero). Each worker builds its own State once (a parser,
// say). Work is handed out one index at a time; callers write results by
// index, so output never depends on timing.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <thread>
#include <vector>

namespace muh {

struct NoWorkerState {};

template <typename State = NoWorkerState, typename Fn>
void ParallelFor(std::size_t n, unsigned threads, Fn fn) {
  std::atomic<std::size_t> next{0};
  auto work = [&]() {
    State state;
    for (std::size_t i = next++; i < n; i = next++) fn(state, i);
  };
  unsigned want = threads != 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
  unsigned workers =
      static_cast<unsigned>(std::min<std::size_t>(want, std::max<std::size_t>(n, 1)));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < workers; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
}

}  // namespace muh
