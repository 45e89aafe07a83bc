// Runs fn(state, i) for every i in [0, n), one worker per core (or
// `threads` when non-zero). Each worker builds its own State once (a parser,
// say). Work is handed out one index at a time; callers write results by
// index, so output never depends on timing. An exception thrown by `fn`
// (out of memory, say) stops the other workers and is rethrown to the
// caller once every worker has joined; a worker that cannot be started
// leaves its share to the others. ParallelFor itself throws nothing else:
// threads that cannot start (no memory for their stack or their state) are
// no error, and no thread is ever left running.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

namespace muh {

struct NoWorkerState {};

template <typename State = NoWorkerState, typename Fn>
void ParallelFor(std::size_t n, unsigned threads, Fn fn) {
  std::atomic<std::size_t> next{0};
  std::mutex failed_mutex;
  std::exception_ptr failed;  // the first exception any worker threw
  auto work = [&] {
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
  try {
    // Reserved up front: growing the pool while threads run could throw
    // and destroy running threads (std::terminate).
    pool.reserve(workers - 1);
  } catch (const std::bad_alloc&) {
    workers = 1;  // the caller's thread does it all
  }
  for (unsigned t = 1; t < workers; ++t) {
    // A thread the system cannot start (no memory for its stack: EAGAIN;
    // none for its state: bad_alloc) leaves the work to the ones that did
    // start, the caller's included.
    try {
      pool.emplace_back(work);
    } catch (const std::system_error&) {
      break;
    } catch (const std::bad_alloc&) {
      break;
    }
  }
  work();
  for (std::thread& t : pool) t.join();
  if (failed) std::rethrow_exception(failed);
}

// Runs fn() on a thread of its own, meanwhile the caller does other work;
// Join() waits for it and rethrows what fn threw. When the system cannot
// start a thread (std::system_error, std::bad_alloc), Join() runs fn on the
// caller's thread instead: running short of memory makes the run serial,
// not a crash. The destructor joins a running thread (so an exception on
// the caller's side never leaves one running) and rethrows nothing.
template <typename Fn>
class BackgroundTask {
 public:
  explicit BackgroundTask(Fn fn) : fn_(std::move(fn)) {
    try {
      thread_ = std::thread([this] { Run(); });
    } catch (const std::system_error&) {
    } catch (const std::bad_alloc&) {
    }
  }
  BackgroundTask(const BackgroundTask&) = delete;
  BackgroundTask& operator=(const BackgroundTask&) = delete;
  ~BackgroundTask() {
    if (thread_.joinable()) thread_.join();
  }

  void Join() {
    if (thread_.joinable()) {
      thread_.join();
    } else if (!ran_) {
      Run();
    }
    if (error_) std::rethrow_exception(error_);
  }

 private:
  void Run() {
    ran_ = true;
    try {
      fn_();
    } catch (...) {
      error_ = std::current_exception();
    }
  }

  Fn fn_;
  std::thread thread_;
  std::exception_ptr error_;
  bool ran_ = false;
};

}  // namespace muh
