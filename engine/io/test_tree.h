// Test-only helpers for engine/io tests: a scratch tree on disk.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <system_error>

namespace muh {
namespace testing {

// A fresh directory under the system temp dir, removed (permissions first
// restored) when the test ends.
class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    path_ = std::filesystem::temp_directory_path() /
            ("muhpatch-tree_io-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    ::chmod(path_.c_str(), 0700);
    for (auto it = std::filesystem::recursive_directory_iterator(path_, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_directory(ec) && !it->is_symlink(ec)) ::chmod(it->path().c_str(), 0700);
    }
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::string str() const { return path_.string(); }

  // Creates REL (and its directories) with exactly BYTES.
  void Write(const std::string& rel, const std::string& bytes) const {
    std::filesystem::create_directories((path_ / rel).parent_path());
    std::ofstream f(path_ / rel, std::ios::binary | std::ios::trunc);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  }
  std::string Slurp(const std::string& rel) const {
    std::ifstream f(path_ / rel, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  }

  // Every entry below the root (dot-files included) with its mode and, for
  // files, its bytes: two trees are equal exactly when their snapshots are.
  std::map<std::string, std::string> Snapshot() const {
    std::map<std::string, std::string> out;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(path_)) {
      struct stat st;
      ::lstat(entry.path().c_str(), &st);
      const std::string rel = std::filesystem::relative(entry.path(), path_).string();
      std::string value = std::to_string(st.st_mode) + ":";
      if (S_ISREG(st.st_mode)) value += Slurp(rel);
      out[rel] = value;
    }
    return out;
  }

 private:
  std::filesystem::path path_;
};

}  // namespace testing
}  // namespace muh
