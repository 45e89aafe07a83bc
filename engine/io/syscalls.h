// The system calls through which TreeIo changes the tree, behind one
// interface so that tests can fail any one of them (SQLite-style fault
// injection). The base class makes the real calls; a test double overrides
// some of them and forwards the rest.
#pragma once

#include <sys/stat.h>
#include <sys/types.h>

#include <cstddef>

namespace muh {

// Each method has the contract of the system call it is named after: it
// returns what the call returns and leaves errno set on failure.
class SysCalls {
 public:
  virtual ~SysCalls() = default;

  virtual int Open(const char* path, int flags, mode_t mode);
  virtual ssize_t Read(int fd, void* buf, std::size_t n);
  virtual ssize_t Write(int fd, const void* buf, std::size_t n);
  virtual int Fstat(int fd, struct stat* st);
  virtual int Fchmod(int fd, mode_t mode);
  virtual int Fchown(int fd, uid_t uid, gid_t gid);
  virtual int Fsync(int fd);
  virtual int Close(int fd);
  virtual int Rename(const char* from, const char* to);
  virtual int Link(const char* from, const char* to);
  virtual int Unlink(const char* path);
  virtual int Lstat(const char* path, struct stat* st);

  // The shared instance that only makes the real calls.
  static SysCalls* Real();
};

}  // namespace muh
