#!/usr/bin/env bash
# A tier bound computed from a module constant that another module of the
# tree rebinds (issue 38): fused_moe.py says `MOE_SMALL_TIER = 64` and
# `if numel <= MOE_SMALL_TIER:`, and vllm/bi100_overrides.py sets
# `_fm.MOE_SMALL_TIER = 4096` through the module object. 64 proves nothing
# about the bound the code runs with: diff exits 6 with an error at the
# bound that names the override's file:line, and verify exits 1. Without
# the override the same chain is rewritten (exit 0). Checked on the fixture
# tree and on a copy of the real tree.
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
source "$repo/tests/cli/lib/on_trees.sh"
source "$repo/tests/cli/lib/scratch_tree.sh"
test=rebound_bound
source "$repo/tests/cli/lib/run_muhpatch.sh"

check() {  # NAME SOURCE
  local name=$1
  copy_tree "$2"
  python3 - t/$moe <<'PY'
import sys
p = sys.argv[1]
s = open(p, newline='').read()
anchor = "logger = init_logger(__name__)"
assert anchor in s and "    if numel <= 64:" in s
s = s.replace(anchor, anchor + "\n\nMOE_SMALL_TIER = 64", 1)
s = s.replace("    if numel <= 64:", "    if numel <= MOE_SMALL_TIER:", 1)
open(p, 'w', newline='').write(s)
PY
  run diff --rule fused-moe-tier-block-m rules.yaml t
  [[ $code -eq 0 && -s out ]] || { cat err >&2; fail "$name: no override: diff exit $code, expected 0 with a patch"; }
  printf '%s\n' 'from vllm.model_executor.layers.fused_moe import fused_moe as _fm' '' \
    '_fm.MOE_SMALL_TIER = 4096' >t/vllm/bi100_overrides.py
  rm -rf before && cp -a t before
  local line
  line=$(grep -n "    if numel <= MOE_SMALL_TIER:" t/$moe | cut -d: -f1)
  local want="t/$moe:$line:17: error: rule 'fused-moe-tier-block-m': the tier bound reads the module constant MOE_SMALL_TIER, which vllm/bi100_overrides.py:3 (\`_fm.MOE_SMALL_TIER = 4096\`) may rebind at run time: its value here proves nothing, so the tiers are not sized for it (make the bound a literal, or read the override where the chain is)"
  run diff --rule fused-moe-tier-block-m rules.yaml t
  [[ $code -eq 6 ]] || { cat err >&2; fail "$name: diff exit $code, expected 6"; }
  [[ ! -s out ]] || fail "$name: diff printed a patch for a refused rule"
  grep -qxF "$want" err || { cat err >&2; fail "$name: no located error naming the override"; }
  run verify rules.yaml t
  [[ $code -eq 1 ]] || { cat err >&2; fail "$name: verify exit $code, expected 1"; }
  grep -qF "$want; next: muhpatch status rules.yaml t --rule fused-moe-tier-block-m" err ||
    { cat err >&2; fail "$name: verify does not name the override"; }
  run apply rules.yaml t
  [[ $code -eq 6 ]] || fail "$name: apply exit $code, expected 6"
  diff -r before t >/dev/null || fail "$name: apply changed the tree"
  echo "ok $name: a bound another module rebinds is refused at its file:line"
}
on_trees check
