#include "engine/base/heap_tuning.h"

#include <malloc.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

namespace muh {

namespace {

constexpr std::size_t kStep = std::size_t{64} << 20;           // heap growth
constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;  // x86-64's PMD size

char* Break() { return static_cast<char*>(::sbrk(0)); }

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
  // One arena: the worker threads share the main heap, grown by brk in
  // 64 MiB steps (one syscall where there were hundreds), never trimmed
  // during the run, and buffers of up to 32 MiB taken from it rather than
  // mapped one by one.
  if (::mallopt(M_ARENA_MAX, 1) == 0 || ::mallopt(M_TOP_PAD, static_cast<int>(kStep)) == 0 ||
      ::mallopt(M_TRIM_THRESHOLD, static_cast<int>(2 * kStep)) == 0 ||
      ::mallopt(M_MMAP_THRESHOLD, static_cast<int>(kStep / 2)) == 0) {
    t.why_not = "mallopt refused a setting";
    return t;
  }
  t.tuned = true;
  // Grow the heap now and ask for huge pages over the new part: a fault
  // then maps 2 MiB instead of 4 KiB. Without THP (or with it off) the
  // advice is refused or ignored, and nothing else changes.
  char* before = Break();
  void* probe = std::malloc(kHugePage);
  char* after = Break();
  if (probe != nullptr && before != reinterpret_cast<char*>(-1) && after > before) {
    const std::uintptr_t lo =
        (reinterpret_cast<std::uintptr_t>(before) + kHugePage - 1) & ~(kHugePage - 1);
    const std::uintptr_t hi = reinterpret_cast<std::uintptr_t>(after) & ~(kHugePage - 1);
    if (hi > lo && ::madvise(reinterpret_cast<void*>(lo), hi - lo, MADV_HUGEPAGE) == 0) {
      t.advised = hi - lo;
    }
  }
  std::free(probe);
  return t;
}

}  // namespace muh
