#!/usr/bin/env bash
# `muhpatch status` on the fixture tree, in each format, against the goldens
# in tests/cli/status/ (MUHPATCH_UPDATE_GOLDENS=1 rewrites them); then on a
# copy where one rule fails and one knob was tuned by hand: exit 6, the
# failing row says why.
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: status: $*" >&2; exit 1; }
cp -a "$repo/fixtures/enginex-vllm" "$scratch/tree"
cp "$repo/rules/bi100.yaml" "$scratch/rules.yaml"
cd "$scratch"
for format in text json markdown; do
  "$muhpatch" status rules.yaml tree --format "$format" >"status.$format" 2>err ||
    { cat err >&2; fail "--format $format exited $?"; }
  golden=$repo/tests/cli/status/enginex.$format
  [[ ${MUHPATCH_UPDATE_GOLDENS:-} == 1 ]] && cp "status.$format" "$golden"
  diff -u "$golden" "status.$format" >&2 || fail "--format $format differs from $golden"
  echo "ok status --format $format matches $golden"
done
python3 -c 'import json, sys; rows = json.load(open("status.json")); assert len(rows) >= 17 and all(r["rule"] and r["state"] for r in rows)' ||
  fail "the JSON is not a list of rows with rule and state"

# A failing rule: the NUM_WARPS line gone; diff and status both exit 6.
f=tree/vllm/attention/ops/prefix_prefill.py
grep -v '^        NUM_WARPS = ' "$f" >"$f.new" && mv "$f.new" "$f"
set +e
"$muhpatch" status rules.yaml tree >failing.txt 2>err
code=$?
set -e
[[ $code -eq 6 ]] || fail "a failing rule: exit $code, expected 6"
grep -q "^prefix-prefill-num-warps .* failing: rule 'prefix-prefill-num-warps': NUM_WARPS is read here, but assigned nowhere before" failing.txt ||
  { cat failing.txt >&2; fail "the failing row does not say why"; }
echo "ok a rule that finds no site: exit 6, its row is 'failing' with the reason"

# model --tree: each quantity with the sites that write it and their liveness.
"$muhpatch" model rules.yaml --tree "$repo/fixtures/enginex-vllm" >model.txt 2>err ||
  { cat err >&2; fail "model --tree exited $?"; }
grep -q "^Sites in .*fixtures/enginex-vllm (where each quantity is written, and whether it runs):$" model.txt ||
  fail "model --tree prints no sites section"
grep -q "^  moe_default_block_m: rule 'fused-moe-default-block-m' at vllm/model_executor/layers/fused_moe/fused_moe.py:[0-9]*: dead: overwritten" model.txt ||
  { cat model.txt >&2; fail "model --tree does not say the default BLOCK_SIZE_M is dead"; }
echo "ok model --tree: each quantity with its sites and whether they run"
