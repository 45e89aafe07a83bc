#!/usr/bin/env bash
# The workload from the deployment: --hf-config (the served model's
# config.json) and --serve-args (the serving command line) override the rule
# file's workload, and every entry says where it came from; a bad file is a
# located error (exit 2).
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: deployment: $*" >&2; exit 1; }
cd "$scratch"
"$muhpatch" model "$repo/rules/bi100.yaml" --hf-config "$repo/rules/examples/qwen3-moe-config.json" \
  --serve-args "$repo/rules/examples/serve-args.txt" >model.txt 2>err || { cat err >&2; fail "model exited $?"; }
grep -q "^  num_kv_heads = 4  \[config.json\]" model.txt || fail "num_kv_heads does not come from config.json"
grep -q "^  tensor_parallel_size = 4  \[serve args\]" model.txt || fail "tensor_parallel_size does not come from the serve args"
echo "ok model --hf-config --serve-args: entries marked [config.json] and [serve args]"
printf '{"hidden_size": "x"}\n' >bad.json
set +e
"$muhpatch" model "$repo/rules/bi100.yaml" --hf-config bad.json >/dev/null 2>err
code=$?
set -e
[[ $code -eq 2 ]] || fail "a bad config.json: exit $code, expected 2"
grep -qx "bad.json: error: 'hidden_size' must be a positive whole number, got \"x\"" err ||
  { cat err >&2; fail "the error does not name the key"; }
echo "ok a bad config.json: exit 2, the key named"
