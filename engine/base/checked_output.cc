#include "engine/base/checked_output.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "engine/base/exit_codes.h"

namespace muh {

namespace {

std::string Reason(int e) {
  switch (e) {
    case EPIPE:
      return "the reader closed the pipe";
    case EBADF:
      return "the descriptor is not open";
    default:
      return std::strerror(e);
  }
}

}  // namespace

bool WriteAllToFd(int fd, std::string_view bytes, std::string* err) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      // write(2) returning 0 for a non-empty buffer is no progress: report it.
      *err = "cannot write (" + Reason(n < 0 ? errno : EIO) + ")";
      return false;
    }
    done += static_cast<std::size_t>(n);
  }
  return true;
}

bool WriteStdout(std::string_view bytes, std::string* err) {
  return WriteAllToFd(STDOUT_FILENO, bytes, err);
}

bool CloseChecked(int fd, std::string* err) {
  if (::close(fd) == 0 || errno == EINTR) return true;
  *err = "cannot close (" + Reason(errno) + ")";
  return false;
}

bool FinishStdout(std::string* err) {
  errno = 0;
  std::cout.flush();
  const bool cout_ok = !std::cout.fail();
  const int cout_errno = errno;
  const bool stdio_ok = std::fflush(stdout) == 0;
  const int stdio_errno = errno;
  if (!cout_ok || !stdio_ok) {
    const int e = !stdio_ok ? stdio_errno : cout_errno;
    *err = "cannot write stdout (" + (e != 0 ? Reason(e) : std::string("output error")) + ")";
    return false;
  }
  std::string close_err;
  if (!CloseChecked(STDOUT_FILENO, &close_err)) {
    *err = "cannot write stdout: " + close_err;
    return false;
  }
  return true;
}

int FinishOutput(int code) {
  std::string err;
  if (!FinishStdout(&err)) {
    std::cerr << "muhpatch: error: " << err << "\n";
    return kExitInternal;
  }
  return code;
}

}  // namespace muh
