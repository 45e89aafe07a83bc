# Sourced by CLI tests that check copies of a tree in a scratch folder.
# Needs $repo. Makes $scratch (removed on exit) and works there, with
# rules.yaml a copy of rules/bi100.yaml; $moe is the fused-MoE module's
# path in a tree. copy_tree SOURCE: a writable copy of SOURCE in ./t.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
cp "$repo/rules/bi100.yaml" rules.yaml
moe=vllm/model_executor/layers/fused_moe/fused_moe.py
copy_tree() { rm -rf t && cp -r "$1" t && chmod -R u+w t; }
