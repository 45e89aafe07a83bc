#!/usr/bin/env bash
# Replays the committed real-kernel results (bench/real_kernels/h200.json):
# stages the real tree's kernel files with the values the shipped rules
# write for each profile (bench/real_kernels/stage.sh, into a scratch
# folder), reads those values back with Python's ast, and checks each
# against the committed runs of the tree's own kernels on the H200. Fails
# when a value computed wrong, when an H200-profile value is slower than the
# shipped value it replaces by more than the recorded spread, or when a value
# was never run on the kernel (a change to the model or the rules then needs
# a new GPU run: bench/real_kernels/README.md). Times nothing.
set -euo pipefail
muhpatch=$1
root=$(cd "$(dirname "$0")/../.." && pwd)
tree=$root/../shared/targets/enginex-vllm
if [[ ! -d $tree/vllm ]]; then
  echo "skipped: the real tree is not at $tree"
  exit 77
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
bash "$root/bench/real_kernels/stage.sh" "$muhpatch" "$tree" "$scratch/staged" >/dev/null
python3 "$root/bench/real_kernels/results.py" check --staged "$scratch/staged"
