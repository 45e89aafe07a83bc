#!/usr/bin/env bash
# `apply` removes only its own files, and only those its journal names: a file
# whose name merely contains `.muhpatch-tmp.` (notes, or a name shaped like
# one of apply's temp files) survives a good apply, a refused one, and one
# killed midway and recovered by the next apply.
#
# Usage: foreign_temp.sh MUHPATCH
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d)
trap 'chmod -R u+w "$scratch" 2>/dev/null || true; rm -rf "$scratch"' EXIT
fail() { echo "FAIL: foreign_temp: $*" >&2; exit 1; }
cd "$scratch"
cp "$repo/rules/bi100.yaml" rules.yaml
cp -a "$repo/fixtures/enginex-vllm" pristine
foreign=(vllm/.notes.muhpatch-tmp.txt x.muhpatch-tmp.txt
  vllm/attention/ops/.prefix_prefill.py.muhpatch-tmp.4242
  vllm/attention/ops/.prefix_prefill.py.muhpatch-tmp.1.new)
for f in "${foreign[@]}"; do echo "not muhpatch's: $f" >"pristine/$f"; done

survived() {
  local f
  for f in "${foreign[@]}"; do
    [[ -f "$1/$f" && $(cat "$1/$f") == "not muhpatch's: $f" ]] || fail "$2: $f was removed or changed"
  done
}

# A good apply, then one with nothing to do.
rm -rf t && cp -a pristine t
"$muhpatch" apply rules.yaml t 2>/dev/null || fail "good apply failed"
"$muhpatch" apply rules.yaml t 2>/dev/null || fail "second apply failed"
survived t "good apply"
echo "ok foreign files survive a good apply"

# A refused apply (a target read-only).
rm -rf t && cp -a pristine t
chmod 0444 t/vllm/attention/ops/prefix_prefill.py
code=0
"$muhpatch" apply rules.yaml t 2>/dev/null || code=$?
[[ $code -eq 2 ]] || fail "refused apply exited $code, expected 2"
survived t "refused apply"
diff -r pristine t >/dev/null || fail "refused apply changed the tree"
echo "ok foreign files survive a refused apply"

# An apply killed at each of its first write points, then recovered.
for k in 1 2 3 4 5 6 7 8; do
  rm -rf t && cp -a pristine t
  code=0
  { (MUHPATCH_TEST_KILL_AT=$k exec "$muhpatch" apply rules.yaml t 2>/dev/null); } 2>/dev/null || code=$?
  [[ $code -eq 137 ]] || fail "kill point $k: apply exited $code, expected 137"
  "$muhpatch" apply rules.yaml t 2>/dev/null || fail "kill point $k: recovering apply failed"
  survived t "kill point $k"
  [[ ! -e t/.muhpatch-journal ]] || fail "kill point $k: the journal is left"
done
echo "ok foreign files survive killed applies and their recovery"
