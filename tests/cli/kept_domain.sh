#!/usr/bin/env bash
# A kept hand-tuned value passes the same gate as the model's (issue 41):
# on a copy of the real tree, `config['BLOCK_SIZE_M'] = 12345` in the live
# medium tier is an error at its file:line naming the constraint, and the
# rule fails (diff, apply and status exit 6, verify exits 1, apply writes
# nothing); the same value in the default dict, a dead site, is a note and
# the run succeeds; a hand-tuned power of two is kept as before. A hardware
# fact meets one domain whoever gives it: the tree's shared-memory limit
# outside it fails its rule at its site; --set and --hw refuse it (exit 2).
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
test=kept_domain
source "$repo/tests/cli/lib/run_muhpatch.sh"
moe=vllm/model_executor/layers/fused_moe/fused_moe.py
cp -a "$real" pristine && chmod -R u+w pristine
cp "$repo/rules/bi100.yaml" rules.yaml
tier=$(grep -n "elif numel <= 1024:" pristine/$moe | cut -d: -f1)
tier=$((tier + 1))
dict=$(grep -n "'BLOCK_SIZE_M': 64," pristine/$moe | head -1 | cut -d: -f1)
[[ $(sed -n "${tier}p" pristine/$moe) == "        config['BLOCK_SIZE_M'] = 64" ]] || fail "the medium tier moved"


# The live tier: an error, and the rule fails.
cp -a pristine tree
sed -i "${tier}s/= 64$/= 12345/" tree/$moe
cp -a tree edited
want="tree/$moe:$tier:34: error: rule 'fused-moe-tier-block-m' keeps '12345', a hand-tuned value that fails its kernel's check: 12345 is not a power of two from 16 to 256, the BLOCK_SIZE_M values the fused-MoE kernel takes; fix the value, or \`pin:\` one the kernel takes"
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
grep -qF "tree/$moe:$dict:" err && grep -qF "note: rule 'fused-moe-default-block-m' keeps '12345', a hand-tuned value that fails its kernel's check: 12345 is not a power of two from 16 to 256, the BLOCK_SIZE_M values the fused-MoE kernel takes (the site is dead on the served platform)" err ||
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

# A fact meets one domain, whoever gives it. The tree's shared-memory limit
# is the model's fact only inside smem_per_block's domain: 16 MiB (a KiB
# count taken for bytes) is kept by no derivation, and its site is an error
# as any kept value outside its domain; --set and a profile file with such a
# value are bad input (exit 2), the tree untouched. On the miniature tree,
# where the function is live (on the real tree it is dead: a note).
ops=vllm/_custom_ops.py
rm -rf tree pristine && cp -a "$repo/fixtures/enginex-vllm" pristine && cp -a pristine tree
ret=$(grep -n "^    return 32 \* 1024" tree/$ops | cut -d: -f1)
[[ -n $ret ]] || fail "the shared-memory function's return moved"
sed -i "${ret}s/32 \* 1024/16384 * 1024/" tree/$ops
rm -rf edited && cp -a tree edited
domain="it must be a multiple of 1024 from 16384 to 1048576 bytes (whole KiB: the limit every card reports)"
run diff rules.yaml tree
[[ $code -eq 6 ]] || { cat err >&2; fail "diff with a 16 MiB limit: exit $code, expected 6"; }
grep -qxF "tree/$ops:$ret:12: error: rule 'custom-ops-smem-limit' keeps '16384 * 1024', a hand-tuned value that fails its kernel's check: a shared-memory limit of 16777216 bytes is no card's: $domain; fix the value, or \`pin:\` one the kernel takes" err ||
  { cat err >&2; fail "no located error for the 16 MiB limit"; }
run verify rules.yaml tree
[[ $code -eq 1 ]] || { cat err >&2; fail "verify with a 16 MiB limit: exit $code, expected 1"; }
run apply rules.yaml tree
{ [[ $code -eq 6 ]] && diff -r edited tree >/dev/null; } || fail "apply with a 16 MiB limit: exit $code, or it wrote"
# The derivations do not rest on it: the limit they use is the default.
"$muhpatch" model rules.yaml --explain 2>/dev/null | grep -q "smem_per_block = 32768 bytes" ||
  fail "the model does not show the default limit"
run diff rules.yaml pristine --set smem_per_block=16777216
[[ $code -eq 2 && $(cat err) == "--set: error: smem_per_block = 16777216 is no card's: $domain" ]] ||
  { cat err >&2; fail "--set smem_per_block=16777216: exit $code"; }
printf 'profile: typo\nfacts:\n  smem_per_block: {value: 48, source: "KiB, not bytes"}\n' >card.yaml
run diff rules.yaml pristine --hw card.yaml
{ [[ $code -eq 2 ]] && grep -qxF "card.yaml:3:3: error: smem_per_block = 48 is no card's: $domain" err; } ||
  { cat err >&2; fail "--hw with smem_per_block 48: exit $code"; }
echo "ok a fact outside its domain: from the tree an error at its site (exit 6, verify 1), from --set or --hw exit 2"
