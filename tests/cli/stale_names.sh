#!/usr/bin/env bash
# A stale patch names each rule whose edits differ (issue 40, item 2, second
# bullet). On a copy of the fixture tree and of the real tree (when ../shared
# has it): the patch `diff` makes, with the value on its first MoE tier `+`
# line changed to 999, verified on the pristine tree: exit 1, nothing on
# stdout, and on stderr the rule at the tier's line in the tree, then one
# line with the committed value and one with the regenerated one, before the
# verdict. With -v, stdout is the diff of the two patches.
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "FAIL: stale_names: $*" >&2; exit 1; }
# shellcheck source=lib/scratch_tree.sh
source "$repo/tests/cli/lib/scratch_tree.sh"

check() {
  local name=$1 source=$2 code=0
  copy_tree "$source"
  "$muhpatch" -q diff rules.yaml t >p.diff
  # The first tier's `-`/`+` pair, and the tree line the `-` line is.
  local at minus plus line
  at=$(grep -n "^+ *config\['BLOCK_SIZE_M'\] = " p.diff | head -1 | cut -d: -f1)
  [[ -n $at ]] || fail "$name: the patch rewrites no MoE tier"
  minus=$(sed -n "$((at - 1))p" p.diff)
  plus=$(sed -n "${at}p" p.diff)
  [[ $minus == -* ]] || fail "$name: the tier's '+' line has no '-' line before it"
  line=$(grep -nxF -- "${minus#-}" "t/$moe" | head -1 | cut -d: -f1)
  sed "${at}s/= [0-9]*\$/= 999/" p.diff >p2.diff
  "$muhpatch" -q verify rules.yaml t --patch p2.diff >out 2>err || code=$?
  [[ $code -eq 1 ]] || { cat err >&2; fail "$name: verify exited $code, expected 1"; }
  [[ ! -s out ]] || fail "$name: without -v, stdout is not empty"
  cat >want <<OUT
t/$moe:$line: error: drift: rule 'fused-moe-tier-block-m' writes this line otherwise than p2.diff; next: muhpatch diff -o p2.diff rules.yaml t
    committed:   '${plus#+}'
    regenerated: '${plus#+}'
OUT
  sed -i "2s/= [0-9]*'\$/= 999'/" want
  grep -A2 "^t/$moe:$line: error: drift: rule 'fused-moe-tier-block-m' writes" err >got || true
  diff want got >&2 || { cat err >&2; fail "$name: the stale rule is not named with its two values"; }
  [[ $(tail -n 1 err) == "verify: drift: p2.diff is stale: "* ]] || fail "$name: wrong verdict"
  "$muhpatch" -q -v verify rules.yaml t --patch p2.diff >out 2>/dev/null || true
  [[ $(head -n 1 out) == "diff --git a/p2.diff b/p2.diff" ]] || fail "$name: -v does not print the diff of the patches"
  echo "ok $name: the stale tier named at $moe:$line, committed '= 999', regenerated '${plus##* }'; -v prints the diff of diffs"
}

# shellcheck source=lib/on_trees.sh
source "$repo/tests/cli/lib/on_trees.sh"
on_trees check
