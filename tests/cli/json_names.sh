#!/usr/bin/env bash
# verify --format json with a copied knob in a file whose name is not UTF-8:
# exit 1 (drift), valid JSON on stdout, the name's odd byte escaped as \xHH.
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: json_names: $*" >&2; exit 1; }
cp -a "$repo/fixtures/enginex-vllm" "$scratch/tree"
cp "$repo/rules/bi100.yaml" "$scratch/rules.yaml"
cd "$scratch"
name=$(printf 'tree/vllm/copy_\xff.py')
printf 'def get_max_shared_memory_per_block_device_attribute(device: int) -> int:\n    return 32 * 1024\n' >"$name"
set +e
"$muhpatch" verify rules.yaml tree --format json >out.json 2>err
code=$?
set -e
[[ $code -eq 1 ]] || { cat err >&2; fail "exit $code, expected 1"; }
python3 - out.json <<'PY' || fail "stdout is not the JSON report with the escaped name"
import json, sys
report = json.load(open(sys.argv[1], encoding="utf-8"))
names = [f["file"] for f in report["findings"] if f["kind"] == "foreign"]
assert names == ["tree/vllm/copy_\\xFF.py"], names
assert all(f["rule"] for f in report["findings"] if f["kind"] == "foreign")
PY
echo "ok verify --format json: exit 1, valid JSON, the non-UTF-8 name escaped"
