#!/usr/bin/env bash
# muhpatch sets glibc's malloc tunables for itself (engine/app/heap_tunables.h):
# it executes itself again with GLIBC_TUNABLES set, unless MUHPATCH_HEAP=default,
# an address-space limit is set or valgrind runs it; a user's own GLIBC_TUNABLES
# stays in force after ours. `-vv` says which; the output is the same either way.
# Skipped (77) in a sanitizer build, whose allocator replaces glibc's.
#
# Usage: heap_tunables.sh MUHPATCH
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: heap_tunables: $*" >&2; exit 1; }
ok() { echo "ok $*"; }

cp -a "$repo/fixtures/enginex-vllm" "$scratch/tree"
cd "$scratch"
rules=$repo/rules/bi100.yaml

# run NAME [VAR=VALUE...]: `muhpatch -vv diff` under that environment; its
# stdout in NAME.out, exit code in NAME.code, the heap line in NAME.heap.
run() {
  local name=$1 code=0
  shift
  env "$@" "$muhpatch" -vv diff "$rules" tree >"$name.out" 2>"$name.err" || code=$?
  echo "$code" >"$name.code"
  grep '^muhpatch: debug: heap: ' "$name.err" >"$name.heap" || fail "$name: no heap line on stderr"
}

run plain
if grep -q "sanitizer" plain.heap; then
  echo "skipped: $(cat plain.heap)"
  exit 77
fi
tuned='muhpatch: debug: heap: tuned: GLIBC_TUNABLES=glibc.malloc.hugetlb=1:glibc.malloc.top_pad=67108864'
[[ $(cat plain.heap) == "$tuned" ]] || fail "plain run: '$(cat plain.heap)'"
ok "a plain run executes itself again with the tunables set"

run user GLIBC_TUNABLES=glibc.malloc.hugetlb=0
[[ $(cat user.heap) == "$tuned" ]] || fail "with the user's GLIBC_TUNABLES: '$(cat user.heap)'"
ok "a user's GLIBC_TUNABLES does not stop it (theirs is read after ours)"

run default MUHPATCH_HEAP=default
[[ $(cat default.heap) == 'muhpatch: debug: heap: not tuned: MUHPATCH_HEAP=default' ]] ||
  fail "MUHPATCH_HEAP=default: '$(cat default.heap)'"
ok "MUHPATCH_HEAP=default keeps glibc's defaults"

# ld.so says it cannot preload the (missing) library, and goes on.
run valgrind LD_PRELOAD=/nonexistent/vgpreload_memcheck-amd64-linux.so
[[ $(cat valgrind.heap) == 'muhpatch: debug: heap: not tuned: running under valgrind' ]] ||
  fail "under valgrind's preload: '$(cat valgrind.heap)'"
ok "under valgrind (which would not follow the exec) the heap is left alone"

code=0
(ulimit -v 4000000 && "$muhpatch" -vv diff "$rules" tree >limited.out 2>limited.err) || code=$?
echo "$code" >limited.code
[[ $(grep '^muhpatch: debug: heap: ' limited.err) == 'muhpatch: debug: heap: not tuned: an address-space limit is set' ]] ||
  fail "under ulimit -v: '$(grep 'heap:' limited.err)'"
ok "under an address-space limit the heap is left alone"

for name in user default valgrind limited; do
  cmp -s plain.out "$name.out" || fail "$name: stdout differs from the plain run's"
  cmp -s plain.code "$name.code" || fail "$name: exit $(cat "$name.code"), plain run $(cat plain.code)"
done
[[ -s plain.out ]] || fail "the diff is empty"
ok "the same diff and exit code ($(cat plain.code)) in all five runs"
