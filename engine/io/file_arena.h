// Memory for the bytes of a tree's files, kept as long as the arena lives.
//
// Reading the real tree (444 files, 5.4 MB) into one std::string each took
// 22-32 ms on a 2-core VM: each string is zero-filled before read(2) copies
// into it, and every 4 KiB page of it is a page fault of its own. Here the
// bytes go into large blocks of anonymous memory that the kernel is asked
// to back with huge pages (madvise MADV_HUGEPAGE, where it offers them): the
// same read took 4-7 ms, and 18 ms where huge pages are off (no zero fill).
// bench/README.md has the method. Thread-safe; the memory is not zeroed.
#pragma once

#include <cstddef>
#include <mutex>
#include <utility>
#include <vector>

namespace muh {

class FileArena {
 public:
  FileArena() = default;
  FileArena(const FileArena&) = delete;
  FileArena& operator=(const FileArena&) = delete;
  ~FileArena();

  // `n` bytes (n > 0) that stay valid until the arena goes. Throws
  // std::bad_alloc when the system has no memory for them.
  char* Take(std::size_t n);

 private:
  // A mapping of its own, 2 MiB-aligned where it is a block.
  char* Map(std::size_t n, bool block);

  std::mutex mu_;
  std::vector<std::pair<void*, std::size_t>> mappings_;
  char* next_ = nullptr;
  std::size_t left_ = 0;
};

}  // namespace muh
