#include "engine/base/out_of_memory.h"

#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <new>
#include <stdexcept>
#include <string>

#include "engine/base/exit_codes.h"

namespace muh {
namespace {

struct Outcome {
  int code = -1;    // exit status, or 128 + the signal
  std::string err;  // what it wrote to stderr
};

// Runs FN in a child process with stderr captured.
template <typename Fn>
Outcome InChild(Fn fn) {
  int pipe_fds[2];
  REQUIRE(::pipe(pipe_fds) == 0);
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(pipe_fds[1], STDERR_FILENO);
    ::close(pipe_fds[0]);
    fn();
    ::_exit(0);
  }
  ::close(pipe_fds[1]);
  Outcome out;
  char buf[512];
  for (ssize_t n; (n = ::read(pipe_fds[0], buf, sizeof buf)) > 0;) {
    out.err.append(buf, static_cast<std::size_t>(n));
  }
  ::close(pipe_fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  out.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return out;
}

[[noreturn]] void Throw(bool out_of_memory) {
  if (out_of_memory) throw std::bad_alloc();
  throw std::logic_error("a bug");
}

// Where nothing can catch: an exception leaving a noexcept function.
void ThroughNoexcept(bool out_of_memory) noexcept { Throw(out_of_memory); }

TEST_CASE("out of memory: a bad_alloc that reaches std::terminate exits 4 with one line") {
  const Outcome o = InChild([] {
    InstallTerminateHandler();
    ThroughNoexcept(true);
  });
  CHECK(o.code == kExitInternal);
  CHECK(o.err == "muhpatch: error: out of memory\n");
}

TEST_CASE("out of memory: any other exception that reaches std::terminate still aborts") {
  const Outcome o = InChild([] {
    InstallTerminateHandler();
    ThroughNoexcept(false);
  });
  CHECK(o.code == 128 + SIGABRT);
}

TEST_CASE("out of memory: inside an AbruptExitNote the exit says the note's words and code") {
  const Outcome o = InChild([] {
    AbruptExitNote note(kExitWriteFailed, " while doing something half-done");
    ExitOutOfMemory(" (ignored)");
  });
  CHECK(o.code == kExitWriteFailed);
  CHECK(o.err == "muhpatch: error: out of memory while doing something half-done\n");
  const Outcome after = InChild([] {
    { AbruptExitNote note(kExitWriteFailed, " while doing something"); }
    ExitOutOfMemory(" (in the parser)");
  });
  CHECK(after.code == kExitInternal);
  CHECK(after.err == "muhpatch: error: out of memory (in the parser)\n");
}

TEST_CASE("out of memory: the reserve is given back once") {
  ReserveMemory();
  ReleaseMemoryReserve();
  ReleaseMemoryReserve();
  const Outcome o = InChild([] { WriteStderrLine({"a", "/", "b", ": error: left"}); });
  CHECK(o.err == "a/b: error: left\n");
}

}  // namespace
}  // namespace muh
