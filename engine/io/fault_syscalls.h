// Test-only: a SysCalls double for fault injection. It counts the calls that
// change the disk (write, fsync, rename, link, unlink) and can fail the Nth
// one with a chosen errno, fail every one from the Nth on (a rollback that
// cannot undo), or "die" at the Nth: from there on nothing reaches the disk,
// as if the process had been killed. A hook runs before each counted call.
#pragma once

#include <fcntl.h>

#include <cerrno>
#include <functional>
#include <string>

#include "engine/io/syscalls.h"

namespace muh {
namespace testing {

enum class Op { kWrite, kFsync, kRename, kLink, kUnlink };

class FaultySysCalls : public SysCalls {
 public:
  int fail_at = 0;          // 1-based index of the counted call that fails; 0: none
  bool fail_after = false;  // every counted call after fail_at fails too
  int die_at = 0;           // from this counted call on, nothing changes the disk
  int count = 0;            // counted calls so far
  // Runs before each counted call with its index and path (rename: the
  // destination; write, fsync: "").
  std::function<void(Op, int, const std::string&)> before;

  // The errno an injected failure of OP sets: what the cases see.
  static int ErrnoFor(Op op) {
    switch (op) {
      case Op::kWrite:
        return ENOSPC;
      case Op::kFsync:
        return EIO;
      case Op::kRename:
        return EBUSY;
      case Op::kLink:
        return EMLINK;
      case Op::kUnlink:
        return EACCES;
    }
    return EIO;
  }

  int Open(const char* path, int flags, mode_t mode) override {
    if (dead() && (flags & O_CREAT) != 0) return Fail(EIO);
    return SysCalls::Open(path, flags, mode);
  }
  ssize_t Write(int fd, const void* buf, std::size_t n) override {
    if (Hit(Op::kWrite, "")) return -1;
    return SysCalls::Write(fd, buf, n);
  }
  int Fchmod(int fd, mode_t mode) override {
    return dead() ? Fail(EIO) : SysCalls::Fchmod(fd, mode);
  }
  int Fchown(int fd, uid_t uid, gid_t gid) override {
    return dead() ? Fail(EIO) : SysCalls::Fchown(fd, uid, gid);
  }
  int Fsync(int fd) override { return Hit(Op::kFsync, "") ? -1 : SysCalls::Fsync(fd); }
  int Rename(const char* from, const char* to) override {
    return Hit(Op::kRename, to) ? -1 : SysCalls::Rename(from, to);
  }
  int Link(const char* from, const char* to) override {
    return Hit(Op::kLink, to) ? -1 : SysCalls::Link(from, to);
  }
  int Unlink(const char* path) override {
    return Hit(Op::kUnlink, path) ? -1 : SysCalls::Unlink(path);
  }

 private:
  bool dead() const { return die_at > 0 && count >= die_at; }
  static int Fail(int e) {
    errno = e;
    return -1;
  }
  // Counts a call; true (errno set) when it must fail.
  bool Hit(Op op, const std::string& path) {
    ++count;
    if (before) before(op, count, path);
    if (dead()) return Fail(EIO) != 0;
    if (fail_at > 0 && (count == fail_at || (fail_after && count > fail_at))) {
      return Fail(ErrnoFor(op)) != 0;
    }
    return false;
  }
};

}  // namespace testing
}  // namespace muh
