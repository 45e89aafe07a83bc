// RunOnce: std::call_once's job without its hazard. A function that throws
// inside std::call_once unwinds through glibc's pthread_once, and glibc
// then loads libgcc_s on the spot to unwind its own frame; out of memory
// (the very bad_alloc being thrown), that load fails and glibc aborts the
// process ("libgcc_s.so.1 must be installed for unwinding to work"). Here
// the work runs under a plain mutex in our own frame, so an exception
// leaves by ordinary C++ unwinding; the work is then not done, and the next
// caller tries again.
#pragma once

#include <atomic>
#include <mutex>

namespace muh {

class RunOnce {
 public:
  template <typename Fn>
  void operator()(Fn&& fn) {
    if (done_.load(std::memory_order_acquire)) return;
    std::lock_guard<std::mutex> lock(mutex_);
    if (done_.load(std::memory_order_relaxed)) return;
    fn();
    done_.store(true, std::memory_order_release);
  }
  // Whether the work has been done (by any thread).
  bool done() const { return done_.load(std::memory_order_acquire); }

 private:
  std::mutex mutex_;
  std::atomic<bool> done_{false};
};

}  // namespace muh
