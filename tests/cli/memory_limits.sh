#!/usr/bin/env bash
# Under a memory limit (`ulimit -v`, 2 GB of address space), inputs that are
# too big are refused with one clear error line, never a crash (134, 139),
# never an out-of-memory kill, never drift (1):
#   1. verify on a tree with a 50 MB .py (outside every rule's files)
#      holding a rule's literal: exit 2 (the file is over the 16 MiB limit,
#      so the whole-tree search cannot vouch for it) or 4 (out of memory);
#   2. /dev/zero as --patch: exit 2 (read up to the 64 MiB limit, refused).
# AddressSanitizer cannot start under such a limit: CTest label `memory`,
# which .ci/sanitize leaves out (ctest -LE memory).
#
# Usage: memory_limits.sh MUHPATCH
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: memory_limits: $*" >&2; exit 1; }
cd "$scratch"
cp "$repo/rules/bi100.yaml" rules.yaml
cp -a "$repo/fixtures/enginex-vllm" t
"$muhpatch" diff rules.yaml t >committed.diff 2>/dev/null
python3 - <<'PY'
line = b"_PARTITION_SIZE = 512  # a copy of the knob, padded to make a large module\n"
with open("t/vllm/big.py", "wb") as f:
    f.write(line * (50 * 1024 * 1024 // len(line) + 1))
PY

# limited NAME CODES NEEDLE CMD...: under ulimit -v, CMD exits with one of
# CODES (e.g. "2 4") and stderr holds exactly one error line, holding NEEDLE.
limited() {
  local name=$1 codes=$2 needle=$3 code=0
  shift 3
  (ulimit -v 2000000 && exec timeout 60 "$@") >out 2>err </dev/null || code=$?
  [[ " $codes " == *" $code "* ]] || { cat err >&2; fail "$name: exited $code, expected one of $codes"; }
  local errors
  errors=$(grep -c "error" err || true)
  [[ $errors -eq 1 ]] || { cat err >&2; fail "$name: $errors error lines, expected 1"; }
  grep -qF -- "$needle" err || { cat err >&2; fail "$name: stderr lacks '$needle'"; }
  echo "ok $name -> $code"
}

limited "verify, a 50 MB .py" "2 4" "t/vllm/big.py: error: file is larger than the limit of 16777216 bytes" \
  "$muhpatch" verify rules.yaml t --patch committed.diff
limited "--patch /dev/zero" "2" "/dev/zero: error: file is larger than the limit of 67108864 bytes" \
  "$muhpatch" verify rules.yaml t --patch /dev/zero

# 3. Too little memory to run at all (the issue's `ulimit -v 70000` case, at
#    limits around where the fixture tree stops fitting): never drift (1);
#    when memory runs out and muhpatch notices, exit 4 with one error line
#    (the parser's allocator included, which alone used to print
#    "tree-sitter failed to allocate" and exit 1). KNOWN GAP, printed, not
#    failed: at some of these limits an allocation fails where nothing can
#    report it (a thread's start, a destructor) and the run aborts (134) or
#    faults (139); issue 11 stays open for it.
rm -f t/vllm/big.py
"$muhpatch" diff rules.yaml t >small.diff 2>/dev/null
for kb in 25000 30000 35000 40000 45000 50000 60000; do
  code=0
  (ulimit -v "$kb" && exec timeout 60 "$muhpatch" verify rules.yaml t --patch small.diff) \
    >out 2>err </dev/null || code=$?
  case $code in
    0) ;;
    2 | 4)
      errors=$(grep -c "error" err || true)
      [[ $errors -eq 1 ]] || { cat err >&2; fail "ulimit -v $kb: exit $code with $errors error lines"; }
      ;;
    134 | 139) echo "known gap: ulimit -v $kb: exit $code, a crash under memory exhaustion" ;;
    *) cat err >&2; fail "ulimit -v $kb: exit $code (never 1)" ;;
  esac
  echo "ok ulimit -v $kb: exit $code$( [[ $code -ne 0 ]] && echo ", $(grep error err)")"
done
