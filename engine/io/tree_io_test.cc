#include "engine/io/tree_io.h"

#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

namespace muh {
namespace {

namespace fs = std::filesystem;

// A fresh directory under the system temp dir, removed (permissions first
// restored) when the test ends.
class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    path_ = fs::temp_directory_path() /
            ("muhpatch-tree_io-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    ::chmod(path_.c_str(), 0700);
    for (auto it = fs::recursive_directory_iterator(path_, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_directory(ec) && !it->is_symlink(ec)) ::chmod(it->path().c_str(), 0700);
    }
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const fs::path& path() const { return path_; }
  std::string str() const { return path_.string(); }

  // Creates REL (and its directories) with exactly BYTES.
  void Write(const std::string& rel, const std::string& bytes) const {
    fs::create_directories((path_ / rel).parent_path());
    std::ofstream f(path_ / rel, std::ios::binary | std::ios::trunc);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  std::string Slurp(const std::string& rel) const {
    std::ifstream f(path_ / rel, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  }

 private:
  fs::path path_;
};

TreeIo OpenOrDie(const std::string& root) {
  TreeIo tree;
  Diagnostic err;
  REQUIRE_MESSAGE(TreeIo::Open(root, &tree, &err), err.Format());
  return tree;
}

// The formatted refusal Read gives for REL ("" when it succeeds).
std::string ReadError(const TreeIo& tree, const std::string& rel) {
  std::string bytes;
  Diagnostic err;
  return tree.Read(rel, &bytes, &err) ? "" : err.Format();
}

mode_t ModeOf(const fs::path& p) {
  struct stat st;
  REQUIRE(::stat(p.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

TEST_CASE("Open refuses a missing root and a file, accepts a symlinked root") {
  TempDir dir;
  dir.Write("f.py", "x = 1\n");
  TreeIo tree;
  Diagnostic err;
  CHECK_FALSE(TreeIo::Open(dir.str() + "/nope", &tree, &err));
  CHECK(err.Format() == dir.str() + "/nope: error: no such directory");
  CHECK_FALSE(TreeIo::Open(dir.str() + "/f.py", &tree, &err));
  CHECK(err.Format() == dir.str() + "/f.py: error: not a directory");

  TempDir other;
  fs::create_directory_symlink(dir.path(), other.path() / "link");
  const TreeIo linked = OpenOrDie(other.str() + "/link");
  CHECK(linked.root() == other.str() + "/link");
  std::string bytes;
  CHECK(linked.Read("f.py", &bytes, &err));
  CHECK(bytes == "x = 1\n");
}

TEST_CASE("ListFiles is sorted bytewise, filters by suffix and skips dot-directories") {
  TempDir dir;
  for (const char* rel : {"b.py", "a/b.py", "a.py", "B.py", "a/c/d.py", "x.pyc", "x.pyi",
                          ".git/hooks/h.py", ".venv/lib/site.py", "a/.cache/z.py", ".hidden.py"}) {
    dir.Write(rel, "");
  }
  const TreeIo tree = OpenOrDie(dir.str());
  std::vector<std::string> files;
  Diagnostic err;
  REQUIRE(tree.ListFiles(".py", &files, &err));
  CHECK(files ==
        std::vector<std::string>{".hidden.py", "B.py", "a.py", "a/b.py", "a/c/d.py", "b.py"});
  REQUIRE(tree.ListFiles("", &files, &err));
  CHECK(files.size() == 8);
}

TEST_CASE("ListFiles lists only symlinks that resolve to regular files inside the tree") {
  TempDir dir;
  TempDir outside;
  outside.Write("secret.py", "s\n");
  dir.Write("pkg/real.py", "r\n");
  fs::create_symlink("pkg/real.py", dir.path() / "alias.py");
  fs::create_symlink(outside.path() / "secret.py", dir.path() / "escape.py");
  fs::create_symlink("missing.py", dir.path() / "dangling.py");
  fs::create_directory_symlink("pkg", dir.path() / "pkglink");
  fs::create_directory_symlink(outside.path(), dir.path() / "outlink");
  const TreeIo tree = OpenOrDie(dir.str());
  std::vector<std::string> files;
  Diagnostic err;
  REQUIRE(tree.ListFiles(".py", &files, &err));
  CHECK(files == std::vector<std::string>{"alias.py", "pkg/real.py"});
}

TEST_CASE("Read returns exact bytes") {
  TempDir dir;
  const std::string crlf = "\xEF\xBB\xBFimport os\r\nx = 1\r\n";
  const std::string nul("a\0b\0\0c", 6);
  const std::string no_newline = "print(1)";
  std::string big(10 * 1024 * 1024 + 3, '\0');
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>(i * 7 % 256);
  dir.Write("crlf.py", crlf);
  dir.Write("nul.py", nul);
  dir.Write("sub/no_newline.py", no_newline);
  dir.Write("empty.py", "");
  dir.Write("big.py", big);
  const TreeIo tree = OpenOrDie(dir.str());
  std::string bytes;
  Diagnostic err;
  CHECK((tree.Read("crlf.py", &bytes, &err) && bytes == crlf));
  CHECK((tree.Read("nul.py", &bytes, &err) && bytes == nul));
  CHECK((tree.Read("sub/no_newline.py", &bytes, &err) && bytes == no_newline));
  CHECK((tree.Read("empty.py", &bytes, &err) && bytes.empty()));
  CHECK((tree.Read("big.py", &bytes, &err) && bytes == big));
}

TEST_CASE("Read refuses paths that leave the tree or name no regular file") {
  TempDir dir;
  TempDir outside;
  outside.Write("x.py", "secret\n");
  const std::string outside_real = fs::canonical(outside.path()).string();
  dir.Write("vllm/ok.py", "ok\n");
  fs::create_symlink(outside.path() / "x.py", dir.path() / "vllm/x.py");
  fs::create_directory_symlink(outside.path(), dir.path() / "vllm/out");
  const TreeIo tree = OpenOrDie(dir.str());

  CHECK(ReadError(tree, "vllm/ok.py").empty());
  CHECK(ReadError(tree, "../x.py") == "../x.py: error: path leaves the tree");
  CHECK(ReadError(tree, "vllm/../vllm/ok.py") == "vllm/../vllm/ok.py: error: path leaves the tree");
  CHECK(ReadError(tree, "/etc/hostname") ==
        "/etc/hostname: error: absolute path; expected a path relative to the tree");
  CHECK(ReadError(tree, "vllm/x.py") ==
        "vllm/x.py: error: symlink resolves outside the tree (" + outside_real + "/x.py)");
  CHECK(ReadError(tree, "vllm/out/x.py") ==
        "vllm/out/x.py: error: symlink resolves outside the tree (" + outside_real + "/x.py)");
  CHECK(ReadError(tree, "vllm") == "vllm: error: is a directory, not a file");
  CHECK(ReadError(tree, "vllm/missing.py") == "vllm/missing.py: error: no such file in the tree");
  CHECK(ReadError(tree, "vllm/ok.py/x") == "vllm/ok.py/x: error: no such file in the tree");
  CHECK(ReadError(tree, "") == ": error: empty path");
  if (fs::exists("/etc/hostname")) {
    fs::create_symlink("/etc/hostname", dir.path() / "host.py");
    CHECK(ReadError(tree, "host.py") == "host.py: error: symlink resolves outside the tree (" +
                                            fs::canonical("/etc/hostname").string() + ")");
  }
}

TEST_CASE("Exists reports entries without leaving the tree") {
  TempDir dir;
  TempDir outside;
  outside.Write("x.py", "");
  dir.Write("a/b.py", "");
  fs::create_directory_symlink(outside.path(), dir.path() / "out");
  const TreeIo tree = OpenOrDie(dir.str());
  CHECK(tree.Exists("a/b.py"));
  CHECK(tree.Exists("a"));
  CHECK(tree.Exists("out"));
  CHECK_FALSE(tree.Exists("out/x.py"));
  CHECK_FALSE(tree.Exists("a/c.py"));
  CHECK_FALSE(tree.Exists("a/../a/b.py"));
  CHECK_FALSE(tree.Exists(dir.str() + "/a/b.py"));
}

TEST_CASE("WriteAll replaces bytes, keeps modes and symlinks, and leaves no temp file") {
  TempDir dir;
  dir.Write("run.py", "old\n");
  dir.Write("vllm/x.py", "old\n");
  dir.Write("vllm/target.py", "old\n");
  fs::create_symlink("target.py", dir.path() / "vllm/link.py");
  REQUIRE(::chmod((dir.path() / "run.py").c_str(), 0755) == 0);
  REQUIRE(::chmod((dir.path() / "vllm/x.py").c_str(), 0640) == 0);
  const TreeIo tree = OpenOrDie(dir.str());
  const std::string crlf("new\r\n\0tail", 10);
  std::vector<Diagnostic> errs;
  REQUIRE(tree.WriteAll(
      {{"run.py", "#!/usr/bin/env python\n"}, {"vllm/x.py", crlf}, {"vllm/link.py", "via link"}},
      &errs));
  CHECK(errs.empty());
  CHECK(dir.Slurp("run.py") == "#!/usr/bin/env python\n");
  CHECK(dir.Slurp("vllm/x.py") == crlf);
  CHECK(dir.Slurp("vllm/target.py") == "via link");
  CHECK(fs::is_symlink(dir.path() / "vllm/link.py"));
  CHECK(ModeOf(dir.path() / "run.py") == 0755);
  CHECK(ModeOf(dir.path() / "vllm/x.py") == 0640);
  std::vector<std::string> leftovers;
  Diagnostic err;
  REQUIRE(tree.ListTempLeftovers(&leftovers, &err));
  CHECK(leftovers.empty());
  for (const auto& entry : fs::recursive_directory_iterator(dir.path())) {
    CHECK(entry.path().filename().string().find(kTempInfix) == std::string::npos);
  }
}

TEST_CASE("WriteAll writes nothing when any target is refused") {
  TempDir dir;
  dir.Write("a.py", "a\n");
  dir.Write("vllm/x.py", "x\n");
  dir.Write("ro_dir/y.py", "y\n");
  REQUIRE(::chmod((dir.path() / "vllm/x.py").c_str(), 0444) == 0);
  REQUIRE(::chmod((dir.path() / "vllm").c_str(), 0555) == 0);
  REQUIRE(::chmod((dir.path() / "ro_dir").c_str(), 0555) == 0);
  const TreeIo tree = OpenOrDie(dir.str());
  std::vector<Diagnostic> errs;
  CHECK_FALSE(tree.WriteAll({{"a.py", "A\n"}, {"vllm/x.py", "X\n"}}, &errs));
  REQUIRE(errs.size() == 1);
  CHECK(errs[0].Format() == "vllm/x.py: error: file is read-only");
  errs.clear();
  CHECK_FALSE(tree.WriteAll({{"a.py", "A\n"}, {"ro_dir/y.py", "Y\n"}, {"new.py", "N\n"}}, &errs));
  REQUIRE(errs.size() == 2);
  CHECK(errs[0].Format() == "new.py: error: no such file in the tree");
  CHECK(errs[1].Format() == "ro_dir/y.py: error: directory ro_dir is read-only");
  CHECK(dir.Slurp("a.py") == "a\n");
  CHECK(dir.Slurp("vllm/x.py") == "x\n");
  CHECK(dir.Slurp("ro_dir/y.py") == "y\n");
  CHECK(ModeOf(dir.path() / "vllm/x.py") == 0444);
  CHECK_FALSE(fs::exists(dir.path() / "new.py"));
}

TEST_CASE("WriteAll stops at a failure midway and reports what it already rewrote") {
  TempDir dir;
  dir.Write("a.py", "a\n");
  dir.Write("b.py", "b\n");
  dir.Write("c.py", "c\n");
  // A directory where b.py's temp file must go makes that one write fail.
  const std::string blocker = ".b.py" + std::string(kTempInfix) + std::to_string(::getpid());
  fs::create_directory(dir.path() / blocker);
  const TreeIo tree = OpenOrDie(dir.str());
  std::vector<Diagnostic> errs;
  CHECK_FALSE(tree.WriteAll({{"a.py", "A\n"}, {"b.py", "B\n"}, {"c.py", "C\n"}}, &errs));
  REQUIRE(errs.size() == 2);
  CHECK(errs[0].Format() == "b.py: error: cannot create " + blocker + " (Is a directory)");
  CHECK(errs[1].Format() == "a.py: note: was already rewritten before this failure");
  CHECK(dir.Slurp("a.py") == "A\n");
  CHECK(dir.Slurp("b.py") == "b\n");
  CHECK(dir.Slurp("c.py") == "c\n");
}

TEST_CASE("CheckWritable refuses two paths that reach one file") {
  TempDir dir;
  dir.Write("a.py", "a\n");
  fs::create_symlink("a.py", dir.path() / "b.py");
  const TreeIo tree = OpenOrDie(dir.str());
  std::vector<Diagnostic> errs;
  CHECK(tree.CheckWritable({"a.py", "a.py"}, &errs));
  CHECK_FALSE(tree.CheckWritable({"a.py", "b.py"}, &errs));
  REQUIRE(errs.size() == 1);
  CHECK(errs[0].Format() == "b.py: error: names the same file as a.py");
}

TEST_CASE("ListTempLeftovers finds interrupted writes") {
  TempDir dir;
  dir.Write("vllm/.x.py.muhpatch-tmp.4242", "partial");
  dir.Write("vllm/x.py", "x\n");
  dir.Write(".git/.y.muhpatch-tmp.1", "");
  const TreeIo tree = OpenOrDie(dir.str());
  std::vector<std::string> leftovers;
  Diagnostic err;
  REQUIRE(tree.ListTempLeftovers(&leftovers, &err));
  CHECK(leftovers == std::vector<std::string>{"vllm/.x.py.muhpatch-tmp.4242"});
}

TEST_CASE("ReadWholeFile reads exact bytes and explains failures") {
  TempDir dir;
  const std::string bytes("rules:\r\n\0- x", 12);
  dir.Write("rules.yaml", bytes);
  std::string got;
  std::string err;
  CHECK((ReadWholeFile(dir.str() + "/rules.yaml", &got, &err) && got == bytes));
  CHECK_FALSE(ReadWholeFile(dir.str() + "/missing.yaml", &got, &err));
  CHECK(err == "cannot open (No such file or directory)");
  CHECK_FALSE(ReadWholeFile(dir.str(), &got, &err));
  CHECK(err == "is a directory, not a file");
}

}  // namespace
}  // namespace muh
