#include "engine/base/heap_tuning.h"

#include <malloc.h>
#include <sys/resource.h>

#include <cstddef>

namespace muh {

namespace {

constexpr std::size_t kStep = std::size_t{64} << 20;  // heap growth

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
  return t;
}

}  // namespace muh
