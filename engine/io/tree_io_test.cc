#include "engine/io/tree_io.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <system_error>

#include "engine/io/test_tree.h"

namespace muh {
namespace {

namespace fs = std::filesystem;

using testing::TempDir;

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

// WriteAll's argument: NEWS with each file's current bytes as the old ones.
class Updates {
 public:
  Updates(const TempDir& dir, std::map<std::string, std::string> news) : news_(std::move(news)) {
    for (const auto& [rel, text] : news_) olds_[rel] = dir.Slurp(rel);
  }
  std::map<std::string, FileUpdate> get() const {
    std::map<std::string, FileUpdate> out;
    for (const auto& [rel, text] : news_) out[rel] = FileUpdate{olds_.at(rel), text};
    return out;
  }

 private:
  std::map<std::string, std::string> news_;
  std::map<std::string, std::string> olds_;
};

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
  ListingSkips skips;
  REQUIRE(tree.ListFiles(".py", &files, &err, &skips));
  CHECK(skips.hidden_dirs == std::vector<std::string>{".git", ".venv", "a/.cache"});
  CHECK(skips.unlisted.empty());
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
  REQUIRE(::mkfifo((dir.path() / "pipe.py").c_str(), 0600) == 0);
  ListingSkips skips;
  REQUIRE(tree.ListFiles(".py", &files, &err, &skips));
  CHECK(skips.unlisted == std::vector<std::string>{"dangling.py", "escape.py", "pipe.py"});
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
  CHECK(ReadError(tree, "") == "error: empty path");
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
  const Updates updates(
      dir,
      {{"run.py", "#!/usr/bin/env python\n"}, {"vllm/x.py", crlf}, {"vllm/link.py", "via link"}});
  const WriteResult result = tree.WriteAll(updates.get(), &errs);
  REQUIRE(result.ok());
  CHECK(result.state == WriteState::kWritten);
  CHECK(errs.empty());
  CHECK(dir.Slurp("run.py") == "#!/usr/bin/env python\n");
  CHECK(dir.Slurp("vllm/x.py") == crlf);
  CHECK(dir.Slurp("vllm/target.py") == "via link");
  CHECK(fs::is_symlink(dir.path() / "vllm/link.py"));
  CHECK(ModeOf(dir.path() / "run.py") == 0755);
  CHECK(ModeOf(dir.path() / "vllm/x.py") == 0640);
  for (const auto& entry : fs::recursive_directory_iterator(dir.path())) {
    const std::string name = entry.path().filename().string();
    CHECK(name.find(kTempInfix) == std::string::npos);
    CHECK(name.find(kJournalName) == std::string::npos);
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
  const auto before = dir.Snapshot();
  std::vector<Diagnostic> errs;
  const WriteResult refused =
      tree.WriteAll(Updates(dir, {{"a.py", "A\n"}, {"vllm/x.py", "X\n"}}).get(), &errs);
  CHECK(refused.state == WriteState::kUnchanged);
  CHECK(refused.cause == FailureCause::kBadInput);
  CHECK(ExitCodeFor(refused) == 2);
  REQUIRE(errs.size() == 1);
  CHECK(errs[0].Format() == "vllm/x.py: error: file is read-only");
  errs.clear();
  CHECK_FALSE(
      tree.WriteAll(
              Updates(dir, {{"a.py", "A\n"}, {"ro_dir/y.py", "Y\n"}, {"new.py", "N\n"}}).get(),
              &errs)
          .ok());
  REQUIRE(errs.size() == 2);
  CHECK(errs[0].Format() == "new.py: error: no such file in the tree");
  CHECK(errs[1].Format() == "ro_dir/y.py: error: directory ro_dir is read-only");
  CHECK(dir.Slurp("a.py") == "a\n");
  CHECK(dir.Slurp("vllm/x.py") == "x\n");
  CHECK(dir.Slurp("ro_dir/y.py") == "y\n");
  CHECK(ModeOf(dir.path() / "vllm/x.py") == 0444);
  CHECK_FALSE(fs::exists(dir.path() / "new.py"));
  CHECK(dir.Snapshot() == before);
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

TEST_CASE("ReadWholeFile reads pipes but stops at kMaxInputFileBytes") {
  std::string got;
  std::string err;
  if (fs::exists("/dev/zero")) {
    CHECK_FALSE(ReadWholeFile("/dev/zero", &got, &err));
    CHECK(err ==
          "file is larger than the limit of " + std::to_string(kMaxInputFileBytes) + " bytes");
  }
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  REQUIRE(::write(fds[1], "rules: []\n", 10) == 10);
  ::close(fds[1]);
  CHECK(ReadWholeFile("/dev/fd/" + std::to_string(fds[0]), &got, &err));
  CHECK(got == "rules: []\n");
  ::close(fds[0]);
}

TEST_CASE("Read refuses a FIFO or a device before reading, and files over the limit") {
  TempDir dir;
  REQUIRE(::mkfifo((dir.path() / "knob.py").c_str(), 0644) == 0);
  dir.Write("big.py", std::string(1000, 'x'));
  dir.Write("ok.py", std::string(100, 'x'));
  TreeIo tree = OpenOrDie(dir.str());
  // No writer ever opens the FIFO: a blocking open or read would hang here.
  CHECK(ReadError(tree, "knob.py") == "knob.py: error: not a regular file (a FIFO)");
  fs::create_symlink("knob.py", dir.path() / "alias.py");  // the careful path: lstat, stat
  CHECK(ReadError(tree, "alias.py") == "alias.py: error: not a regular file (a FIFO)");
  if (fs::exists("/dev/null")) {
    fs::create_symlink("/dev/null", dir.path() / "null.py");
    CHECK(ReadError(tree, "null.py").find("symlink resolves outside the tree") !=
          std::string::npos);
  }
  tree.set_max_file_bytes(999);
  CHECK(ReadError(tree, "big.py") == "big.py: error: file is larger than the limit of 999 bytes");
  CHECK(ReadError(tree, "ok.py").empty());
  tree.set_max_file_bytes(1000);
  CHECK(ReadError(tree, "big.py").empty());
  CHECK(kDefaultMaxTreeFileBytes == 16u << 20);
}

}  // namespace
}  // namespace muh
