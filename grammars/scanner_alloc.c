/* The grammar's external scanner (scanner.c of the pinned tarball), compiled
 * so that every allocation it makes goes through libtree-sitter's allocator,
 * which muhpatch sets with ts_set_allocator (engine/app/main.cc): running
 * out of memory there is reported (exit 4) instead of a NULL that the
 * scanner dereferences (SIGSEGV). TREE_SITTER_REUSE_ALLOCATOR routes its
 * arrays (tree_sitter/array.h); the two macros below route the calloc and
 * free of its state, which scanner.c calls by their libc names. */
#define TREE_SITTER_REUSE_ALLOCATOR
#include <stdlib.h>

#include "tree_sitter/alloc.h"

#define calloc ts_current_calloc
#define free ts_current_free

#include "scanner.c"
