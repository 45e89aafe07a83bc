#include "engine/base/parallel.h"

#include <doctest/doctest.h>
#include <pthread.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <new>
#include <stdexcept>
#include <thread>
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

TEST_CASE("parallel: a background task runs meanwhile, and Join rethrows what it threw") {
  int ran = 0;
  BackgroundTask task([&] { ran = 1; });
  task.Join();
  CHECK(ran == 1);
  BackgroundTask failing([] { throw std::bad_alloc(); });
  CHECK_THROWS_AS(failing.Join(), std::bad_alloc);
}

#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define MUH_SANITIZED 1
#endif
#endif
#else
#define MUH_SANITIZED 1
#endif

#ifndef MUH_SANITIZED
// With too little address space for a thread's stack (`ulimit -v`), no
// thread starts: the caller's thread does all the work, and nothing aborts.
TEST_CASE("parallel: threads that cannot start leave their work to the caller") {
  const pid_t pid = ::fork();
  if (pid == 0) {
    // Room for the heap, not for a stack of 1 GiB (set as the default, so
    // that no stack nptl keeps from earlier threads fits either).
    std::size_t pages = 0;
    std::ifstream("/proc/self/statm") >> pages;
    const rlim_t limit = static_cast<rlim_t>(pages) * ::sysconf(_SC_PAGESIZE) + (64 << 20);
    const struct rlimit rl = {limit, limit};
    pthread_attr_t attr;
    if (::pthread_attr_init(&attr) != 0 || ::pthread_attr_setstacksize(&attr, 1 << 30) != 0 ||
        ::pthread_setattr_default_np(&attr) != 0 || ::setrlimit(RLIMIT_AS, &rl) != 0) {
      ::_exit(2);
    }
    const std::thread::id self = std::this_thread::get_id();
    std::vector<char> on_caller(100, 0);
    ParallelFor(on_caller.size(), 4, [&](NoWorkerState&, std::size_t i) {
      on_caller[i] = std::this_thread::get_id() == self ? 1 : 0;
    });
    bool ok = std::all_of(on_caller.begin(), on_caller.end(), [](char c) { return c == 1; });
    bool inline_ran = false;
    BackgroundTask task([&] { inline_ran = std::this_thread::get_id() == self; });
    task.Join();
    ::_exit(ok && inline_ran ? 0 : 1);
  }
  int status = 0;
  REQUIRE(::waitpid(pid, &status, 0) == pid);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}
#endif

}  // namespace muh
