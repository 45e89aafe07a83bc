#include "engine/base/checked_output.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <iostream>
#include <string>
#include <thread>

namespace muh {
namespace {

TEST_CASE("WriteAllToFd writes everything through a pipe with short writes") {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  std::string big(1 << 20, 'x');  // far more than a pipe buffer holds
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>('a' + i % 26);
  std::string got;
  std::thread reader([&] {
    char buf[4096];
    ssize_t n;
    while ((n = ::read(fds[0], buf, sizeof buf)) > 0) got.append(buf, static_cast<std::size_t>(n));
  });
  std::string err;
  CHECK(WriteAllToFd(fds[1], big, &err));
  std::string close_err;
  CHECK(CloseChecked(fds[1], &close_err));
  reader.join();
  ::close(fds[0]);
  CHECK(got == big);
}

TEST_CASE("WriteAllToFd reports a full disk, a closed pipe and a closed descriptor") {
  std::string err;
  const int full = ::open("/dev/full", O_WRONLY | O_CLOEXEC);
  if (full >= 0) {
    CHECK_FALSE(WriteAllToFd(full, "diff --git a/x b/x\n", &err));
    CHECK(err == "cannot write (No space left on device)");
    ::close(full);
  }
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  ::close(fds[0]);
  void (*old)(int) = std::signal(SIGPIPE, SIG_IGN);
  CHECK_FALSE(WriteAllToFd(fds[1], "x", &err));
  std::signal(SIGPIPE, old);
  CHECK(err == "cannot write (the reader closed the pipe)");
  ::close(fds[1]);
  CHECK_FALSE(WriteAllToFd(fds[1], "x", &err));  // closed above
  CHECK(err == "cannot write (the descriptor is not open)");
  CHECK(WriteAllToFd(fds[1], "", &err));  // nothing to write is no failure
  CHECK_FALSE(CloseChecked(fds[1], &err));
  CHECK(err == "cannot close (the descriptor is not open)");
}

// Runs BODY in a child whose stdout is TARGET (opened write-only); returns
// the child's exit status.
template <typename Body>
int InChild(const char* target, Body body) {
  std::cout.flush();
  std::fflush(stdout);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int fd = ::open(target, O_WRONLY);
    if (fd < 0 || ::dup2(fd, STDOUT_FILENO) < 0) ::_exit(99);
    ::close(fd);
    ::_exit(body() ? 0 : 1);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST_CASE("FinishStdout fails when buffered output cannot be written") {
  if (::access("/dev/full", W_OK) == 0) {
    CHECK(InChild("/dev/full", [] {
            std::cout << "diff --git a/x b/x\n";
            std::string err;
            return !FinishStdout(&err) && err == "cannot write stdout (No space left on device)";
          }) == 0);
    CHECK(InChild("/dev/full", [] {
            std::string err;
            return !WriteStdout("x", &err) && err == "cannot write (No space left on device)";
          }) == 0);
  }
  CHECK(InChild("/dev/null", [] {
          std::cout << "fine\n";
          std::string err;
          return FinishStdout(&err);
        }) == 0);
}

}  // namespace
}  // namespace muh
