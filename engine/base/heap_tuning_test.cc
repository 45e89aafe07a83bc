#include "engine/base/heap_tuning.h"

#include <doctest/doctest.h>
#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string>

namespace {

// Runs BODY in a child process (the tuning changes the process's malloc for
// good) and returns what it wrote to the pipe.
template <typename Body>
std::string InChild(Body body) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::close(fds[0]);
    const std::string out = body();
    const ssize_t n = ::write(fds[1], out.data(), out.size());
    ::_exit(n == static_cast<ssize_t>(out.size()) ? 0 : 1);
  }
  ::close(fds[1]);
  std::string out;
  char buf[256];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) out.append(buf, buf + n);
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status));
  return out;
}

}  // namespace

TEST_CASE("heap tuning: nothing changes under an address-space limit") {
  const std::string out = InChild([] {
    rlimit as{};
    ::getrlimit(RLIMIT_AS, &as);
    as.rlim_cur = rlim_t{8} << 30;  // 8 GiB: ample, but a limit
    if (::setrlimit(RLIMIT_AS, &as) != 0) return std::string("setrlimit failed");
    const muh::HeapTuning t = muh::TuneHeapForShortRun();
    return std::string(t.tuned ? "tuned" : "untuned: ") + t.why_not;
  });
  if (muh::kSanitizerAllocator) {
    CHECK(out == "untuned: a sanitizer's allocator is in use");
  } else {
    CHECK(out == "untuned: an address-space limit is set");
  }
}

TEST_CASE("heap tuning: without a limit, buffers of MiBs come from the heap, not from mmap") {
  const std::string out = InChild([] {
    rlimit as{};
    ::getrlimit(RLIMIT_AS, &as);
    if (as.rlim_cur != RLIM_INFINITY) return std::string("limited already");
    const muh::HeapTuning t = muh::TuneHeapForShortRun();
    if (!t.tuned) return std::string("untuned: ") + t.why_not;
    // With glibc's defaults a 4 MiB buffer is a mapping of its own.
    const std::size_t mapped_before = ::mallinfo2().hblks;
    void* big = std::malloc(std::size_t{4} << 20);
    const std::size_t mapped_after = ::mallinfo2().hblks;
    std::free(big);
    return std::string(mapped_after == mapped_before ? "from the heap" : "mapped");
  });
  if (out == "limited already") return;  // run under ulimit -v: nothing to see
  if (muh::kSanitizerAllocator) {
    CHECK(out == "untuned: a sanitizer's allocator is in use");
  } else {
    CHECK(out == "from the heap");
  }
}
