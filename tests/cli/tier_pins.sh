#!/usr/bin/env bash
# `pin:` on a `tiers:` rule takes one entry per tier, by position (issue
# 40, item 5): null leaves a tier to the model. On the fixture tree and a
# copy of the real tree, the MoE tier rule pinned [16, null, 128] writes 16
# and 128 in the first and last tier and the model's value in the middle
# one; status shows each pin's reason at its tier. A list of another length
# than the chain fails the rule at the pin (exit 6), naming both counts; a
# tier's pin outside the kernel's domain fails at that entry; a list on a
# rule without `tiers:` is bad input (exit 2).
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
source "$repo/tests/cli/lib/on_trees.sh"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
test=tier_pins
source "$repo/tests/cli/lib/run_muhpatch.sh"
moe=vllm/model_executor/layers/fused_moe/fused_moe.py

# The shipped rules with PIN (YAML lines) after the rule ID's `with:`.
with_pin() {  # OUT ID PIN
  python3 - "$repo/rules/bi100.yaml" "$@" <<'PY'
import sys, re
src, out, rule, pin = sys.argv[1:]
text = open(src).read()
at = text.index("  - id: " + rule + "\n")
w = text.index("    with: ", at)
end = text.index("\n", w) + 1
open(out, "w").write(text[:end] + pin + text[end:])
PY
}
with_pin ok.yaml fused-moe-tier-block-m '    pin:
      - {value: "16", reason: "measured on the card, run 7"}
      - null
      - {value: "128", reason: "measured on the card, run 8"}
'
with_pin short.yaml fused-moe-tier-block-m '    pin: [{value: "16", reason: "measured"}, null]
'
with_pin bad.yaml fused-moe-tier-block-m '    pin: [null, {value: "48", reason: "a guess"}, null]
'
with_pin list.yaml prefix-prefill-block '    pin: [{value: "32", reason: "measured"}]
'
pin_line=$(grep -n "^    pin:" short.yaml | cut -d: -f1)
bad_line=$(grep -n "^    pin:" bad.yaml | cut -d: -f1)
list_line=$(grep -n "^    pin:" list.yaml | cut -d: -f1)

check() {  # NAME SOURCE
  local name=$1 src=$2
  rm -rf tree && cp -a "$src" tree && chmod -R u+w tree
  local model
  run diff --rule fused-moe-tier-block-m "$repo/rules/bi100.yaml" tree
  model=$(grep "^+        config\['BLOCK_SIZE_M'\]" out | sed -n 2p)
  run diff --rule fused-moe-tier-block-m ok.yaml tree
  [[ $code -eq 0 ]] || { cat err >&2; fail "$name: diff with a pin per tier: exit $code"; }
  mapfile -t written < <(grep "^+        config\['BLOCK_SIZE_M'\]" out)
  [[ ${#written[@]} -ge 2 ]] || { cat out >&2; fail "$name: the pinned tiers are not written"; }
  [[ ${written[0]} == "+        config['BLOCK_SIZE_M'] = 16" ]] || fail "$name: tier 1 is not 16: ${written[0]}"
  [[ ${written[-1]} == "+        config['BLOCK_SIZE_M'] = 128" ]] || fail "$name: the last tier is not 128: ${written[-1]}"
  if [[ -n $model && ${#written[@]} -eq 3 ]]; then
    [[ ${written[1]} == "$model" ]] || fail "$name: the null tier is not the model's ($model): ${written[1]}"
  fi
  run status --rule fused-moe-tier-block-m ok.yaml tree
  grep -q "pinned: measured on the card, run 7" out || { cat out >&2; fail "$name: status does not show tier 1's pin"; }
  grep -q "pinned: measured on the card, run 8" out || { cat out >&2; fail "$name: status does not show the last tier's pin"; }
  local if_line
  if_line=$(grep -n "^    if numel <= " tree/$moe | head -1 | cut -d: -f1)
  run diff short.yaml tree
  [[ $code -eq 6 ]] || { cat err >&2; fail "$name: a short pin list: exit $code, expected 6"; }
  grep -qF "short.yaml:$pin_line:5: error: rule 'fused-moe-tier-block-m' pins 2 tiers, but the chain at $moe:$if_line has 3: give one entry per tier, by position (null where the model decides)" err ||
    { cat err >&2; fail "$name: no error naming both counts"; }
  run diff bad.yaml tree
  [[ $code -eq 6 ]] || { cat err >&2; fail "$name: a tier pinned outside the domain: exit $code, expected 6"; }
  grep -qF "bad.yaml:$bad_line:17: error: rule 'fused-moe-tier-block-m' pins '48', which its kernel does not take: 48 is not a power of two from 16 to 256" err ||
    { cat err >&2; fail "$name: no error at the tier's pin"; }
  run diff list.yaml tree
  [[ $code -eq 2 ]] || { cat err >&2; fail "$name: a pin list without tiers: exit $code, expected 2"; }
  grep -qF "list.yaml:$list_line:5: error: a list of pins goes with 'tiers' (one entry per tier, by position); pin one value with {value: V, reason: \"why\"}" err ||
    { cat err >&2; fail "$name: no located error for a pin list without tiers"; }
  echo "ok $name: one pin per tier by position; wrong length, outside the domain, no tiers: refused"
}
on_trees check
