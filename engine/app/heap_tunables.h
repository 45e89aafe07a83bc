// glibc's malloc set up for a short run through its documented tunables
// (GLIBC_TUNABLES, which glibc reads once, as a process starts): the heaps
// backed by transparent huge pages where the kernel offers them in madvise
// mode (glibc.malloc.hugetlb=1), and grown 64 MiB at a time
// (glibc.malloc.top_pad), so that each worker thread's heap is advised as
// a whole and not a few pages at a time. On a VM where a page fault costs
// about 10 us, verify on the real tree took 2,800 faults with glibc's
// defaults and 250-450 with these (bench/README.md has the times).
//
// glibc takes the settings only at a process's start, so muhpatch sets them
// and executes itself again before any of its own code runs (main.cc); the
// second process then gives the user's GLIBC_TUNABLES back to the
// environment. MUHPATCH_HEAP=default keeps glibc's defaults.
#pragma once

#include <string>

namespace muh {

// What GLIBC_TUNABLES becomes: our settings, then the user's own (`user`,
// may be null or empty), which glibc reads later, so a setting of the
// user's wins.
std::string TunablesForShortRun(const char* user);

// Called before anything else runs: sets the tunables and executes the
// program's own file (the path /proc/self/exe names, so that the process
// keeps its name) with `argv` again, unless this process is that second
// one, MUHPATCH_HEAP=default is set, an address-space limit is set (a heap
// grown 64 MiB at a time would meet it sooner), a sanitizer's allocator
// replaces glibc's, or valgrind runs the program (it would not follow).
// Returns when it does not execute; if executing fails, the environment is
// as it was and the run goes on untuned.
void TuneHeapForShortRun(char** argv);

// In the second process: puts the user's GLIBC_TUNABLES back as it was
// (unset, or its old value) and removes our marker. True when this process
// is such a second one. Called by TuneHeapForShortRun; exposed for tests.
bool RestoreUserTunables();

// How this run's heap is set up, for `-vv`: "heap: tuned: GLIBC_TUNABLES=...",
// or "heap: not tuned: " and why not.
std::string HeapSetupDescription();

}  // namespace muh
