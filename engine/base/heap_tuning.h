// glibc's malloc set up for a short run that allocates a few tens of MB:
// heaps grown in large steps and never trimmed, through mallopt alone. With
// the defaults, verify on the real tree made about 1,200 mprotect calls
// (worker arenas grown a page range at a time). Huge pages are glibc's own
// business: GLIBC_TUNABLES=glibc.malloc.hugetlb=1 (the Action sets it).
// Nothing changes under an address-space limit (`ulimit -v`): growing in
// 64 MiB steps would turn a limit that the run fits in into an early out of
// memory.
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

}  // namespace muh
