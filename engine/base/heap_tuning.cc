#include "engine/base/heap_tuning.h"

#include <malloc.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <cstdlib>

namespace muh {

namespace {

constexpr std::size_t kStep = std::size_t{64} << 20;           // heap growth
constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;  // x86-64's PMD size
// glibc's HEAP_MAX_SIZE on 64-bit: each worker arena is one mapping of this
// size, aligned to it (2 * DEFAULT_MMAP_THRESHOLD_MAX).
constexpr std::uintptr_t kArenaHeap = std::uintptr_t{64} << 20;

constexpr int kCollapse = 25;  // MADV_COLLAPSE, which glibc 2.36's headers lack

std::atomic<bool> tuned{false};
std::atomic<std::uintptr_t> main_heap_start{0};
std::array<std::atomic<std::uintptr_t>, 64> advised_arenas{};  // 0: free slot

char* Break() { return static_cast<char*>(::sbrk(0)); }

bool Advise(std::uintptr_t lo, std::uintptr_t hi) {
  return hi > lo && ::madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE) == 0;
}

// Whether `base` was advised already; records it otherwise (false then).
bool SeenArena(std::uintptr_t base) {
  for (std::atomic<std::uintptr_t>& slot : advised_arenas) {
    std::uintptr_t v = slot.load();
    if (v == base) return true;
    if (v == 0 && slot.compare_exchange_strong(v, base)) return false;
    if (v == base) return true;
  }
  return true;  // every slot taken: advise no more
}

}  // namespace

HeapTuning TuneHeapForShortRun() {
  HeapTuning t;
  if (kSanitizerAllocator) {
    t.why_not = "a sanitizer's allocator is in use";
    return t;
  }
  rlimit as{};
  if (::getrlimit(RLIMIT_AS, &as) != 0 || as.rlim_cur != RLIM_INFINITY) {
    t.why_not = "an address-space limit is set";
    return t;
  }
  // Every heap grows in 64 MiB steps: the main one by brk, a worker
  // thread's arena made read-write whole when it is created (one mprotect
  // where there were hundreds); none is trimmed during the run; buffers of
  // up to 32 MiB come from them rather than from a mapping each.
  if (::mallopt(M_TOP_PAD, static_cast<int>(kStep)) == 0 ||
      ::mallopt(M_TRIM_THRESHOLD, static_cast<int>(2 * kStep)) == 0 ||
      ::mallopt(M_MMAP_THRESHOLD, static_cast<int>(kStep / 2)) == 0) {
    t.why_not = "mallopt refused a setting";
    return t;
  }
  t.tuned = true;
  tuned = true;
  // Grow the main heap now and ask for huge pages over the new part: a
  // fault then maps 2 MiB instead of 4 KiB. Without THP (or with it off)
  // the advice is refused or ignored, and nothing else changes.
  char* before = Break();
  void* probe = std::malloc(kHugePage);
  char* after = Break();
  if (probe != nullptr && before != reinterpret_cast<char*>(-1) && after > before) {
    const auto b = reinterpret_cast<std::uintptr_t>(before);
    main_heap_start = b;
    const std::uintptr_t lo = (b + kHugePage - 1) & ~(kHugePage - 1);
    const std::uintptr_t hi = reinterpret_cast<std::uintptr_t>(after) & ~(kHugePage - 1);
    Advise(lo, hi);
  }
  std::free(probe);
  return t;
}

void AdviseThreadHeap() {
  if (!tuned) return;
  void* probe = std::malloc(64);
  if (probe == nullptr) return;
  const auto at = reinterpret_cast<std::uintptr_t>(probe);
  std::free(probe);
  const std::uintptr_t lo = main_heap_start;
  if (lo != 0 && at >= lo && at < reinterpret_cast<std::uintptr_t>(Break())) return;  // main
  // A small block outside the main heap lies in a worker arena, which
  // starts at the arena size's alignment below it.
  const std::uintptr_t base = at & ~(kArenaHeap - 1);
  if (SeenArena(base) || !Advise(base, base + kArenaHeap)) return;
  // glibc wrote the arena's header before the advice, so its first 2 MiB
  // are small pages already, and the fault path never maps a huge page over
  // them: collapse that range into one now (Linux 6.1's MADV_COLLAPSE; an
  // older kernel refuses it, and the range keeps its small pages).
  ::madvise(reinterpret_cast<void*>(base), kHugePage, kCollapse);
}

}  // namespace muh
