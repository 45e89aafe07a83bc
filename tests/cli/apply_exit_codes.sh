#!/usr/bin/env bash
# An apply that wrote nothing exits with the code of its cause, never 3 (3
# means files were left rewritten): a path over PATH_MAX in the tree or an
# unreadable directory (bad input: 2), a descriptor limit of 10 (it either
# works or fails without writing). The tree is untouched after each failure.
#
# Usage: apply_exit_codes.sh MUHPATCH
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d)
trap 'chmod -R u+rwx "$scratch" 2>/dev/null || true; rm -rf "$scratch"' EXIT
fail() { echo "FAIL: apply_exit_codes: $*" >&2; exit 1; }
cd "$scratch"
cp "$repo/rules/bi100.yaml" rules.yaml
cp -a "$repo/fixtures/enginex-vllm" pristine
cp -a pristine expected
"$muhpatch" apply rules.yaml expected 2>/dev/null
mapfile -t targets < <("$muhpatch" diff rules.yaml pristine 2>/dev/null | sed -n 's|^+++ b/||p')
[[ ${#targets[@]} -gt 0 ]] || fail "nothing to apply"
# same_as DIR: every target in ./t is byte-equal to DIR's.
same_as() {
  local f
  for f in "${targets[@]}"; do cmp -s "$1/$f" "t/$f" || return 1; done
}

# run_apply NAME WANT: apply on ./t exits WANT, and a failure rewrote no target.
run_apply() {
  local code=0
  "$muhpatch" apply rules.yaml t >/dev/null 2>err || code=$?
  [[ $code -eq $2 ]] || { cat err >&2; fail "$1: exited $code, expected $2"; }
  if [[ $code -ne 0 ]]; then same_as pristine || fail "$1: a target changed"; fi
  [[ ! -e t/.muhpatch-journal ]] || fail "$1: journal left behind"
  [[ -z $(find t -name '*.muhpatch-tmp.*' 2>/dev/null) ]] || fail "$1: temp files left behind"
  echo "ok $1 -> $code"
}

rm -rf t && cp -a pristine t
(cd t && for i in $(seq 1 45); do n=$(printf 'd%0100d' "$i"); mkdir "$n" && cd "$n"; done && echo 'x = 1' >a.py)
run_apply "a path over 4096 bytes in the tree" 2

if [[ $(id -u) -ne 0 ]]; then
  rm -rf t && cp -a pristine t
  chmod 000 t/vllm/model_executor
  run_apply "an unreadable directory" 2
  chmod 755 t/vllm/model_executor
fi

rm -rf t && cp -a pristine t
code=0
(ulimit -n 10 && exec "$muhpatch" apply rules.yaml t) >/dev/null 2>err || code=$?
case $code in
  0) same_as expected || fail "ulimit -n 10: exit 0 but the tree is not the patched one" ;;
  2 | 4) same_as pristine || fail "ulimit -n 10: exit $code but a target changed" ;;
  *) cat err >&2; fail "ulimit -n 10: exited $code" ;;
esac
echo "ok ulimit -n 10 -> $code"
