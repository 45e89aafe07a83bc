// muhpatch entry point: parse options, run one command, return its exit code.
#include <tree_sitter/api.h>

#include <cstdlib>

#include "engine/app/cli.h"
#include "engine/base/out_of_memory.h"

namespace {

// libtree-sitter's own allocator prints "tree-sitter failed to allocate"
// and exits 1, which reads as drift. Out of memory is exit 4, said in one
// line, whichever allocator ran out. The grammar's scanner allocates
// through these too (grammars/scanner_alloc.c).
void* TsMalloc(size_t n) {
  void* p = std::malloc(n);
  if (p == nullptr && n != 0) muh::ExitOutOfMemory(" (in the parser)");
  return p;
}

void* TsCalloc(size_t count, size_t n) {
  void* p = std::calloc(count, n);
  if (p == nullptr && count != 0 && n != 0) muh::ExitOutOfMemory(" (in the parser)");
  return p;
}

void* TsRealloc(void* old, size_t n) {
  void* p = std::realloc(old, n);
  if (p == nullptr && n != 0) muh::ExitOutOfMemory(" (in the parser)");
  return p;
}

}  // namespace

int main(int argc, char** argv) {
  muh::ReserveMemory();
  muh::InstallTerminateHandler();
  ts_set_allocator(TsMalloc, TsCalloc, TsRealloc, std::free);
  return muh::RunCli(argc, argv);
}
