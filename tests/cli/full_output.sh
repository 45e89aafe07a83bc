#!/usr/bin/env bash
# Output that cannot be written is never success: diff, status, verify
# --format json and model into /dev/full (ENOSPC) and into a closed stdout
# exit non-zero with a message, and the tree stays untouched.
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: full_output: $*" >&2; exit 1; }
cp -a "$repo/fixtures/enginex-vllm" "$scratch/tree"
cp "$repo/rules/bi100.yaml" "$scratch/rules.yaml"
cd "$scratch"
cp -a tree pristine
[[ -w /dev/full ]] || { echo "skip: full_output: no /dev/full"; exit 77; }
check() {
  local what=$1; shift
  set +e
  "$@" >/dev/full 2>err
  local code=$?
  set -e
  [[ $code -ne 0 && $code -ne 1 ]] || { cat err >&2; fail "$what > /dev/full: exit $code"; }
  grep -q "cannot write" err || { cat err >&2; fail "$what > /dev/full: no message"; }
  set +e
  "$@" >&- 2>err
  code=$?
  set -e
  [[ $code -ne 0 && $code -ne 1 ]] || { cat err >&2; fail "$what >&-: exit $code"; }
  echo "ok $what: exit $code into /dev/full and into a closed stdout, with a message"
}
check "diff" "$muhpatch" diff rules.yaml tree
check "status" "$muhpatch" status rules.yaml tree
check "verify --format json" "$muhpatch" verify rules.yaml tree --format json
check "model" "$muhpatch" model rules.yaml
diff -r pristine tree >/dev/null || fail "the tree changed"
