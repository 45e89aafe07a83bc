#!/usr/bin/env bash
# The fixture tree with every .py file's lines ending in CRLF, and again in
# CR alone: `status` names the same sites at the same lines as on the LF
# tree (a lone CR ends a line for positions, as Python and SARIF count
# them), `diff` writes a patch that git apply and patch accept (git counts
# LF only), apply leaves files that compile, and verify then finds the tree
# clean against that patch.
#
# Usage: line_endings.sh MUHPATCH
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: line_endings: $*" >&2; exit 1; }
ok() { echo "ok $*"; }
rules=$repo/rules/bi100.yaml

cp -a "$repo/fixtures/enginex-vllm" "$scratch/lf"
(cd "$scratch/lf" && "$muhpatch" status "$rules" . >"$scratch/lf.status" 2>/dev/null) ||
  fail "status on the LF tree failed"
[[ -s "$scratch/lf.status" ]] || fail "status on the LF tree printed nothing"

for ending in crlf cr; do
  tree=$scratch/$ending
  cp -a "$repo/fixtures/enginex-vllm" "$tree"
  find "$tree" -name '*.py' -print0 | while IFS= read -r -d '' f; do
    # (The fixture's _custom_ops.py is CRLF already: LF first, then the ending.)
    python3 -c 'import sys; p, e = sys.argv[1], sys.argv[2].encode().decode("unicode_escape").encode()
b = open(p, "rb").read().replace(b"\r\n", b"\n"); open(p, "wb").write(b.replace(b"\n", e))' \
      "$f" "$([[ $ending == crlf ]] && echo '\r\n' || echo '\r')"
  done
  (cd "$tree" && "$muhpatch" status "$rules" . >"$scratch/$ending.status" 2>/dev/null) ||
    fail "$ending: status failed"
  diff <(awk '{print $1, $2}' "$scratch/lf.status") <(awk '{print $1, $2}' "$scratch/$ending.status") ||
    fail "$ending: status names other sites or lines than on the LF tree"
  ok "$ending: status names the LF tree's sites at the same lines"

  (cd "$tree" && "$muhpatch" diff "$rules" . >"$scratch/$ending.diff" 2>/dev/null) || fail "$ending: diff failed"
  [[ -s "$scratch/$ending.diff" ]] || fail "$ending: the diff is empty"
  git -C "$tree" init -q
  git -C "$tree" apply --check "$scratch/$ending.diff" || fail "$ending: git apply --check refuses the diff"
  (cd "$tree" && patch -p1 --dry-run <"$scratch/$ending.diff" >/dev/null) || fail "$ending: patch --dry-run refuses the diff"
  (cd "$tree" && "$muhpatch" apply "$rules" . >/dev/null 2>&1) || fail "$ending: apply failed"
  find "$tree" -name '*.py' -newer "$scratch/$ending.diff" -print0 |
    xargs -0 -r python3 -m py_compile || fail "$ending: a file apply wrote does not compile"
  (cd "$tree" && "$muhpatch" verify "$rules" . --patch "$scratch/$ending.diff" >/dev/null 2>&1) ||
    fail "$ending: verify after apply is not clean"
  ok "$ending: the diff applies (git apply, patch), compiles, and verify is clean after apply"
done
