#include "engine/io/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "engine/io/commit_steps.h"
#include "engine/io/syscalls.h"
#include "engine/io/tree_paths.h"

namespace muh {

namespace {

// The temporary name beside `path`: `.NAME.muhpatch-tmp.PID.new`.
std::string TempBeside(const std::string& path) {
  std::size_t slash = path.rfind('/');
  std::string dir = slash == std::string::npos ? "" : path.substr(0, slash + 1);
  std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
  return dir + "." + name + ".muhpatch-tmp." + std::to_string(::getpid()) + ".new";
}

}  // namespace

bool WriteFileAtomically(const std::string& path, const std::string& bytes, std::string* err) {
  const std::string temp = TempBeside(path);
  struct stat st;
  const bool exists = ::stat(path.c_str(), &st) == 0;
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) {
    *err = "cannot create a temporary file beside it" + io::Why(errno);
    return false;
  }
  bool ok = io::WriteFully(SysCalls::Real(), fd, bytes);
  int e = errno;
  if (ok && exists && ::fchmod(fd, st.st_mode & 07777) != 0) ok = false, e = errno;
  if (ok && ::fsync(fd) != 0) ok = false, e = errno;
  if (::close(fd) != 0 && ok) ok = false, e = errno;
  if (ok && ::rename(temp.c_str(), path.c_str()) != 0) ok = false, e = errno;
  if (!ok) {
    ::unlink(temp.c_str());
    *err = "cannot write" + io::Why(e);
  }
  return ok;
}

}  // namespace muh
