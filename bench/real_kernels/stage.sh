#!/usr/bin/env bash
# Stages the real tree's kernel files for the GPU machine, as each variant has
# them: `shipped` (the tree as published) and one folder per profile with
# muhpatch's values written in (`apply --include-dead`, so that dead sites
# run too). The folder is git-ignored and travels with `carry`; nothing of
# the tree is committed.
#
#   bench/real_kernels/stage.sh [MUHPATCH] [TREE] [DEST]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
muhpatch=${1:-$root/build/muhpatch}
tree=${2:-$root/../shared/targets/enginex-vllm}
dest=${3:-$root/bench/real_kernels/staged}
files=(vllm/attention/ops/triton_flash_attention.py
       vllm/model_executor/layers/fused_moe/fused_moe.py
       vllm/attention/ops/prefix_prefill.py)
# The H200 variant also reads the H200's measurements of the MoE tier family
# (tier_measurements.py), which choose get_default_config's bounds and values.
declare -A profiles=([bi100]=""
  [h200]="--hw $root/bench/probe/h200/profile.yaml --measurements $root/bench/probe/h200/moe-tiers.json")

rm -rf "$dest"
mkdir -p "$dest"
copy() {  # copy FROM_TREE TO_FOLDER
  for f in "${files[@]}"; do
    mkdir -p "$2/$(dirname "$f")"
    cp "$1/$f" "$2/$f"
  done
}
copy "$tree" "$dest/shipped"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for name in "${!profiles[@]}"; do
  cp -r "$tree" "$work/$name"
  chmod -R u+w "$work/$name"
  # --keep-going: the tree pins its compute capability at 9.0
  # (vllm/platforms/cuda.py), so at the bi100 profile's 7.0 the NUM_WARPS
  # and BLOCK rules are refused (a test the tree answers itself); any other
  # failure stops the staging.
  rc=0
  # shellcheck disable=SC2086 # the profile options split into words
  "$muhpatch" apply "$root/rules/bi100.yaml" "$work/$name" --include-dead --keep-going \
    ${profiles[$name]} >/dev/null 2>"$dest/$name.apply.log" || rc=$?
  if [[ $rc -ne 0 ]] && { [[ $rc -ne 6 ]] ||
     grep "error:" "$dest/$name.apply.log" | grep -qv "test the tree answers itself"; }; then
    cat "$dest/$name.apply.log" >&2
    exit 1
  fi
  copy "$work/$name" "$dest/$name"
done
for name in "${!profiles[@]}"; do
  diff -ru "$dest/shipped" "$dest/$name" >"$dest/$name.diff" || true
done
echo "staged in $dest: shipped ${!profiles[*]}"
