#!/usr/bin/env bash
# Replays the committed GPU passes of the MoE BLOCK_SIZE_M on five model
# shapes (bench/real_kernels/h100-shapes.json): for each, muhpatch chooses
# get_default_config's tiers from pass 1 and the choice is judged on the
# later passes (bench/real_kernels/shapes.py check; fails below 95% of the
# best candidate at any M from 16 to 16384). Then the committed sample of the
# owner's probe output (h100-probe-sample.json, written by
# `run_kernels.py probe`) is fed to --measurements as it is, on a copy of
# the real tree: the diff it gives is a golden. Times nothing.
set -euo pipefail
muhpatch=$(realpath "$1")
root=$(cd "$(dirname "$0")/../.." && pwd)
tree=$root/../shared/targets/enginex-vllm
if [[ ! -d $tree/vllm ]]; then
  echo "skipped: the real tree is not at $tree"
  exit 77
fi
fail() { echo "FAIL: real_shapes: $*" >&2; exit 1; }
python3 "$root/bench/real_kernels/shapes.py" check "$muhpatch" "$tree"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
golden=$root/tests/cli/real_shapes/probe-sample.diff
"$muhpatch" diff "$root/rules/bi100.yaml" "$tree" --include-dead --rule fused-moe-tier-block-m \
  --measurements "$root/bench/real_kernels/h100-probe-sample.json" >"$scratch/out" \
  2>"$scratch/err" || fail "diff with the probe sample exited $?: $(cat "$scratch/err")"
if [[ ${MUHPATCH_UPDATE_GOLDENS:-} == 1 ]]; then cp "$scratch/out" "$golden"; fi
diff -u "$golden" "$scratch/out" || fail "the probe sample's diff differs from $golden"
# Rows for the rule file's own workload: nothing to say about them.
[[ ! -s $scratch/err ]] || fail "stderr: $(cat "$scratch/err")"
