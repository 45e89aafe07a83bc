#!/usr/bin/env bash
# `tiers: means:` (issue 38): bi100's MoE tiers are sized for token-expert
# pairs, so the chain's `numel` must be `M * topk` in get_default_config.
# A fork that writes `numel = M` is refused (diff exits 6, an error at the
# chain naming the line); `numel = topk * M` is the same count and gives
# the plain tree's patch. Checked on the fixture tree and a copy of the
# real tree.
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
source "$repo/tests/cli/lib/on_trees.sh"
source "$repo/tests/cli/lib/scratch_tree.sh"
test=tier_means
source "$repo/tests/cli/lib/run_muhpatch.sh"
numel() {  # EXPR: writes `numel = EXPR` in t's fused_moe.py
  python3 - "t/$moe" "$1" <<'PY'
import sys
p, expr = sys.argv[1], sys.argv[2]
s = open(p, newline='').read()
assert s.count("    numel = M * topk") == 1
open(p, 'w', newline='').write(s.replace("    numel = M * topk", "    numel = " + expr, 1))
PY
}

check() {  # NAME SOURCE
  local name=$1
  copy_tree "$2"
  run diff --rule fused-moe-tier-block-m rules.yaml t
  cp out plain.diff
  copy_tree "$2"
  numel "topk * M"
  run diff --rule fused-moe-tier-block-m rules.yaml t
  [[ $code -eq 0 ]] || { cat err >&2; fail "$name: numel = topk * M: exit $code"; }
  diff <(grep -v '^ \|^@@' plain.diff) <(grep -v '^ \|^@@' out) >/dev/null ||
    fail "$name: numel = topk * M changed the patch"
  copy_tree "$2"
  numel "M"
  local line
  line=$(grep -n "^    numel = M$" t/$moe | cut -d: -f1)
  run diff --rule fused-moe-tier-block-m rules.yaml t
  [[ $code -eq 6 ]] || { cat err >&2; fail "$name: numel = M: exit $code, expected 6"; }
  grep -qxF "t/$moe:$((line + 1)):5: error: rule 'fused-moe-tier-block-m': the chain's \`numel\` must count \`M * topk\` (the rule's 'means'), what its tiers are sized for, and \`numel\` is \`M\` here (line $line), not \`M * topk\`" err ||
    { cat err >&2; fail "$name: no located error for numel = M"; }
  echo "ok $name: numel = topk * M is the plain patch, numel = M is refused at the chain"
}
on_trees check
