// muhpatch entry point: parse options, run one command, return its exit code.
#include <tree_sitter/api.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>

#include "engine/app/cli.h"
#include "engine/base/exit_codes.h"

namespace {

// libtree-sitter's own allocator prints "tree-sitter failed to allocate"
// and exits 1, which reads as drift. Out of memory is exit 4, said in one
// line, whichever allocator ran out.
[[noreturn]] void OutOfMemory() {
  // Several parser threads may run out at once: one says so, the others
  // wait for the exit.
  static std::atomic<bool> reported{false};
  if (reported.exchange(true)) {
    for (;;) ::pause();
  }
  static const char kMessage[] = "muhpatch: error: out of memory (in the parser)\n";
  (void)!::write(2, kMessage, sizeof kMessage - 1);
  std::_Exit(muh::kExitInternal);
}

void* TsMalloc(size_t n) {
  void* p = std::malloc(n);
  if (p == nullptr && n != 0) OutOfMemory();
  return p;
}

void* TsCalloc(size_t count, size_t n) {
  void* p = std::calloc(count, n);
  if (p == nullptr && count != 0 && n != 0) OutOfMemory();
  return p;
}

void* TsRealloc(void* old, size_t n) {
  void* p = std::realloc(old, n);
  if (p == nullptr && n != 0) OutOfMemory();
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  ts_set_allocator(TsMalloc, TsCalloc, TsRealloc, std::free);
  return muh::RunCli(argc, argv);
}
