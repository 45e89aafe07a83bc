#!/usr/bin/env bash
# Files that are not plain, or too big, are refused with a located message
# instead of hanging or exhausting memory: a FIFO at a knob path (diff would
# wait forever for a writer), /dev/zero as rules, --hw or --patch (read up to
# the 64 MiB limit, then refused), a tree file over 16 MiB. A pipe named on the
# command line (`--patch <(...)`) still works. Each refusal exits 2 and
# leaves the tree as it was.
#
# Usage: special_files.sh MUHPATCH
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: special_files: $*" >&2; exit 1; }
cd "$scratch"
cp "$repo/rules/bi100.yaml" rules.yaml
cp -a "$repo/fixtures/enginex-vllm" pristine
knob=vllm/_custom_ops.py

# expect NAME CODE NEEDLE CMD...: CMD exits CODE within 20 s and stderr holds NEEDLE.
expect() {
  local name=$1 want=$2 needle=$3 code=0
  shift 3
  timeout 20 "$@" >out 2>err </dev/null || code=$?
  [[ $code -ne 124 ]] || fail "$name: hung (killed after 20 s)"
  [[ $code -eq $want ]] || { cat err >&2; fail "$name: exited $code, expected $want"; }
  grep -qF -- "$needle" err || { cat err >&2; fail "$name: stderr lacks '$needle'"; }
  echo "ok $name -> $want"
}

rm -rf t && cp -a pristine t
rm "t/$knob" && mkfifo "t/$knob"
for cmd in diff apply verify; do
  expect "$cmd with a FIFO at $knob" 2 "t/$knob: error: not a regular file (a FIFO)" \
    "$muhpatch" "$cmd" rules.yaml t
done
[[ -p "t/$knob" ]] || fail "the FIFO was replaced"

limit="file is larger than the limit of 67108864 bytes"
expect "rules /dev/zero" 2 "/dev/zero: error: $limit" "$muhpatch" diff /dev/zero pristine
expect "--hw /dev/zero" 2 "/dev/zero: error: $limit" "$muhpatch" diff --hw /dev/zero rules.yaml pristine
expect "--patch /dev/zero" 2 "/dev/zero: error: $limit" \
  "$muhpatch" verify rules.yaml pristine --patch /dev/zero

"$muhpatch" diff rules.yaml pristine >bi100.diff 2>/dev/null
expect "--patch <(cat bi100.diff)" 0 "" "$muhpatch" verify rules.yaml pristine --patch <(cat bi100.diff)

rm -rf t && cp -a pristine t
head -c $((16 * 1024 * 1024 + 1)) /dev/zero | tr '\0' '#' >>"t/$knob"
cp -a t before
expect "a tree file over 16 MiB" 2 "t/$knob: error: file is larger than the limit of 16777216 bytes" \
  "$muhpatch" apply rules.yaml t
diff -r before t >/dev/null || fail "the refused apply changed the tree"
