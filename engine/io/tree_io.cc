#include "engine/io/tree_io.h"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <system_error>

namespace muh {

namespace {

namespace fs = std::filesystem;

// " (<strerror(E)>)", to end a message.
std::string Why(int e) { return std::string(" (") + std::strerror(e) + ")"; }

// True when REAL (a realpath) is ROOT (a realpath) or lies below it.
bool IsWithin(const std::string& real, const std::string& root) {
  if (root == "/") return true;
  return real.compare(0, root.size(), root) == 0 &&
         (real.size() == root.size() || real[root.size()] == '/');
}

// ROOT joined with the tree-relative REL.
std::string JoinRoot(const std::string& root, const std::string& rel) {
  return root == "/" ? "/" + rel : root + "/" + rel;
}

// REAL (inside ROOT) as a tree-relative path; "." for ROOT itself.
std::string RelativeTo(const std::string& real, const std::string& root) {
  return real == root ? "." : real.substr(root == "/" ? 1 : root.size() + 1);
}

// The directory part of an absolute PATH; "/" for a top-level entry.
std::string DirName(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string BaseName(const std::string& path) { return path.substr(path.rfind('/') + 1); }

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// realpath(3) into *out; false with errno set on failure.
bool RealPath(const std::string& path, std::string* out) {
  char* resolved = ::realpath(path.c_str(), nullptr);
  if (resolved == nullptr) return false;
  *out = resolved;
  std::free(resolved);
  return true;
}

bool HasDotDotComponent(const std::string& rel) {
  return ("/" + rel + "/").find("/../") != std::string::npos;
}

// Reads the open FD to EOF into *bytes and closes it. Refuses directories,
// and with REGULAR_ONLY anything not a regular file. *msg as in ReadWholeFile.
bool ReadAndClose(int fd, bool regular_only, std::string* bytes, std::string* msg) {
  struct stat st;
  bool ok = ::fstat(fd, &st) == 0;
  if (ok && (S_ISDIR(st.st_mode) || (regular_only && !S_ISREG(st.st_mode)))) {
    ::close(fd);
    *msg = S_ISDIR(st.st_mode) ? "is a directory, not a file" : "not a regular file";
    return false;
  }
  std::string data;
  if (ok && S_ISREG(st.st_mode)) data.reserve(static_cast<std::size_t>(st.st_size));
  char buf[1 << 16];
  while (ok) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n == 0) break;
    if (n > 0) data.append(buf, static_cast<std::size_t>(n));
    if (n < 0 && errno != EINTR) ok = false;
  }
  const int saved = errno;
  ::close(fd);
  if (!ok) {
    *msg = "cannot read" + Why(saved);
    return false;
  }
  *bytes = std::move(data);
  return true;
}

bool WriteFully(int fd, const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno != EINTR) return false;
    if (n > 0) done += static_cast<std::size_t>(n);
  }
  return true;
}

// fsync(2)s the directory DIR; false with errno set on failure.
bool SyncDir(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  const bool ok = fd >= 0 && ::fsync(fd) == 0;
  const int saved = errno;
  if (fd >= 0) ::close(fd);
  errno = saved;
  return ok;
}

// A tree-relative path resolved to a regular file inside the tree.
struct Resolved {
  std::string real;  // realpath of the file
  struct stat st;    // stat of the file
};

// Resolves REL below REAL_ROOT to a regular file, or sets *err (file = REL).
bool ResolveFile(const std::string& real_root, const std::string& rel, Resolved* out,
                 Diagnostic* err) {
  const auto fail = [&](std::string msg) {
    *err = MakeError(rel, 0, 0, std::move(msg));
    return false;
  };
  if (rel.empty()) return fail("empty path");
  if (rel[0] == '/') return fail("absolute path; expected a path relative to the tree");
  if (HasDotDotComponent(rel)) return fail("path leaves the tree");
  const std::string joined = JoinRoot(real_root, rel);
  struct stat lst;
  if (::lstat(joined.c_str(), &lst) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return fail("no such file in the tree");
    return fail("cannot access" + Why(errno));
  }
  if (!RealPath(joined, &out->real)) return fail("cannot resolve symlink" + Why(errno));
  if (!IsWithin(out->real, real_root)) {
    return fail("symlink resolves outside the tree (" + out->real + ")");
  }
  if (::stat(out->real.c_str(), &out->st) != 0) return fail("cannot access" + Why(errno));
  if (S_ISDIR(out->st.st_mode)) return fail("is a directory, not a file");
  if (!S_ISREG(out->st.st_mode)) return fail("not a regular file");
  return true;
}

// Why we may not write PATH: "" when we may, else "read-only" or a reason.
// The owner-write bit counts too, since access(2) grants root everything.
std::string WriteProblem(const std::string& path, int access_mode) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return "not accessible" + Why(errno);
  if ((st.st_mode & S_IWUSR) == 0) return "read-only";
  if (::access(path.c_str(), access_mode) == 0) return "";
  return errno == EACCES ? "read-only" : "not writable" + Why(errno);
}

// Resolves REL and checks that it and its directory may be written.
bool CheckOne(const std::string& real_root, const std::string& rel, Resolved* r, Diagnostic* err) {
  if (!ResolveFile(real_root, rel, r, err)) return false;
  const std::string dir = DirName(r->real);
  std::string problem = WriteProblem(r->real, W_OK);
  if (!problem.empty()) {
    problem = "file is " + problem;
  } else if (!(problem = WriteProblem(dir, W_OK | X_OK)).empty()) {
    problem = "directory " + RelativeTo(dir, real_root) + " is " + problem;
  }
  if (!problem.empty()) *err = MakeError(rel, 0, 0, problem);
  return problem.empty();
}

// Test-only: MUHPATCH_TEST_KILL_AT=N sends SIGKILL to this process at the
// Nth write point (1-based) of the run, so tests can stop `apply` at every
// step of every file and check that nothing is torn.
void WritePoint() {
  static const long kill_at = [] {
    const char* v = std::getenv("MUHPATCH_TEST_KILL_AT");
    return v != nullptr ? std::strtol(v, nullptr, 10) : 0L;
  }();
  static long reached = 0;
  if (kill_at > 0 && ++reached == kill_at) ::raise(SIGKILL);
}

// Atomically replaces the file R with BYTES (see TreeIo::WriteAll).
bool ReplaceFile(const Resolved& r, const std::string& bytes, std::string* msg) {
  const std::string dir = DirName(r.real);
  const std::string tmp_name = "." + BaseName(r.real) + kTempInfix + std::to_string(::getpid());
  const std::string tmp = dir + "/" + tmp_name;
  const int flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW;
  int fd = ::open(tmp.c_str(), flags, 0600);
  if (fd < 0 && errno == EEXIST && ::unlink(tmp.c_str()) == 0) {
    fd = ::open(tmp.c_str(), flags, 0600);  // a stale leftover of an earlier run with our pid
  }
  if (fd < 0) {
    *msg = "cannot create " + tmp_name + Why(errno);
    return false;
  }
  // Reports the failed STEP, closes FD unless closed already and removes the temp file.
  const auto fail = [&](const std::string& step, bool fd_open) {
    const int saved = errno;
    if (fd_open) ::close(fd);
    ::unlink(tmp.c_str());
    *msg = "cannot " + step + " " + tmp_name + Why(saved);
    return false;
  };
  WritePoint();  // temp file created, empty
  if (!WriteFully(fd, bytes)) return fail("write", true);
  WritePoint();  // temp file written, not yet synced
  if (r.st.st_uid != ::geteuid() || r.st.st_gid != ::getegid()) {
    const bool chowned = ::fchown(fd, r.st.st_uid, r.st.st_gid) == 0;  // best effort
    static_cast<void>(chowned);
  }
  if (::fchmod(fd, r.st.st_mode & 07777) != 0) return fail("set the mode of", true);
  if (::fsync(fd) != 0) return fail("fsync", true);
  if (::close(fd) != 0) return fail("close", false);
  WritePoint();  // temp file complete and synced
  if (::rename(tmp.c_str(), r.real.c_str()) != 0) return fail("rename", false);
  WritePoint();  // renamed over the target
  if (!SyncDir(dir)) {
    *msg = "rewritten, but cannot fsync its directory" + Why(errno);
    return false;
  }
  return true;
}

// Decides whether the non-directory entry REL (status ST) is listed.
using KeepFn = std::function<bool(const std::string& rel, const fs::file_status& st)>;

// Appends to *out every kept entry below REL_DIR ("" for the root), skipping
// dot-directories and not following directory symlinks.
bool WalkDir(const std::string& real_root, const std::string& shown_root,
             const std::string& rel_dir, const KeepFn& keep, std::vector<std::string>* out,
             Diagnostic* err) {
  std::error_code ec;
  fs::directory_iterator it(rel_dir.empty() ? real_root : JoinRoot(real_root, rel_dir), ec);
  for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const std::string rel = rel_dir.empty() ? name : rel_dir + "/" + name;
    const fs::file_status st = it->symlink_status(ec);
    if (ec) break;
    if (fs::is_directory(st)) {
      if (name[0] != '.' && !WalkDir(real_root, shown_root, rel, keep, out, err)) return false;
    } else if (keep(rel, st)) {
      out->push_back(rel);
    }
  }
  if (ec) {
    *err = MakeError(rel_dir.empty() ? shown_root : rel_dir, 0, 0,
                     "cannot list directory (" + ec.message() + ")");
    return false;
  }
  return true;
}

// Sets *out to the kept entries of the whole tree, sorted bytewise.
bool ListTree(const std::string& real_root, const std::string& shown_root, const KeepFn& keep,
              std::vector<std::string>* out, Diagnostic* err) {
  out->clear();
  if (!WalkDir(real_root, shown_root, "", keep, out, err)) return false;
  std::sort(out->begin(), out->end());
  return true;
}

// Resolves and checks every path of RELS (see TreeIo::CheckWritable),
// appending each success to *resolved and each refusal to *errs.
bool CheckAll(const std::string& real_root, const std::vector<std::string>& rels,
              std::vector<Resolved>* resolved, std::vector<Diagnostic>* errs) {
  bool ok = true;
  std::map<std::string, std::string> first_rel_of;  // real path -> first rel naming it
  for (const std::string& rel : rels) {
    Resolved r;
    Diagnostic err;
    if (!CheckOne(real_root, rel, &r, &err)) {
      errs->push_back(err);
      ok = false;
      continue;
    }
    const auto inserted = first_rel_of.emplace(r.real, rel);
    if (!inserted.second && inserted.first->second != rel) {
      errs->push_back(MakeError(rel, 0, 0, "names the same file as " + inserted.first->second));
      ok = false;
    }
    resolved->push_back(std::move(r));
  }
  return ok;
}

}  // namespace

bool ReadWholeFile(const std::string& path, std::string* bytes, std::string* err) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *err = "cannot open" + Why(errno);
    return false;
  }
  return ReadAndClose(fd, /*regular_only=*/false, bytes, err);
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
  return true;
}

bool TreeIo::ListFiles(const std::string& suffix, std::vector<std::string>* out,
                       Diagnostic* err) const {
  const std::string& real_root = real_root_;
  const KeepFn keep = [&](const std::string& rel, const fs::file_status& st) {
    if (!EndsWith(rel, suffix)) return false;
    if (fs::is_regular_file(st)) return true;
    std::string real;
    struct stat target;
    return fs::is_symlink(st) && RealPath(JoinRoot(real_root, rel), &real) &&
           IsWithin(real, real_root) && ::stat(real.c_str(), &target) == 0 &&
           S_ISREG(target.st_mode);
  };
  return ListTree(real_root_, root_, keep, out, err);
}

bool TreeIo::ListTempLeftovers(std::vector<std::string>* out, Diagnostic* err) const {
  const KeepFn keep = [](const std::string& rel, const fs::file_status& st) {
    const std::string name = BaseName(rel);
    return fs::is_regular_file(st) && name[0] == '.' && name.find(kTempInfix) != std::string::npos;
  };
  return ListTree(real_root_, root_, keep, out, err);
}

bool TreeIo::Exists(const std::string& rel) const {
  if (rel.empty() || rel[0] == '/' || HasDotDotComponent(rel)) return false;
  const std::string joined = JoinRoot(real_root_, rel);
  std::string real_dir;
  struct stat st;
  return RealPath(DirName(joined), &real_dir) && IsWithin(real_dir, real_root_) &&
         ::lstat(joined.c_str(), &st) == 0;
}

namespace {

// Opens REL strictly beneath ROOT with no symlink anywhere on the way
// (openat2 with RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS), in one syscall
// instead of one readlink per component. -1 when the kernel lacks openat2
// or the path has a symlink: the caller then takes the careful path.
int OpenBeneath(const std::string& real_root, const std::string& rel) {
#ifdef SYS_openat2
  if (rel.empty() || rel.front() == '/') return -1;
  if (("/" + rel + "/").find("/../") != std::string::npos) return -1;  // refused by policy
  const int root = ::open(real_root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (root < 0) return -1;
  struct open_how how {};
  how.flags = O_RDONLY | O_CLOEXEC;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  const long fd = ::syscall(SYS_openat2, root, rel.c_str(), &how, sizeof(how));
  ::close(root);
  return fd < 0 ? -1 : static_cast<int>(fd);
#else
  static_cast<void>(real_root);
  static_cast<void>(rel);
  return -1;
#endif
}

}  // namespace

bool TreeIo::Read(const std::string& rel, std::string* bytes, Diagnostic* err) const {
  const int fast = OpenBeneath(real_root_, rel);
  if (fast >= 0) {
    std::string msg;
    if (ReadAndClose(fast, /*regular_only=*/true, bytes, &msg)) return true;
  }
  Resolved r;
  if (!ResolveFile(real_root_, rel, &r, err)) return false;
  const int fd = ::open(r.real.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  std::string msg = fd < 0 ? "cannot open" + Why(errno) : "";
  if (fd >= 0 && ReadAndClose(fd, /*regular_only=*/true, bytes, &msg)) return true;
  *err = MakeError(rel, 0, 0, msg);
  return false;
}

bool TreeIo::CheckWritable(const std::vector<std::string>& rels,
                           std::vector<Diagnostic>* errs) const {
  std::vector<Resolved> resolved;
  return CheckAll(real_root_, rels, &resolved, errs);
}

bool TreeIo::RemoveTempLeftovers(std::vector<std::string>* removed, Diagnostic* err) const {
  std::vector<std::string> leftovers;
  if (!ListTempLeftovers(&leftovers, err)) return false;
  for (const std::string& rel : leftovers) {
    const std::string path = real_root_ + "/" + rel;
    if (::unlink(path.c_str()) != 0) {
      *err = MakeError(rel, 0, 0, "cannot remove a leftover temp file" + Why(errno));
      return false;
    }
    removed->push_back(rel);
  }
  return true;
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

bool TreeIo::WriteAll(const std::map<std::string, std::string>& contents,
                      std::vector<Diagnostic>* errs) const {
  std::vector<std::string> rels;
  for (const auto& entry : contents) rels.push_back(entry.first);
  std::vector<Resolved> resolved;  // parallel to rels once every check passed
  if (!CheckAll(real_root_, rels, &resolved, errs)) return false;
  std::size_t i = 0;
  for (const auto& entry : contents) {
    std::string msg;
    if (!ReplaceFile(resolved[i], entry.second, &msg)) {
      errs->push_back(MakeError(entry.first, 0, 0, msg));
      for (std::size_t j = 0; j < i; ++j) {
        errs->push_back(MakeNote(rels[j], 0, 0, "was already rewritten before this failure"));
      }
      return false;
    }
    ++i;
  }
  return true;
}

}  // namespace muh
