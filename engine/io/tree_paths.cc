#include "engine/io/tree_paths.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <new>

namespace muh {
namespace io {

std::string Why(int e) { return std::string(" (") + std::strerror(e) + ")"; }

bool IsWithin(const std::string& real, const std::string& root) {
  if (root == "/") return true;
  return real.compare(0, root.size(), root) == 0 &&
         (real.size() == root.size() || real[root.size()] == '/');
}

std::string JoinRoot(const std::string& root, const std::string& rel) {
  return root == "/" ? "/" + rel : root + "/" + rel;
}

std::string RelativeTo(const std::string& real, const std::string& root) {
  return real == root ? "." : real.substr(root == "/" ? 1 : root.size() + 1);
}

std::string DirName(const std::string& path) {
  const std::size_t slash = path.rfind('/');
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string BaseName(const std::string& path) { return path.substr(path.rfind('/') + 1); }

bool RealPath(const std::string& path, std::string* out) {
  std::unique_ptr<char, decltype(&std::free)> resolved(::realpath(path.c_str(), nullptr),
                                                       &std::free);
  if (resolved == nullptr) {
    if (errno == ENOMEM) throw std::bad_alloc();
    return false;
  }
  *out = resolved.get();
  return true;
}

bool HasDotDotComponent(const std::string& rel) {
  return ("/" + rel + "/").find("/../") != std::string::npos;
}

std::string KindOf(mode_t mode) {
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISLNK(mode)) return "a symlink";
  return "an unknown kind of file";
}

bool ResolveFile(const std::string& real_root, const std::string& rel, Resolved* out,
                 Diagnostic* err) {
  const auto fail = [&](std::string msg) {
    *err = MakeError(rel, 0, 0, std::move(msg));
    return false;
  };
  out->rel = rel;
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
  if (!S_ISREG(out->st.st_mode))
    return fail("not a regular file (" + KindOf(out->st.st_mode) + ")");
  return true;
}

namespace {

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

}  // namespace

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

}  // namespace io
}  // namespace muh
