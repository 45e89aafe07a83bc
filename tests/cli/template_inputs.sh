#!/usr/bin/env bash
# Hardware facts and workload quantities in templates (issue 40, item 5):
# `{{fact.NAME}}` and `{{workload.NAME}}`. On a copy of the fixture tree and
# of the real tree (when ../shared has it):
# - `{{workload.max_num_seqs}}` writes the rule file's workload entry, and
#   follows it when it changes;
# - `{{fact.smem_per_block}}` writes the profile's fact: at value with the
#   built-in 32 KiB, 49152 under --set (its --explain names the source),
#   and a second diff after apply is empty;
# - a value that reaches the kernel still passes the input's domain: a pin
#   of 1000 and a hand-edited 1000 each fail the rule (exit 6) naming the
#   fact's, and a template that makes 0 of max_num_seqs has no value;
# - an unknown fact is an error at the name listing the facts, and a
#   template that mixes an input with a model quantity is refused (exit 2,
#   tree untouched).
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "FAIL: template_inputs: $*" >&2; exit 1; }
# shellcheck source=lib/scratch_tree.sh
source "$repo/tests/cli/lib/scratch_tree.sh"

cat >inputs.yaml <<'EOF'
version: 1
workload:
  max_num_seqs: 64
rules:
  - id: graph-capture-batches
    description: capture CUDA graphs up to the served max_num_seqs
    files: vllm/worker/model_runner.py
    inside: _BATCH_SIZES_TO_CAPTURE = $$$
    pattern: range(1, $value)
    replace: value
    with: "{{workload.max_num_seqs}} // 8 + 1"   # _BATCH_SIZE_ALIGNMENT is 8
  - id: smem-fact
    description: the limit the function reports is the card's fact
    files: vllm/_custom_ops.py
    inside: |
      def get_max_shared_memory_per_block_device_attribute($$$):
          $$$
    pattern: return $value
    replace: value
    with: "{{fact.smem_per_block}}"
    upstream: "32 * 1024"
EOF
ops=vllm/_custom_ops.py

expect_code() {  # WANT NAME COMMAND...: runs COMMAND, stderr in ./err
  local want=$1 name=$2 code=0
  shift 2
  "$@" >out 2>err || code=$?
  [[ $code -eq $want ]] || { cat err >&2; fail "$name: exited $code, expected $want"; }
}

check() {
  local name=$1 source=$2
  copy_tree "$source"
  expect_code 0 "$name: diff" "$muhpatch" diff inputs.yaml t
  grep -qE "^muhpatch: rule smem-fact: at value(; left: .*)?$" out || fail "$name: the built-in fact is not at value"
  grep -qE $'^\\+.* for i in range\\(1, 64 // 8 \\+ 1\\)\r?$' out ||
    { cat out >&2; fail "$name: the workload's max_num_seqs is not written"; }
  sed 's/^  max_num_seqs: 64$/  max_num_seqs: 512/' inputs.yaml >more.yaml
  expect_code 0 "$name: diff (512)" "$muhpatch" -q diff more.yaml t
  grep -qE $'^\\+.*range\\(1, 512 // 8 \\+ 1\\)\r?$' out ||
    fail "$name: the value does not follow the workload"

  expect_code 0 "$name: diff --set" "$muhpatch" diff inputs.yaml t --set smem_per_block=49152 --explain
  grep -qE $'^\\+    return 49152\r?$' out || { cat out >&2; fail "$name: --set smem_per_block is not written"; }
  grep -qx '    fact.smem_per_block = 49152' err || { cat err >&2; fail "$name: --explain does not derive the fact"; }
  grep -q 'decided by: given by --hw or --set' err || fail "$name: --explain does not name the fact's source"
  expect_code 0 "$name: apply" "$muhpatch" -q apply inputs.yaml t --set smem_per_block=49152
  expect_code 0 "$name: diff after apply" "$muhpatch" -q diff inputs.yaml t --set smem_per_block=49152
  [[ ! -s out ]] || { cat out >&2; fail "$name: a second diff is not empty"; }

  # The fact's domain still guards the kernel.
  copy_tree "$source"
  sed 's/^    upstream: "32 \* 1024"$/&\n    pin: {value: "1000", reason: "a slip"}/' inputs.yaml >pin.yaml
  local at
  at=$(grep -n '^    pin:' pin.yaml | cut -d: -f1)
  expect_code 6 "$name: pin 1000" "$muhpatch" -q diff pin.yaml t
  grep -qF "pin.yaml:$at:5: error: rule 'smem-fact' pins '1000', which its kernel does not take: 1000 is no card's smem_per_block: it must be a multiple of 1024 from 16384 to 1048576 bytes" err ||
    { cat err >&2; fail "$name: a pin outside the fact's domain is not refused"; }
  local line
  line=$(grep -nE $'^    return 32 \\* 1024\r?$' "t/$ops" | cut -d: -f1)
  [[ -n $line ]] || fail "$name: no 'return 32 * 1024' in $ops"
  sed -i "${line}s/return 32 \\* 1024/return 1000/" "t/$ops"
  expect_code 6 "$name: hand-edited 1000" "$muhpatch" -q diff inputs.yaml t
  grep -qF "t/$ops:$line:12: error: rule 'smem-fact' keeps '1000', a hand-tuned value that fails its kernel's check: 1000 is no card's smem_per_block" err ||
    { cat err >&2; fail "$name: a hand-edited value outside the fact's domain is not refused"; }

  # What a template makes of an input stays in the input's domain: with 4
  # sequences, `// 8` makes 0, and the rule has no value there.
  copy_tree "$source"
  sed -e 's/^  max_num_seqs: 64$/  max_num_seqs: 4/' -e 's|{{workload.max_num_seqs}} // 8 + 1|{{workload.max_num_seqs}} // 8|' \
    inputs.yaml >zero.yaml
  expect_code 0 "$name: // 8 of 4" "$muhpatch" -v diff zero.yaml t --rule graph-capture-batches
  grep -q "rule 'graph-capture-batches' skipped: the model has no valid value: value 'workload.max_num_seqs': the template makes '4 // 8' of it: 0 is no workload's max_num_seqs" err ||
    { cat err >&2; fail "$name: a value outside the input's domain is offered"; }
  [[ ! -s out ]] || { cat out >&2; fail "$name: a value outside the input's domain is written"; }

  # Unknown and mixed names: exit 2, located, the tree untouched.
  copy_tree "$source"
  cp -r t before
  sed 's/{{fact.smem_per_block}}/{{fact.smem_per_blok}}/' inputs.yaml >typo.yaml
  at=$(grep -n 'fact.smem_per_blok' typo.yaml | cut -d: -f1)
  expect_code 2 "$name: unknown fact" "$muhpatch" apply typo.yaml t
  grep -qF "typo.yaml:$at:12: error: unknown hardware fact 'fact.smem_per_blok' (did you mean 'fact.smem_per_block'?) (facts: fact.clock_mhz, fact.compute_capability, " err ||
    { cat err >&2; fail "$name: the unknown fact is not located with the facts"; }
  sed 's/{{fact.smem_per_block}}/{{fact.smem_per_block}} + {{smem_limit_bytes}}/' inputs.yaml >mixed.yaml
  expect_code 2 "$name: mixed" "$muhpatch" apply mixed.yaml t
  grep -qF "error: 'fact.smem_per_block' and 'smem_limit_bytes' in one template" err ||
    { cat err >&2; fail "$name: a template mixing an input and a quantity is not refused"; }
  diff -r before t >/dev/null || fail "$name: a refused rule file changed the tree"
  rm -rf before
  echo "ok $name: facts and workload quantities are written, follow their inputs, and keep the fact's domain"
}

# shellcheck source=lib/on_trees.sh
source "$repo/tests/cli/lib/on_trees.sh"
on_trees check
