#include "engine/io/commit_steps.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdlib>

#include "engine/io/tree_paths.h"

namespace muh {
namespace io {

namespace {

// Closes FD when it goes out of scope (also when out of memory throws),
// keeping errno for the caller.
struct ClosedAtEnd {
  SysCalls* sys;
  int fd;
  ~ClosedAtEnd() {
    const int saved = errno;
    sys->Close(fd);
    errno = saved;
  }
};

}  // namespace

bool WriteFully(SysCalls* sys, int fd, std::string_view bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = sys->Write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno != EINTR) return false;
    if (n > 0) done += static_cast<std::size_t>(n);
  }
  return true;
}

bool ReadRegular(SysCalls* sys, const std::string& path, std::uint64_t limit, std::string* out,
                 struct stat* st) {
  const int fd =
      sys->Open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY, 0);
  if (fd < 0) return false;
  const ClosedAtEnd closed{sys, fd};
  int failure = 0;
  if (sys->Fstat(fd, st) != 0) {
    failure = errno;
  } else if (!S_ISREG(st->st_mode)) {
    failure = EINVAL;
  } else if (static_cast<std::uint64_t>(st->st_size) > limit) {
    failure = EFBIG;
  }
  std::string data;
  char buf[1 << 16];
  while (failure == 0) {
    const ssize_t n = sys->Read(fd, buf, sizeof buf);
    if (n == 0) break;
    if (n < 0 && errno != EINTR) failure = errno;
    if (n > 0) data.append(buf, static_cast<std::size_t>(n));
    if (data.size() > limit) failure = EFBIG;
  }
  if (failure != 0) {
    errno = failure;
    return false;
  }
  *out = std::move(data);
  return true;
}

bool PathExists(SysCalls* sys, const std::string& path) {
  struct stat st;
  return sys->Lstat(path.c_str(), &st) == 0;
}

bool SyncDir(SysCalls* sys, const std::string& dir) {
  const int fd = sys->Open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
  if (fd < 0) return false;
  const ClosedAtEnd closed{sys, fd};
  return sys->Fsync(fd) == 0;
}

bool SyncDirs(SysCalls* sys, const std::vector<std::string>& dirs) {
  for (const std::string& dir : dirs) {
    if (!SyncDir(sys, dir)) return false;
  }
  return true;
}

bool StoreJournal(SysCalls* sys, const std::string& real_root, const Journal& journal) {
  const std::string fresh = JoinRoot(real_root, kJournalNewName);
  const std::string text = FormatJournal(journal);  // allocates: before the file exists
  const int fd =
      sys->Open(fresh.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) return false;
  bool ok = WriteFully(sys, fd, text) && sys->Fsync(fd) == 0;
  int saved = ok ? 0 : errno;
  if (sys->Close(fd) != 0 && ok) {
    ok = false;
    saved = errno;
  }
  if (ok && sys->Rename(fresh.c_str(), JoinRoot(real_root, kJournalName).c_str()) != 0) {
    ok = false;
    saved = errno;
  }
  if (ok && !SyncDir(sys, real_root)) {
    ok = false;
    saved = errno;
  }
  if (!ok) {
    sys->Unlink(fresh.c_str());  // best effort; recovery removes it by its exact name
    errno = saved;
  }
  return ok;
}

bool RemoveJournal(SysCalls* sys, const std::string& real_root) {
  for (const char* name : {kJournalName, kJournalNewName}) {
    if (sys->Unlink(JoinRoot(real_root, name).c_str()) != 0 && errno != ENOENT) return false;
  }
  return SyncDir(sys, real_root);
}

void WritePoint() {
  static const long kill_at = [] {
    const char* v = std::getenv("MUHPATCH_TEST_KILL_AT");
    return v != nullptr ? std::strtol(v, nullptr, 10) : 0L;
  }();
  static long reached = 0;
  if (kill_at > 0 && ++reached == kill_at) ::raise(SIGKILL);
}

}  // namespace io
}  // namespace muh
