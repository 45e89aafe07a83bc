#!/usr/bin/env bash
# Under a memory limit (`ulimit -v`, 2 GB of address space), inputs that are
# too big are refused with one clear error line, never a crash (134, 139),
# never an out-of-memory kill, never drift (1):
#   1. verify on a tree with a 50 MB .py (outside every rule's files)
#      holding a rule's literal: exit 2 (the file is over the 16 MiB limit,
#      so the whole-tree search cannot vouch for it) or 4 (out of memory);
#   2. /dev/zero as --patch: exit 2 (read up to the 64 MiB limit, refused);
#   3. too little memory to run at all: verify, diff, status and apply at
#      limits from 15 to 69 MB exit 0 or 4 with one line "out of memory",
#      and apply's exit 4 leaves the tree as it was.
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
# Without the big module, which the rules' own files (vllm/**, read by a
# precondition) would refuse first.
rm -f t/vllm/big.py
limited "--patch /dev/zero" "2" "/dev/zero: error: file is larger than the limit of 67108864 bytes" \
  "$muhpatch" verify rules.yaml t --patch /dev/zero

# 3. Too little memory to run at all (the issue's `ulimit -v 70000` case):
#    the fixture plus 100 generated modules in 10 packages, so that memory
#    runs out at every stage (listing, parsing, the search's and the
#    liveness analysis's threads, the parser's scanner, printing). Every run
#    either succeeds or exits 4 with exactly one error line saying so; a
#    crash (134, 139), drift (1) or bad input (2) fails. apply's exit 4
#    must leave every file as it was, its exit 0 the applied tree.
rm -f t/vllm/big.py
python3 - <<'PY'
import os
for d in range(10):
    os.makedirs(f"t/vllm/generated/pkg{d}", exist_ok=True)
    for m in range(10):
        with open(f"t/vllm/generated/pkg{d}/mod{m}.py", "w") as f:
            for k in range(30):
                f.write(f"def f{k}(x, y={k}):\n    if x > {k}:\n"
                        f"        return [x * i for i in range(y)]\n    return {{'k': {k}}}\n\n")
PY
"$muhpatch" diff rules.yaml t >small.diff 2>/dev/null
cp -a t applied
"$muhpatch" apply rules.yaml applied 2>/dev/null

# under KB CMD ARGS...: runs muhpatch CMD under ulimit -v KB; fails unless it
# exits 0, or 4 with one error line that says "out of memory".
under() {
  local kb=$1 code=0
  shift
  (ulimit -v "$kb" && exec timeout 60 "$muhpatch" "$@") >out 2>err </dev/null || code=$?
  case $code in
    0) ;;
    4)
      errors=$(grep -c "error" err || true)
      [[ $errors -eq 1 ]] || { cat err >&2; fail "ulimit -v $kb: $1: exit 4 with $errors error lines"; }
      grep -q "error: out of memory" err || { cat err >&2; fail "ulimit -v $kb: $1: exit 4 but not out of memory"; }
      ;;
    *) cat err >&2; fail "ulimit -v $kb: $1: exit $code (0 or 4 expected)" ;;
  esac
  echo "$code"
}

counts=""
# Where memory runs out varies from run to run (threads race for it): many
# limits, a few seconds in all.
for mb in $(seq 15 3 69); do
  counts+=" $(under $((mb * 1024)) verify rules.yaml t --patch small.diff)"
done
for mb in $(seq 15 12 69); do
  counts+=" $(under $((mb * 1024)) diff rules.yaml t)"
  counts+=" $(under $((mb * 1024)) status rules.yaml t)"
  rm -rf a && cp -a t a
  code=$(under $((mb * 1024)) apply rules.yaml a)
  if [[ $code -eq 0 ]]; then
    diff -r applied a >/dev/null || fail "ulimit -v $((mb * 1024)): apply exited 0 but the tree is not the applied one"
  else
    diff -r t a >/dev/null || fail "ulimit -v $((mb * 1024)): apply exited 4 but changed the tree"
  fi
  counts+=" $code"
done
echo "ok ulimit -v 15..69 MB: $(tr ' ' '\n' <<<"$counts" | grep -c '^0$') runs succeeded, $(tr ' ' '\n' <<<"$counts" | grep -c '^4$') said out of memory (exit 4), none crashed"
