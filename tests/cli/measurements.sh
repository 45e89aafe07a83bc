#!/usr/bin/env bash
# Measurements are matched to the deployment, or the mismatch is said: rows
# timed for another workload are not used, and one line on stderr (without
# -v) names the rows' values and the deployment's. A malformed row is bad
# input (exit 2) at its file:line:col: a value that is not the knob's type,
# an "ok" row whose time is not a positive number, a point that lacks a key
# the knob needs. The tree stays untouched either way.
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: measurements: $*" >&2; exit 1; }
cd "$scratch"
cp -r "$repo/fixtures/enginex-vllm" tree

# A Mixtral-shaped deployment (8 experts, top 2) served at tp 2.
cat >mixtral.json <<'JSON'
{"hidden_size": 4096, "intermediate_size": 14336, "num_local_experts": 8,
 "num_experts_per_tok": 2, "num_attention_heads": 32, "num_key_value_heads": 8,
 "torch_dtype": "bfloat16"}
JSON
printf 'vllm serve /models/mixtral -tp 2\n' >serve.txt
# Rows timed for a Qwen3-MoE shape (E 128, top 8, tp 4).
point='{"num_experts": 128, "topk": 8, "tensor_parallel_size": 4, "dtype": "bfloat16"}'
cat >other.json <<JSON
{"format": "muhpatch-probe/1", "device": "NVIDIA H200",
 "columns": {"knobs": ["knob", "point", "value", "status", "us"]},
 "knobs": [
   ["moe_small_block_m", $point, 16, "ok", 55.4],
   ["moe_small_block_m", $point, 64, "ok", 75.9]
 ]}
JSON
deploy=(--hf-config mixtral.json --serve-args serve.txt)
"$muhpatch" diff "$repo/rules/bi100.yaml" tree "${deploy[@]}" >plain.diff 2>/dev/null ||
  fail "diff without measurements exited $?"
"$muhpatch" diff "$repo/rules/bi100.yaml" tree "${deploy[@]}" --measurements other.json \
  >other.diff 2>err || { cat err >&2; fail "diff with another workload's rows exited $?"; }
cmp -s plain.diff other.diff || fail "rows for another workload changed the patch"
grep 'other.json' err >said || true
cat >want <<'TXT'
other.json:4:4: warning: knobs rows 1-2 (moe_small_block_m) are for num_experts 128, tensor_parallel_size 4, topk 8, the deployment for num_experts 8, tensor_parallel_size 2, topk 2: not used; no row fits the deployment, so the model decides moe_small_block_m
TXT
diff -u want said || fail "the mismatch is not said in one line naming both sides"
"$muhpatch" -q diff "$repo/rules/bi100.yaml" tree "${deploy[@]}" --measurements other.json \
  >/dev/null 2>err || fail "diff -q exited $?"
grep -q '^other.json:4:4: warning: ' err || fail "-q hides the warning"
echo "ok rows for another workload: not used, one warning naming both sides"

# Malformed rows: exit 2, the row named at its place, the tree untouched.
cp -r tree pristine
check_bad() {  # NAME ROW EXPECTED-STDERR
  printf '{"format": "muhpatch-probe/1",\n "columns": {"knobs": ["knob", "point", "value", "status", "us"]},\n "knobs": [\n   ["moe_small_block_m", {}, 16, "ok", 50.0],\n   %s\n ]}\n' "$2" >"$1.json"
  set +e
  "$muhpatch" apply "$repo/rules/bi100.yaml" tree --measurements "$1.json" >/dev/null 2>err
  code=$?
  set -e
  [[ $code -eq 2 ]] || { cat err >&2; fail "$1: exit $code, expected 2"; }
  printf '%s\n' "$3" >want
  diff -u want err || fail "$1: the error does not name the row"
  diff -r pristine tree >/dev/null || fail "$1: the tree changed"
  echo "ok $1: exit 2, $(cut -d' ' -f3- want | cut -c1-60)..."
}
check_bad value '["moe_small_block_m", {}, "big", "ok", 40.0]' \
  "value.json:5:4: error: knobs row 2: value 'big' does not parse as an integer, the type of moe_small_block_m"
check_bad time '["moe_small_block_m", {}, 32, "ok", -1]' \
  "time.json:5:4: error: knobs row 2: an 'ok' row needs a positive time in 'us', got -1"
check_bad untimed '["moe_small_block_m", {}, 32, "ok", null]' \
  "untimed.json:5:4: error: knobs row 2: an 'ok' row needs a positive time in 'us', got null"
check_bad point '["moe_block_m_tier", {"max_batched_tokens": 8192}, 32, "ok", 40.0]' \
  "point.json:5:4: error: knobs row 2: point: moe_block_m_tier needs 'numel', the token-expert pairs its candidates were timed at"
