#!/usr/bin/env bash
# On the GPU machine: times every BLOCK_SIZE_M candidate (16..256) of the
# tree's fused_moe_kernel, the rest of the config as the shipped
# get_default_config gives it, for each MoE shape below, in two independent
# passes: pass 1 is the measurement muhpatch chooses from, pass 2 the
# validation its choice is judged on (results.py shapes). A short pass on the
# cold card is thrown away first. Everything lands in OUT/shapes.tgz.
#
#   bench/real_kernels/shapes.sh OUT [PASSES]     (staged/ carried; stage.sh)
set -uo pipefail
out=${1:?OUT}
passes=${2:-"1 2"}
here=$(cd "$(dirname "$0")" && pwd)
# name=E,TOPK,HIDDEN,INTERMEDIATE,TP (the model's config.json; INTERMEDIATE
# is moe_intermediate_size, or Mixtral's intermediate_size, before the split)
shapes=(qwen3-30b-a3b=128,8,2048,768,4
        mixtral-8x7b=8,2,4096,14336,2
        deepseek-v2-lite=64,6,2048,1408,1
        qwen1.5-moe-a2.7b=60,4,2048,1408,1
        qwen2-57b-a14b=64,8,3584,2560,4)
ms=1,4,8,16,32,64,128,256,512,1024,2048,4096,8192,16384
work=$(mktemp -d)
cd "$here" || exit 1
python3 run_kernels.py probe --tree staged --variant shipped --shape 128,8,2048,768,4 \
  --m 16,1024 --out "$work/warm" >/dev/null 2>&1
rm -rf "$work/warm"
for pass in $passes; do
  for s in "${shapes[@]}"; do
    name=${s%%=*}
    dir="$work/pass$pass-$name"
    start=$SECONDS
    timeout 240 python3 run_kernels.py probe --tree staged --variant shipped \
      --shape "${s#*=}" --m "$ms" --out "$dir" >"$dir.log" 2>&1
    echo "pass $pass $name: rc $? in $((SECONDS - start)) s"
  done
done
tar -C "$work" -czf "$out/shapes-$(echo "$passes" | tr -d ' ').tgz" .
