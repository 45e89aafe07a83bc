#include "engine/io/syscalls.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>

namespace muh {

int SysCalls::Open(const char* path, int flags, mode_t mode) { return ::open(path, flags, mode); }
ssize_t SysCalls::Read(int fd, void* buf, std::size_t n) { return ::read(fd, buf, n); }
ssize_t SysCalls::Write(int fd, const void* buf, std::size_t n) { return ::write(fd, buf, n); }
int SysCalls::Fstat(int fd, struct stat* st) { return ::fstat(fd, st); }
int SysCalls::Fchmod(int fd, mode_t mode) { return ::fchmod(fd, mode); }
int SysCalls::Fchown(int fd, uid_t uid, gid_t gid) { return ::fchown(fd, uid, gid); }
int SysCalls::Fsync(int fd) { return ::fsync(fd); }
int SysCalls::Close(int fd) { return ::close(fd); }
int SysCalls::Rename(const char* from, const char* to) { return std::rename(from, to); }
int SysCalls::Link(const char* from, const char* to) { return ::link(from, to); }
int SysCalls::Unlink(const char* path) { return ::unlink(path); }
int SysCalls::Lstat(const char* path, struct stat* st) { return ::lstat(path, st); }

SysCalls* SysCalls::Real() {
  static SysCalls real;
  return &real;
}

}  // namespace muh
