#include "engine/io/file_arena.h"

#include <sys/mman.h>

#include <cstdint>
#include <new>

namespace muh {

namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;
constexpr std::size_t kBlock = std::size_t{8} << 20;

}  // namespace

FileArena::~FileArena() {
  for (const auto& [at, n] : mappings_) ::munmap(at, n);
}

char* FileArena::Map(std::size_t n, bool block) {
  // A block is mapped with a huge page's worth to spare, so that it can
  // start on a huge-page boundary; the spare part is never touched.
  const std::size_t size = block ? n + kHugePage : n;
  void* at = ::mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (at == MAP_FAILED) throw std::bad_alloc();
  try {
    mappings_.emplace_back(at, size);
  } catch (...) {
    ::munmap(at, size);
    throw;
  }
  auto* p = static_cast<char*>(at);
  if (!block) return p;
  const auto addr = reinterpret_cast<std::uintptr_t>(p);
  p += (kHugePage - addr % kHugePage) % kHugePage;
#ifdef MADV_HUGEPAGE
  ::madvise(p, n, MADV_HUGEPAGE);  // advice: where the kernel declines, pages stay small
#endif
  return p;
}

char* FileArena::Take(std::size_t n) {
  if (n == 0) n = 1;
  std::lock_guard<std::mutex> lock(mu_);
  if (n > kBlock / 4) return Map(n, /*block=*/false);
  if (n > left_) {
    next_ = Map(kBlock, /*block=*/true);
    left_ = kBlock;
  }
  char* out = next_;
  next_ += n;
  left_ -= n;
  return out;
}

}  // namespace muh
