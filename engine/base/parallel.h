// Runs fn(state, i) for every i in [0, n), one worker per core (or
// `threads` when non-zero). Each worker builds its own State once (a parser,
// say). Work is handed out one index at a time; callers write results by
// index, so output never depends on timing. An exception thrown by `fn`
// (out of memory, say) stops the other workers and is rethrown to the
// caller once every worker has joined; a worker that cannot be started
// leaves its share to the others.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace muh {

struct NoWorkerState {};

template <typename State = NoWorkerState, typename Fn>
void ParallelFor(std::size_t n, unsigned threads, Fn fn) {
  std::atomic<std::size_t> next{0};
  std::mutex failed_mutex;
  std::exception_ptr failed;  // the first exception any worker threw
  auto work = [&]() {
    try {
      State state;
      for (std::size_t i = next++; i < n; i = next++) fn(state, i);
    } catch (...) {
      std::lock_guard<std::mutex> lock(failed_mutex);
      if (!failed) failed = std::current_exception();
      next = n;  // the others stop at their next index
    }
  };
  unsigned want = threads != 0 ? threads : std::max(1u, std::thread::hardware_concurrency());
  unsigned workers =
      static_cast<unsigned>(std::min<std::size_t>(want, std::max<std::size_t>(n, 1)));
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < workers; ++t) {
    // A thread the system cannot start (out of memory, out of threads)
    // leaves the work to the ones that did start, the caller's included.
    try {
      pool.emplace_back(work);
    } catch (const std::system_error&) {
      break;
    }
  }
  work();
  for (std::thread& t : pool) t.join();
  if (failed) std::rethrow_exception(failed);
}

}  // namespace muh
