#include "engine/io/tree_io.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>
#include <new>

#include "engine/io/tree_paths.h"

namespace muh {

namespace {

using io::DirName;
using io::IsWithin;
using io::JoinRoot;
using io::RealPath;
using io::Why;

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::string TooLarge(std::uint64_t limit) {
  return "file is larger than the limit of " + std::to_string(limit) + " bytes";
}

// Before a byte of the open FD is read: refuses directories, with
// REGULAR_ONLY anything not a regular file, and a regular file over LIMIT,
// closing FD. *ok: whether fstat worked (a failure is read's to report).
bool CheckOpened(int fd, bool regular_only, std::uint64_t limit, struct stat* st, bool* ok,
                 std::string* msg) {
  *ok = ::fstat(fd, st) == 0;
  if (*ok && (S_ISDIR(st->st_mode) || (regular_only && !S_ISREG(st->st_mode)))) {
    ::close(fd);
    *msg = S_ISDIR(st->st_mode) ? "is a directory, not a file"
                                : "not a regular file (" + io::KindOf(st->st_mode) + ")";
    return false;
  }
  if (*ok && S_ISREG(st->st_mode) && static_cast<std::uint64_t>(st->st_size) > limit) {
    ::close(fd);
    *msg = TooLarge(limit);
    return false;
  }
  return true;
}

// Reads the open FD to EOF into *bytes and closes it, refusing more than
// LIMIT bytes. Refuses directories, and with REGULAR_ONLY anything not a
// regular file, before reading a byte. *msg as in ReadWholeFile.
bool ReadAndClose(int fd, bool regular_only, std::uint64_t limit, std::string* bytes,
                  std::string* msg) {
  struct stat st;
  bool ok = false;
  if (!CheckOpened(fd, regular_only, limit, &st, &ok, msg)) return false;
  std::string data;
  if (ok && S_ISREG(st.st_mode)) {
    // A regular file is read straight into its string, in one read(2) when
    // its size stays what fstat said: asking for a byte more than that
    // size and getting less is the end of the file.
    std::size_t want = static_cast<std::size_t>(st.st_size) + 1;
    while (ok && data.size() <= limit) {
      const std::size_t at = data.size();
      data.resize(at + want);
      const ssize_t n = ::read(fd, &data[at], want);
      data.resize(at + (n > 0 ? static_cast<std::size_t>(n) : 0));
      if (n == 0 || (n > 0 && static_cast<std::size_t>(n) < want)) break;
      if (n < 0 && errno != EINTR) ok = false;
      want = std::size_t{1} << 16;  // it grew while being read
    }
  } else {
    char buf[1 << 16];
    while (ok && data.size() <= limit) {
      const ssize_t n = ::read(fd, buf, sizeof buf);
      if (n == 0) break;
      if (n > 0) data.append(buf, static_cast<std::size_t>(n));
      if (n < 0 && errno != EINTR) ok = false;
    }
  }
  const int saved = errno;
  ::close(fd);
  if (!ok) {
    *msg = "cannot read" + Why(saved);
    return false;
  }
  if (data.size() > limit) {
    *msg = TooLarge(limit);
    return false;
  }
  *bytes = std::move(data);
  return true;
}

// As ReadAndClose with REGULAR_ONLY, into memory from ARENA: *bytes views
// the file's bytes there. A file that grows while it is read is read to its
// end all the same, in a larger piece.
bool ReadIntoArenaAndClose(int fd, std::uint64_t limit, FileArena* arena, std::string_view* bytes,
                           std::string* msg) {
  struct stat st;
  bool ok = false;
  if (!CheckOpened(fd, /*regular_only=*/true, limit, &st, &ok, msg)) return false;
  // One byte more than fstat said: getting less is the end of the file.
  std::size_t cap = ok ? static_cast<std::size_t>(st.st_size) + 1 : 1;
  char* buf = ok ? arena->Take(cap) : nullptr;
  std::size_t got = 0;
  while (ok && got <= limit) {
    const ssize_t n = ::read(fd, buf + got, cap - got);
    if (n < 0) {
      ok = errno == EINTR;
      continue;
    }
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
    if (got == cap) {  // it grew while being read
      char* more = arena->Take(cap * 2);
      std::memcpy(more, buf, got);
      buf = more;
      cap *= 2;
    }
  }
  const int saved = errno;
  ::close(fd);
  if (!ok) {
    *msg = "cannot read" + Why(saved);
    return false;
  }
  if (got > limit) {
    *msg = TooLarge(limit);
    return false;
  }
  *bytes = std::string_view(buf, got);
  return true;
}

// Decides whether the non-directory entry REL (of lstat type MODE) is listed.
using KeepFn = std::function<bool(const std::string& rel, mode_t mode)>;

// The system running out of memory while listing (ENOMEM from opendir,
// readdir or lstat) is out of memory like any allocation that fails, not a
// tree that cannot be listed: std::bad_alloc (exit 4), not bad input.
void ThrowIfOutOfMemory(int e) {
  if (e == ENOMEM) throw std::bad_alloc();
}

// Appends to *out every kept entry below REL_DIR ("" for the root), skipping
// dot-directories and not following directory symlinks. With opendir(3) and
// readdir(3), not std::filesystem: libstdc++'s directory_iterator builds
// each entry in a noexcept function, so an allocation that fails there
// aborts the process instead of throwing.
bool WalkDir(const std::string& real_root, const std::string& shown_root,
             const std::string& rel_dir, const KeepFn& keep, std::vector<std::string>* out,
             std::vector<std::string>* hidden, Diagnostic* err) {
  const auto fail = [&](int e) {
    ThrowIfOutOfMemory(e);
    *err =
        MakeError(rel_dir.empty() ? shown_root : rel_dir, 0, 0, "cannot list directory" + Why(e));
    return false;
  };
  DIR* dir = ::opendir(rel_dir.empty() ? real_root.c_str() : JoinRoot(real_root, rel_dir).c_str());
  if (dir == nullptr) return fail(errno);
  struct Closer {
    DIR* dir;
    void Close() {
      if (dir != nullptr) ::closedir(dir);
      dir = nullptr;
    }
    ~Closer() { Close(); }
  } closer{dir};
  std::vector<std::string> subdirs;  // descended into once this one is closed
  for (;;) {
    errno = 0;
    const struct dirent* entry = ::readdir(dir);
    if (entry == nullptr) {
      if (errno != 0) return fail(errno);
      break;
    }
    const char* name = entry->d_name;
    if (std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0) continue;
    mode_t mode = DTTOIF(entry->d_type);
    if (entry->d_type == DT_UNKNOWN) {  // the file system does not say: lstat
      struct stat st;
      if (::fstatat(::dirfd(dir), name, &st, AT_SYMLINK_NOFOLLOW) != 0) return fail(errno);
      mode = st.st_mode;
    }
    std::string rel = rel_dir.empty() ? std::string(name) : rel_dir + "/" + name;
    if (S_ISDIR(mode)) {
      if (name[0] == '.') {
        hidden->push_back(std::move(rel));
      } else {
        subdirs.push_back(std::move(rel));
      }
    } else if (keep(rel, mode)) {
      out->push_back(std::move(rel));
    }
  }
  closer.Close();
  for (const std::string& sub : subdirs) {
    if (!WalkDir(real_root, shown_root, sub, keep, out, hidden, err)) return false;
  }
  return true;
}

// Opens REL strictly beneath the directory open as ROOT with no symlink
// anywhere on the way (openat2 with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS),
// in one syscall instead of one readlink per component. -1 when ROOT is -1,
// the kernel lacks openat2 or the path has a symlink: the caller then takes
// the careful path.
// O_NONBLOCK: opening a FIFO must not wait for a writer (Read refuses it).
int OpenBeneath(int root, const std::string& rel) {
#ifdef SYS_openat2
  if (root < 0 || rel.empty() || rel.front() == '/') return -1;
  if (io::HasDotDotComponent(rel)) return -1;  // refused by policy
  struct open_how how {};
  how.flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | O_NOFOLLOW;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  const long fd = ::syscall(SYS_openat2, root, rel.c_str(), &how, sizeof(how));
  return fd < 0 ? -1 : static_cast<int>(fd);
#else
  static_cast<void>(root);
  static_cast<void>(rel);
  return -1;
#endif
}

}  // namespace

bool ReadWholeFile(const std::string& path, std::string* bytes, std::string* err) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    *err = "cannot open" + Why(errno);
    return false;
  }
  return ReadAndClose(fd, /*regular_only=*/false, kMaxInputFileBytes, bytes, err);
}

bool TreeIo::Open(const std::string& root, TreeIo* out, Diagnostic* err) {
  std::string real;
  if (!RealPath(root, &real)) {
    const bool missing = errno == ENOENT || errno == ENOTDIR;
    *err = MakeError(root, 0, 0, missing ? "no such directory" : "cannot open" + Why(errno));
    return false;
  }
  struct stat st;
  if (::stat(real.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    *err = MakeError(root, 0, 0, "not a directory");
    return false;
  }
  out->root_ = root;
  out->real_root_ = real;
  const int fd = ::open(real.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  out->root_fd_ = std::shared_ptr<const int>(new int(fd), [](const int* p) {
    if (*p >= 0) ::close(*p);
    delete p;
  });
  return true;
}

bool TreeIo::ListFiles(const std::string& suffix, std::vector<std::string>* out, Diagnostic* err,
                       ListingSkips* skips) const {
  const std::string& real_root = real_root_;
  ListingSkips local;
  ListingSkips* s = skips != nullptr ? skips : &local;
  s->hidden_dirs.clear();
  s->unlisted.clear();
  s->gitignores.clear();
  const KeepFn keep = [&](const std::string& rel, mode_t mode) {
    if (rel == ".gitignore" || EndsWith(rel, "/.gitignore")) s->gitignores.push_back(rel);
    if (!EndsWith(rel, suffix)) return false;
    if (S_ISREG(mode)) return true;
    std::string real;
    struct stat target;
    const bool kept = S_ISLNK(mode) && RealPath(JoinRoot(real_root, rel), &real) &&
                      IsWithin(real, real_root) && ::stat(real.c_str(), &target) == 0 &&
                      S_ISREG(target.st_mode);
    if (!kept) s->unlisted.push_back(rel);
    return kept;
  };
  out->clear();
  if (!WalkDir(real_root_, root_, "", keep, out, &s->hidden_dirs, err)) return false;
  std::sort(out->begin(), out->end());
  std::sort(s->hidden_dirs.begin(), s->hidden_dirs.end());
  std::sort(s->unlisted.begin(), s->unlisted.end());
  std::sort(s->gitignores.begin(), s->gitignores.end());
  return true;
}

bool TreeIo::Exists(const std::string& rel) const {
  if (rel.empty() || rel[0] == '/' || io::HasDotDotComponent(rel)) return false;
  const std::string joined = JoinRoot(real_root_, rel);
  std::string real_dir;
  struct stat st;
  return RealPath(DirName(joined), &real_dir) && IsWithin(real_dir, real_root_) &&
         ::lstat(joined.c_str(), &st) == 0;
}

namespace {

// Opens `rel` beneath the tree as TreeIo::Read does and hands the open file
// to `read`, which closes it; its message is located at `rel`.
bool ReadBeneath(int root_fd, const std::string& real_root, const std::string& rel, Diagnostic* err,
                 const std::function<bool(int fd, std::string* msg)>& read) {
  const int fast = OpenBeneath(root_fd, rel);
  if (fast >= 0) {
    std::string msg;
    if (read(fast, &msg)) return true;
    *err = MakeError(rel, 0, 0, msg);
    return false;
  }
  io::Resolved r;
  if (!io::ResolveFile(real_root, rel, &r, err)) return false;  // lstat and stat first
  const int fd = ::open(r.real.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
  std::string msg = fd < 0 ? "cannot open" + Why(errno) : "";
  if (fd >= 0 && read(fd, &msg)) return true;
  *err = MakeError(rel, 0, 0, msg);
  return false;
}

}  // namespace

bool TreeIo::Read(const std::string& rel, std::string* bytes, Diagnostic* err) const {
  return ReadBeneath(root_fd_ ? *root_fd_ : -1, real_root_, rel, err,
                     [&](int fd, std::string* msg) {
                       return ReadAndClose(fd, /*regular_only=*/true, max_file_bytes_, bytes, msg);
                     });
}

bool TreeIo::Read(const std::string& rel, FileArena* arena, std::string_view* bytes,
                  Diagnostic* err) const {
  return ReadBeneath(root_fd_ ? *root_fd_ : -1, real_root_, rel, err,
                     [&](int fd, std::string* msg) {
                       return ReadIntoArenaAndClose(fd, max_file_bytes_, arena, bytes, msg);
                     });
}

bool TreeIo::CheckWritable(const std::vector<std::string>& rels,
                           std::vector<Diagnostic>* errs) const {
  std::vector<io::Resolved> resolved;
  return io::CheckAll(real_root_, rels, &resolved, errs);
}

TreeIo::Lock::~Lock() {
  if (fd_ >= 0) ::close(fd_);  // closing releases the flock
}

bool TreeIo::AcquireLock(bool exclusive, Lock* lock, Diagnostic* err) const {
  int fd = ::open(real_root_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    *err = MakeError(root_, 0, 0, "cannot open the tree to lock it" + Why(errno));
    return false;
  }
  int op = exclusive ? (LOCK_EX | LOCK_NB) : LOCK_SH;
  if (::flock(fd, op) != 0) {
    int saved = errno;
    ::close(fd);
    *err = MakeError(root_, 0, 0,
                     saved == EWOULDBLOCK
                         ? "another muhpatch run holds the tree's lock; nothing was written"
                         : "cannot lock the tree" + Why(saved));
    return false;
  }
  lock->fd_ = fd;
  return true;
}

}  // namespace muh
