// Running out of memory, said in one line wherever it happens (exit 4,
// README "Exit codes"). Most code sees it as std::bad_alloc, which RunCli
// catches; this is what the places that cannot throw use (libtree-sitter's
// allocator, std::terminate), and the room that reporting it needs. Nothing
// here allocates.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string_view>

namespace muh {

// Maps kMemoryReserveBytes of address space that nothing uses until
// ReleaseMemoryReserve gives it back, so that what runs once memory ran out
// (apply's rollback, the messages that say so) has room to run, also under
// `ulimit -v`. Call once, early; without it ReleaseMemoryReserve does
// nothing.
inline constexpr std::size_t kMemoryReserveBytes = 1 << 20;
void ReserveMemory();

// Gives the reserve back (the first call; later ones do nothing). Call where
// std::bad_alloc is caught, before reporting it.
void ReleaseMemoryReserve();

// Writes "muhpatch: error: out of memory" DETAIL "\n" to stderr in one
// write(2), allocating nothing. DETAIL: a static string, e.g. " (in the
// parser)".
void WriteOutOfMemory(const char* detail);

// Writes PARTS and a newline to stderr in one writev(2) (at most 8 parts),
// allocating nothing: for what must be said once memory ran out.
void WriteStderrLine(std::initializer_list<std::string_view> parts);

// For code that runs out of memory where no exception can leave (an
// allocator that must not return NULL, std::terminate): writes the message
// and _exits. The first caller says it; other threads wait for the exit.
// Exits 4 with WriteOutOfMemory(DETAIL), or, inside an
// AbruptExitNote's scope, with that scope's code and words.
[[noreturn]] void ExitOutOfMemory(const char* detail);

// While it lives, ExitOutOfMemory exits with CODE and writes
// "muhpatch: error: out of memory" WORDS "\n" instead: for a step that
// leaves the tree in a state "nothing was written" would misstate (apply
// replacing files). WORDS: a static string. Not nested, one thread.
class AbruptExitNote {
 public:
  AbruptExitNote(int code, const char* words);
  ~AbruptExitNote();
  AbruptExitNote(const AbruptExitNote&) = delete;
  AbruptExitNote& operator=(const AbruptExitNote&) = delete;
};

// Sets std::terminate's handler: a std::bad_alloc that reaches it (thrown
// where nothing can catch it: a noexcept function, a destructor during
// unwinding) is ExitOutOfMemory; anything else goes to the handler there was
// before (libstdc++'s: "terminate called ..." and abort).
void InstallTerminateHandler();

}  // namespace muh
