#!/usr/bin/env bash
# A kept hand-tuned value passes the same gate as the model's (issue 41):
# on a copy of the real tree, `config['BLOCK_SIZE_M'] = 12345` in the live
# medium tier is an error at its file:line naming the constraint, and the
# rule fails (diff, apply and status exit 6, verify exits 1, apply writes
# nothing); the same value in the default dict, a dead site, is a note and
# the run succeeds; a hand-tuned power of two is kept as before.
# Without the real tree the test exits 77 (CTest: skipped).
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
real=$repo/../shared/targets/enginex-vllm
if [[ ! -d $real/vllm ]]; then
  echo "skip: kept_domain: the real enginex-vllm tree is not at $real"
  exit 77
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
fail() { echo "FAIL: kept_domain: $*" >&2; exit 1; }
moe=vllm/model_executor/layers/fused_moe/fused_moe.py
cp -a "$real" pristine && chmod -R u+w pristine
cp "$repo/rules/bi100.yaml" rules.yaml
tier=$(grep -n "elif numel <= 1024:" pristine/$moe | cut -d: -f1)
tier=$((tier + 1))
dict=$(grep -n "'BLOCK_SIZE_M': 64," pristine/$moe | head -1 | cut -d: -f1)
[[ $(sed -n "${tier}p" pristine/$moe) == "        config['BLOCK_SIZE_M'] = 64" ]] || fail "the medium tier moved"

run() {  # CMD... ; sets code
  set +e
  "$muhpatch" "$@" >out 2>err
  code=$?
  set -e
}

# The live tier: an error, and the rule fails.
cp -a pristine tree
sed -i "${tier}s/= 64$/= 12345/" tree/$moe
cp -a tree edited
want="tree/$moe:$tier:34: error: rule 'fused-moe-tier-block-m' keeps '12345', a hand-tuned value its kernel does not take: 12345 is not a power of two from 16 to 256, the BLOCK_SIZE_M values the fused-MoE kernel takes; fix the value, or \`pin:\` one the kernel takes"
run diff rules.yaml tree
[[ $code -eq 6 ]] || { cat err >&2; fail "diff: exit $code, expected 6"; }
grep -qxF "$want" err || { cat err >&2; fail "diff: no located error naming the constraint"; }
grep -q "^muhpatch: 15 rules: .* 1 failed" err || { cat err >&2; fail "the summary does not count the failed rule"; }
run status rules.yaml tree
[[ $code -eq 6 ]] || fail "status: exit $code, expected 6"
run verify rules.yaml tree
[[ $code -eq 1 ]] || { cat err >&2; fail "verify: exit $code, expected 1"; }
grep -qF "$want; next: muhpatch status rules.yaml tree --rule fused-moe-tier-block-m" err ||
  { cat err >&2; fail "verify: no located error naming the constraint"; }
run apply rules.yaml tree
[[ $code -eq 6 ]] || fail "apply: exit $code, expected 6"
diff -r edited tree >/dev/null || fail "apply wrote although a rule failed"
echo "ok a kept 12345 in the live tier: an error at $moe:$tier, diff/status/apply exit 6, verify 1"

# The dead default dict: a note, and the run goes on.
rm -rf tree && cp -a pristine tree
sed -i "${dict}s/'BLOCK_SIZE_M': 64,/'BLOCK_SIZE_M': 12345,/" tree/$moe
run diff rules.yaml tree
[[ $code -eq 0 ]] || { cat err >&2; fail "diff with a dead 12345: exit $code, expected 0"; }
grep -qF "tree/$moe:$dict:" err && grep -qF "note: rule 'fused-moe-default-block-m' keeps '12345', a hand-tuned value its kernel does not take: 12345 is not a power of two from 16 to 256, the BLOCK_SIZE_M values the fused-MoE kernel takes (the site is dead on the served platform)" err ||
  { cat err >&2; fail "no note for the dead 12345"; }
echo "ok a kept 12345 in the dead default dict: a note, exit 0"

# A hand-tuned power of two is kept, as before.
rm -rf tree && cp -a pristine tree
sed -i "${tier}s/= 64$/= 128/" tree/$moe
run diff rules.yaml tree
[[ $code -eq 0 ]] || { cat err >&2; fail "diff with a kept 128: exit $code, expected 0"; }
grep -q "keeps '128', a hand-tuned value:" err || { cat err >&2; fail "128 is not kept"; }
grep -q "error" err && { cat err >&2; fail "a kept 128 is an error"; }
echo "ok a kept 128 in the live tier: kept, no error"

# A pin passes the same gate: outside the domain the rule fails, at the pin,
# unless the pin says `unchecked: REASON`, which the run then shows.
rm -rf tree && cp -a pristine tree
pin_rules() {  # UNCHECKED-LINE
  python3 - "$1" <<'PY'
import sys
text = open("rules.yaml").read()
at = text.index('    with: "{{moe_block_m_tier(@tier, @bounds)}}"\n')
end = text.index("\n", at) + 1
pin = '    pin: {value: 48, reason: "timed on lab-7"%s}\n' % sys.argv[1]
open("pinned.yaml", "w").write(text[:end] + pin + text[end:])
PY
}
pin_rules ""
pin_line=$(grep -n 'pin: {value: 48' pinned.yaml | cut -d: -f1)
want_pin="pinned.yaml:$pin_line:5: error: rule 'fused-moe-tier-block-m' pins '48', which its kernel does not take: 48 is not a power of two from 16 to 256, the BLOCK_SIZE_M values the fused-MoE kernel takes; pin a value it takes, or say why with \`unchecked: REASON\`"
run diff pinned.yaml tree
[[ $code -eq 6 ]] || { cat err >&2; fail "diff with a pin of 48: exit $code, expected 6"; }
grep -qxF "$want_pin" err || { cat err >&2; fail "no error at the pin"; }
run verify pinned.yaml tree
[[ $code -eq 1 ]] || { cat err >&2; fail "verify with a pin of 48: exit $code, expected 1"; }
run status pinned.yaml tree
[[ $code -eq 6 ]] || fail "status with a pin of 48: exit $code, expected 6"
pin_rules ', unchecked: "ixformer rounds it up"'
run diff pinned.yaml tree
[[ $code -eq 0 ]] || { cat err >&2; fail "diff with an unchecked pin: exit $code, expected 0"; }
grep -qxF "pinned.yaml:$pin_line:5: warning: rule 'fused-moe-tier-block-m' pins '48' unchecked (ixformer rounds it up): 48 is not a power of two from 16 to 256, the BLOCK_SIZE_M values the fused-MoE kernel takes" err ||
  { cat err >&2; fail "the unchecked pin is not shown"; }
grep -q "^+.*BLOCK_SIZE_M'\] = 48" out || fail "the unchecked pin is not written"
echo "ok a pin of 48: an error at the pin, diff/status exit 6, verify 1; with unchecked: written, with a warning"
