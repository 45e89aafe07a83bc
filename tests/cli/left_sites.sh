#!/usr/bin/env bash
# The sites a patch leaves alone are recorded in its preamble (left_record.h):
# a hand edit there after the patch was made is drift, pristine or patched.
# On the fixture tree: the patch leaves the shared-memory limit at its value
# and the small-M dict's BLOCK_SIZE_M (overwritten by the tiers: dead).
# Editing either afterwards fails verify at that line, naming the rule; the
# command it advises records the new value, and verify is clean again. (On
# a patched tree, a new shared-memory limit also moves the values the patch
# wrote: not a case of a value left alone alone.)
#
# Usage: left_sites.sh MUHPATCH
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: left_sites: $*" >&2; exit 1; }
ok() { echo "ok $*"; }

cd "$scratch"
cp "$repo/rules/bi100.yaml" rules.yaml
ops=vllm/_custom_ops.py
moe=vllm/model_executor/layers/fused_moe/fused_moe.py

# check NAME FILE LINE OLD NEW RULE PATCHED
check() {
  local name=$1 file=$2 line=$3 old=$4 new=$5 rule=$6 patched=$7
  rm -rf t && cp -a "$repo/fixtures/enginex-vllm" t && chmod -R u+w t
  "$muhpatch" -q diff rules.yaml t >p.diff
  grep -qE "^muhpatch: rule $rule: [a-z -]+; left: ([0-9]+@[^,]+, )*[0-9]+@$file:$line=[0-9a-f]{8}" p.diff ||
    { cat p.diff >&2; fail "$name: no record of $file:$line on rule $rule's line"; }
  [[ $patched == yes ]] && "$muhpatch" -q apply rules.yaml t
  "$muhpatch" -q verify rules.yaml t --patch p.diff || fail "$name: verify is not clean before the edit"
  grep -q -- "$old" <(sed -n "${line}p" "t/$file") || fail "$name: t/$file:$line does not hold '$old'"
  sed -i "${line}s/$old/$new/" "t/$file"
  local code=0
  "$muhpatch" -q verify rules.yaml t --patch p.diff >out 2>err || code=$?
  [[ $code -eq 1 ]] || { cat out err >&2; fail "$name: verify exits $code after the edit, not 1"; }
  grep -q "^t/$file:$line:[0-9]*: error: drift: rule '$rule' left this site alone when p.diff was made ($file:$line, [a-z ]*), and its value is '.*' now: it was edited since; next: " err ||
    { cat err >&2; fail "$name: no left-edited finding at t/$file:$line"; }
  local next
  next=$(sed -n "s|^t/$file:$line:[0-9]*: error: drift: rule '$rule' .*; next: ||p" err | head -1)
  (PATH=$(dirname "$muhpatch"):$PATH && eval "$next" 2>err) || { cat err >&2; fail "$name: '$next' failed"; }
  "$muhpatch" -q verify rules.yaml t --patch p.diff || fail "$name: verify is not clean after '$next'"
  ok "$name: an edit of $file:$line ($rule) since the patch is drift, and '$next' records it"
}

line=$(grep -n "32 \* 1024" "$repo/fixtures/enginex-vllm/$ops" | head -1 | cut -d: -f1)
check "smem limit, pristine" "$ops" "$line" "32 \* 1024" "48 * 1024" custom-ops-smem-limit no
small=$(sed -n 's/^muhpatch: rule fused-moe-small-m-block-m: dead; left: 0@[^:]*:\([0-9]*\)=.*/\1/p' \
  <("$muhpatch" -q diff rules.yaml "$repo/fixtures/enginex-vllm"))
[[ -n $small ]] || fail "the fixture's small-M BLOCK_SIZE_M is not dead"
check "dead dict value, pristine" "$moe" "$small" "16" "32" fused-moe-small-m-block-m no
check "dead dict value, patched" "$moe" "$small" "16" "32" fused-moe-small-m-block-m yes

# A patch of an older muhpatch (no `left:` records): verify says what it
# cannot see, as a note, and stays clean.
rm -rf t && cp -a "$repo/fixtures/enginex-vllm" t && chmod -R u+w t
"$muhpatch" -q diff rules.yaml t | sed 's/; left: .*$//' >old.diff
"$muhpatch" verify rules.yaml t --patch old.diff 2>err || { cat err >&2; fail "older patch: verify is not clean"; }
grep -q "^old.diff:1:1: note: the patch records no site it leaves alone (made before muhpatch recorded them): a hand edit there since is not seen; make it again to record them; next: muhpatch diff -o old.diff rules.yaml t$" err ||
  { cat err >&2; fail "older patch: no note that its sites left alone are unwatched"; }
ok "a patch without records: verify is clean and says the sites it left alone are unwatched"
