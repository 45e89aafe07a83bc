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

# advised NAME ERR: runs the first `next:` command ERR advises, as printed,
# then verify must be clean.
advised() {
  local next
  next=$(sed -n 's|^.*; next: ||p' "$2" | head -1)
  [[ -n $next ]] || { cat "$2" >&2; fail "$1: no next command"; }
  (PATH=$(dirname "$muhpatch"):$PATH && eval "$next" 2>err.next) || { cat err.next >&2; fail "$1: '$next' failed"; }
  "$muhpatch" -q verify rules.yaml t --patch p.diff ${3:-} || fail "$1: verify is not clean after '$next'"
}
fresh() {
  rm -rf t && cp -a "$repo/fixtures/enginex-vllm" t && chmod -R u+w t
  "$muhpatch" -q diff rules.yaml t "$@" >p.diff
}
pa=vllm/attention/ops/paged_attn.py

# A skipped rule's site deleted since the patch: no rule fails for it, and
# its record alone says it is gone.
fresh
line=$(sed -n 's/^muhpatch: rule paged-attn-use-v1-override: skipped; left: 0@[^:]*:\([0-9]*\)=.*/\1/p' p.diff)
sed -i "${line}d" "t/$pa"
code=0; "$muhpatch" -q verify rules.yaml t --patch p.diff 2>err || code=$?
[[ $code -eq 1 ]] || { cat err >&2; fail "skipped site deleted: verify exits $code, not 1"; }
grep -q "^t/$pa:$line:1: error: drift: rule 'paged-attn-use-v1-override' left a site alone here when p.diff was made, and finds no site now: it was deleted, or edited so that the rule's query no longer matches it; next: muhpatch diff -o p.diff rules.yaml t$" err ||
  { cat err >&2; fail "skipped site deleted: no finding at t/$pa:$line"; }
advised "skipped site deleted" err
ok "a skipped rule's site deleted since the patch is drift at its line, and the advice records it"

# A status line removed from the preamble takes the rule's records with it.
fresh
sed -i '/^muhpatch: rule fused-moe-small-m-block-m:/d' p.diff
code=0; "$muhpatch" -q verify rules.yaml t --patch p.diff 2>err || code=$?
[[ $code -eq 1 ]] || { cat err >&2; fail "status line removed: verify exits $code, not 1"; }
grep -q "^p.diff:1:1: error: drift: the patch's preamble has no line for rule 'fused-moe-small-m-block-m' (it is 'dead' now)" err ||
  { cat err >&2; fail "status line removed: no finding"; }
advised "status line removed" err
ok "a rule's status line removed from the patch is drift, and the advice writes it again"

# A patch without a preamble (as \`git diff\` writes it) is verified, with a
# note that it records nothing.
fresh
grep -v '^muhpatch: ' p.diff >git.diff
"$muhpatch" verify rules.yaml t --patch git.diff 2>err || { cat err >&2; fail "no preamble: verify is not clean"; }
grep -q "^git.diff:1:1: note: the patch has no muhpatch preamble (not written by \`muhpatch diff\`)" err ||
  { cat err >&2; fail "no preamble: no note"; }
ok "a patch without a preamble verifies clean, with a note that it records no site left alone"

# A patch made with --include-dead says so on its first line, and verify
# takes the flag from it; a refresh it advises keeps the flag.
fresh --include-dead
[[ $(head -1 p.diff) == "muhpatch: made with --include-dead" ]] || { head -3 p.diff >&2; fail "include-dead: no first line"; }
"$muhpatch" -v verify rules.yaml t --patch p.diff 2>err || { cat err >&2; fail "include-dead: verify without the flag is not clean"; }
grep -q "^muhpatch: info: p.diff was made with --include-dead (its first line says so): verified with it$" err ||
  { cat err >&2; fail "include-dead: verify does not say it took the flag from the patch"; }
# A BOM an editor added does not hide the line.
(printf '\xef\xbb\xbf'; cat p.diff) >bom.diff
"$muhpatch" -q verify rules.yaml t --patch bom.diff || fail "include-dead: a BOM hides the first line"
sed -i "s/return 32 \* 1024/return 48 * 1024/" "t/$ops"
code=0; "$muhpatch" -q verify rules.yaml t --patch p.diff 2>err || code=$?
[[ $code -eq 1 ]] || { cat err >&2; fail "include-dead: an edit is not drift"; }
tail -1 err | grep -q "; next: muhpatch diff -o p.diff rules.yaml t --include-dead$" ||
  { cat err >&2; fail "include-dead: the refresh drops the flag"; }
ok "a patch made with --include-dead says so: verify takes the flag from it, and its refresh keeps it"

# A patched tree with one of the patch's values edited back: it holds part
# of the patch, and a patch made from it would drop the rest. The advice
# writes the site again and leaves the patch as it is.
fresh
"$muhpatch" -q apply rules.yaml t
cp p.diff committed.diff
line=$(grep -n "config\['BLOCK_SIZE_M'\] = 16" "t/$moe" | head -1 | cut -d: -f1)
first=$(grep -n "^-        config\['BLOCK_SIZE_M'\] = " p.diff | head -1 | sed "s/.*= //")
sed -i "${line}s/= 16/= $first/" "t/$moe"
code=0; "$muhpatch" -q verify rules.yaml t --patch p.diff 2>err || code=$?
[[ $code -eq 1 ]] || { cat err >&2; fail "part of the patch edited back: verify exits $code, not 1"; }
tail -1 err | grep -q "; next: muhpatch apply rules.yaml t$" ||
  { cat err >&2; fail "part of the patch edited back: the advice is not to write the sites again"; }
advised "part of the patch edited back" err
cmp -s p.diff committed.diff || fail "part of the patch edited back: the advice changed the patch"
ok "a patched tree with one value edited back: the advice writes it again and keeps the patch"

# A file of another encoding it declares (`# coding: latin-1`) in the rules'
# scope is valid Python: verify reads it (its tree proves nothing) and is
# clean, where it once stopped at its first byte past ASCII.
fresh
printf '# -*- coding: latin-1 -*-\nname = "caf\xe9"\n' >t/vllm/latin1_module.py
"$muhpatch" -q verify rules.yaml t --patch p.diff 2>err || { cat err >&2; fail "latin-1 module: verify is not clean"; }
ok "a module in the latin-1 its coding line declares does not stop verify"

# One status line's record cut (its `; left:` part stripped) while the
# others keep theirs: drift, so that a hand edit there cannot pass.
fresh
sed -i 's/^\(muhpatch: rule fused-moe-small-m-block-m: dead\); left: .*$/\1/' p.diff
code=0; "$muhpatch" -q verify rules.yaml t --patch p.diff 2>err || code=$?
[[ $code -eq 1 ]] || { cat err >&2; fail "record cut: verify exits $code, not 1"; }
grep -q "^p.diff:1:1: error: drift: the preamble's line for rule 'fused-moe-small-m-block-m' (dead) records no site it leaves alone" err ||
  { cat err >&2; fail "record cut: no finding"; }
advised "record cut" err
ok "a status line whose record was cut is drift, and the advice writes it again"

# `diff --rule R --patch P -o P` would cut P to R's records: refused, as
# verify and --base-patch refuse it, and P is kept.
fresh
cp p.diff kept.diff
code=0; "$muhpatch" -q diff --rule fused-moe-tier-block-m --patch p.diff -o p.diff rules.yaml t 2>err || code=$?
[[ $code -eq 2 ]] || { cat err >&2; fail "--rule with --patch: exit $code, not 2"; }
grep -q "^p.diff:[0-9]*:1: error: the patch records rule '.*', which --rule leaves out" err ||
  { cat err >&2; fail "--rule with --patch: no located refusal"; }
cmp -s p.diff kept.diff || fail "--rule with --patch: the patch changed"
ok "diff --rule with a --patch recording other rules is refused, and the patch kept"
