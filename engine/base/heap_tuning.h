// glibc's malloc set up for a short run that allocates a few tens of MB:
// heaps grown in large steps and backed by transparent huge pages where the
// kernel offers them in madvise mode. With the defaults, verify on the real
// tree made about 1,200 mprotect calls (worker arenas grown a page range at
// a time) and 4,300 page faults, and on a VM where a fault is expensive a
// third of its time went to the kernel. Nothing changes under an
// address-space limit (`ulimit -v`): growing in 64 MiB steps would turn a
// limit that the run fits in into an early out of memory.
#pragma once

namespace muh {

// Whether a sanitizer's allocator replaces glibc's (the tuning then does
// nothing).
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kSanitizerAllocator = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(memory_sanitizer) || \
    __has_feature(thread_sanitizer)
inline constexpr bool kSanitizerAllocator = true;
#else
inline constexpr bool kSanitizerAllocator = false;
#endif
#else
inline constexpr bool kSanitizerAllocator = false;
#endif

// What TuneHeapForShortRun did.
struct HeapTuning {
  bool tuned = false;        // the mallopt settings were made
  const char* why_not = "";  // when !tuned: the reason
};

// Call once, first thing in main, before any thread starts.
HeapTuning TuneHeapForShortRun();

// Call first thing in a new thread (parallel.h does): the arena glibc gives
// the thread gets the same huge-page advice, once per arena. Does nothing
// unless TuneHeapForShortRun tuned the heap.
void AdviseThreadHeap();

}  // namespace muh
