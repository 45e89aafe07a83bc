#!/usr/bin/env bash
# Issue 39: the deployment's assumptions are inputs, and verdicts name them.
# On fixtures/liveness/backend_only (a kernel imported only by the ROCm
# backend's branch of a selector): unset, VLLM_ATTENTION_BACKEND keeps the
# site dead and status names the assumption; declared ROCM_FLASH in the
# rule file or in the serving command, the site runs, verify reports the
# flip as drift naming it, and a rule file and a command that disagree are
# an error naming both. On fixtures/liveness/dynamic_loader: an undeclared
# import_module(var) leaves a site unknown, naming the declaration; declared,
# the site is dead as the code proves.
#
# Usage: assumptions.sh MUHPATCH
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: assumptions: $*" >&2; exit 1; }
ok() { echo "ok $*"; }

cp -a "$repo/fixtures/liveness/backend_only" "$scratch/backend"
cp -a "$repo/fixtures/liveness/dynamic_loader" "$scratch/loader"
cd "$scratch"

# rules FILE LIVENESS_EXTRA [RULES]: a rule file for the BM= values of
# FILE, with LIVENESS_EXTRA (YAML lines) added under liveness:, and RULES
# (YAML lines) after that rule.
rules() {
  cat <<YAML
version: 1
values:
  bm: 96
liveness:
  entry: app.main
  platform: cuda
$2
rules:
  - id: tuned-bm
    description: the BM of every dict(BM=..., BN=...) candidate
    files: $1
    query: |
      (call function: (identifier) @fn
        arguments: (argument_list (keyword_argument name: (identifier) @k value: (integer) @value))
        (#eq? @fn "dict") (#eq? @k "BM"))
    expect: 1..4
    replace: value
    with: "{{bm}}"
${3:-}
YAML
}

# The native backend's split, live whatever the environment: the patch is
# never empty, and carries each rule's state.
split='  - id: split
    description: the native backend split
    files: app/backends/native.py
    pattern: SPLIT = $value
    replace: value
    with: "512"'


rules app/kernels/tuned.py "" "$split" >default.yaml
rules app/kernels/tuned.py "  environment:
    VLLM_ATTENTION_BACKEND: ROCM_FLASH" "$split" >rocm.yaml
rules app/kernels/tuned.py "  environment:
    VLLM_ATTENTION_BACKEND: null" "$split" >unset.yaml

"$muhpatch" status default.yaml backend >status.txt 2>/dev/null
grep -q "^tuned-bm .* dead .*assuming platform cuda, compute capability 7.0 and VLLM_ATTENTION_BACKEND unset (vLLM's default)" status.txt ||
  fail "unset: the site is not dead naming the assumption: $(cat status.txt)"
[[ $(sed -n '/^assumptions in force:/,$p' status.txt) == "assumptions in force:
  platform cuda, compute capability 7.0
  VLLM_ATTENTION_BACKEND unset (vLLM's default)
  no plugin is installed (vLLM's default)
  unpickled data and logging's dictConfig import only modules the process has imported or its configuration names (vLLM's default)
  a function that takes the value as an argument uses it as it is; a value returned or put in a container whole reaches its consumer as it is" ]] || fail "status's assumptions: $(cat status.txt)"
ok "unset: the site is dead, 'assuming platform cuda, compute capability 7.0 and VLLM_ATTENTION_BACKEND unset (vLLM's default)', and status lists the assumptions in force"

"$muhpatch" status default.yaml backend --format json 2>/dev/null |
  python3 -c 'import json,sys; rows=[r for r in json.load(sys.stdin) if r["rule"]=="tuned-bm"]; assert rows and all(r["assumptions"]==["platform cuda, compute capability 7.0", "VLLM_ATTENTION_BACKEND unset (vLLM'"'"'s default)"] for r in rows), rows' ||
  fail "status --format json: each row's assumptions"
ok "status --format json lists the assumption on each dead row"

"$muhpatch" diff default.yaml backend >default.diff 2>/dev/null
grep -qE "^muhpatch: rule tuned-bm: dead(; left: .*)?$" default.diff || fail "diff: $(cat default.diff)"

"$muhpatch" status rocm.yaml backend >status.txt 2>/dev/null
grep -q "^tuned-bm .* live .*will rewrite" status.txt || fail "ROCM_FLASH: $(cat status.txt)"
grep -qx "  VLLM_ATTENTION_BACKEND=ROCM_FLASH (rule file)" status.txt || fail "ROCM_FLASH in force: $(cat status.txt)"
ok "VLLM_ATTENTION_BACKEND: ROCM_FLASH in the rule file: the site is live"

echo "VLLM_ATTENTION_BACKEND=ROCM_FLASH vllm serve /models/m --max-num-seqs 8" >serve.txt
"$muhpatch" status default.yaml backend --serve-args serve.txt >status.txt 2>/dev/null
grep -q "^tuned-bm .* live .*will rewrite" status.txt || fail "serve args: $(cat status.txt)"
grep -qx "  VLLM_ATTENTION_BACKEND=ROCM_FLASH (serve args)" status.txt || fail "serve args in force: $(cat status.txt)"
ok "VLLM_ATTENTION_BACKEND=ROCM_FLASH vllm serve ... in --serve-args: the site is live"

code=0
"$muhpatch" status unset.yaml backend --serve-args serve.txt >out 2>err || code=$?
[[ $code -eq 2 ]] || fail "a conflict: exit $code, expected 2"
grep -q "^serve.txt:1:1: error: the serving command sets VLLM_ATTENTION_BACKEND=ROCM_FLASH, but the rule file declares VLLM_ATTENTION_BACKEND unset (rule file) at unset.yaml:8:5" err ||
  fail "a conflict: $(cat err)"
ok "a serving command that contradicts the rule file: exit 2, naming both places"

code=0
"$muhpatch" verify rocm.yaml backend --patch default.diff >out 2>err || code=$?
[[ $code -eq 1 ]] || fail "verify after the flip: exit $code, expected 1"
grep -q "error: drift: rule 'tuned-bm' was 'dead' when default.diff was made and is 'rewrites' now, resting on VLLM_ATTENTION_BACKEND=ROCM_FLASH (rule file)" err ||
  fail "verify does not name the assumption: $(cat err)"
"$muhpatch" verify rocm.yaml backend --patch default.diff --format sarif >sarif.json 2>/dev/null || true
grep -q '"muhpatch-assumptions"' sarif.json || fail "verify --format sarif: no muhpatch-assumptions"
"$muhpatch" verify default.yaml backend --patch default.diff >/dev/null 2>&1 || fail "verify unchanged"
ok "verify reports the flip as drift naming the assumption (text and SARIF), and is clean without it"

rules app/kernels/amd_tuned.py "" >loader.yaml
rules app/kernels/amd_tuned.py "  dynamic-imports:
    - at: app/loader.py:load_parser
      loads: [app.parsers]" >declared.yaml
"$muhpatch" status loader.yaml loader >status.txt 2>/dev/null
grep -q "^tuned-bm .* unknown .*declaring what app/loader.py:5 loads would decide it (liveness: dynamic-imports: - at: app/loader.py:load_parser, loads: \[MODULE, ...\])" status.txt ||
  fail "an undeclared dynamic import: $(cat status.txt)"
"$muhpatch" status declared.yaml loader >status.txt 2>/dev/null
grep -q "^tuned-bm .* dead .*not imported when serving" status.txt || fail "declared: $(cat status.txt)"
ok "an undeclared import_module(var) leaves the site unknown, naming app/loader.py:5 and the declaration; declared, it is dead"

sed 's/load_parser$/load_parsr/' declared.yaml >typo.yaml
"$muhpatch" status typo.yaml loader >status.txt 2>err || true
grep -qx "typo.yaml: warning: liveness: dynamic-imports: 'at: app/loader.py:load_parsr' names no import_module or __import__ call in code that runs" err ||
  fail "a declaration that names no call: $(cat err)"
grep -q "^tuned-bm .* unknown " status.txt || fail "a declaration that names no call resolves nothing: $(cat status.txt)"
ok "a dynamic-imports entry that names no call is a warning, and resolves nothing"
