#!/usr/bin/env bash
# The maintainers' values win over the model's guesses (issue 25), on a copy
# of the real enginex-vllm tree (../shared/targets/enginex-vllm, read-only)
# with the fork's own kinds of hand edit:
#   - the shared-memory limit set to `return 49152` (a later fork commit);
#   - the medium MoE tier changed by hand from 64 to 128.
# Checked:
#   1. `diff` keeps both: the tier with a located note, the smem limit as
#      the tree's own fact (issue 41: the model derives from it, so its rule
#      is at value); no hunk touches either line, and `verify --patch`
#      agrees with the patch it wrote, on the pristine copy and after
#      `apply`; `status` calls the tier hand-tuned and shows the smem
#      limit at the model's 48 * 1024, and the markdown summary has a line
#      for the tier;
#   2. `diff --retune` overwrites the tier, with the warning, and leaves the
#      tree's smem fact (--include-dead: its site is dead code);
#   3. a value muhpatch wrote (apply with --set smem_per_block=65536) is the
#      tree's fact to a later run without the --set, with or without
#      `--patch`: the rule is at value and --explain quotes the tree;
#   4. a pin accepts the hand-tuned tier, and diff, status, verify and
#      --explain show it.
# Only outcomes are asserted (exit codes, rule ids, line numbers, values the
# rules write); no line of the tree is written outside the scratch folder.
# Without the real tree the test exits 77 (CTest: skipped).
#
# Usage: hand_tuning.sh MUHPATCH
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
real=$repo/../shared/targets/enginex-vllm
if [[ ! -d $real/vllm ]]; then
  echo "skip: hand_tuning: the real enginex-vllm tree is not at $real"
  exit 77
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
fail() { echo "FAIL hand_tuning: $*" >&2; exit 1; }
ok() { echo "ok $*"; }

smem=vllm/_custom_ops.py
moe=vllm/model_executor/layers/fused_moe/fused_moe.py
cp -a "$real" pristine && chmod -R u+w pristine
cp "$repo/rules/bi100.yaml" rules.yaml
# shellcheck source=tests/cli/lib/without_capability_rules.sh
. "$repo/tests/cli/lib/without_capability_rules.sh"
without_capability_rules rules.yaml
# The two hand edits, on a copy; each changes exactly one line.
cp -a pristine tree
python3 - tree <<'PY' || fail "could not make the hand edits"
import pathlib, re, sys
root = pathlib.Path(sys.argv[1])
p = root / "vllm/_custom_ops.py"
data = p.read_bytes()
head = data.index(b"def get_max_shared_memory_per_block_device_attribute")
at = data.index(b"return 32 * 1024", head)
p.write_bytes(data[:at] + b"return 49152" + data[at + len(b"return 32 * 1024"):])
p = root / "vllm/model_executor/layers/fused_moe/fused_moe.py"
lines = p.read_bytes().split(b"\n")
i = next(k for k, l in enumerate(lines) if l.strip() == b"elif numel <= 1024:")
assert lines[i + 1].strip() == b"config['BLOCK_SIZE_M'] = 64", "the medium tier is not 64"
lines[i + 1] = lines[i + 1].replace(b"= 64", b"= 128")
p.write_bytes(b"\n".join(lines))
PY
[[ $(diff pristine/$smem tree/$smem | grep -c '^[<>]') -eq 2 &&
   $(diff pristine/$moe tree/$moe | grep -c '^[<>]') -eq 2 ]] || fail "a hand edit changed more than its line"
smem_line=$(grep -n "return 49152" tree/$smem | cut -d: -f1)
moe_line=$(grep -n "config\['BLOCK_SIZE_M'\] = 128" tree/$moe | cut -d: -f1)
cp -a tree edited

# === 1. kept by default, and said so =======================================
"$muhpatch" diff rules.yaml tree >kept.diff 2>kept.err || fail "diff exited $? (stderr: $(cat kept.err))"
grep -q "rule 'custom-ops-smem-limit' keeps" kept.err &&
  { cat kept.err >&2; fail "the tree's smem limit is called hand-tuned"; }
grep -qF "tree/$moe:$moe_line:34: note: rule 'fused-moe-tier-block-m' keeps '128', a hand-tuned value: neither upstream's '64' nor the model's" kept.err ||
  { cat kept.err >&2; fail "no located note for the kept MoE tier"; }
grep -q "warning" kept.err && { cat kept.err >&2; fail "diff warns although it overwrites nothing"; }
# (The smem limit's one site is unknown on the served platform, its module
# taking globals(), and holds the model's value: the rule's state is "at
# value". The tier family rewrites its other tiers around the kept one.)
grep -qE "^muhpatch: rule custom-ops-smem-limit: at value(; left: .*)?$" kept.diff &&
  grep -qE "^muhpatch: rule fused-moe-tier-block-m: rewrites(; left: .*)?$" kept.diff ||
  fail "the patch's preamble does not record the rules' states"
grep -q "^[-+] *return 49152" kept.diff && fail "the patch touches the kept smem limit"
# (The large tier is rewritten to 128 too: the kept line is checked by place.)
rm -rf applied && cp -a edited applied && (cd applied && patch -p1 -s <../kept.diff) || fail "the patch does not apply"
[[ $(sed -n "${moe_line}p" applied/$moe) == "        config['BLOCK_SIZE_M'] = 128" ]] || fail "the patch touches the kept MoE tier"
grep -q "^+++ b/$moe" kept.diff || fail "the patch no longer rewrites the other MoE sites"
diff -r edited tree >/dev/null || fail "diff modified the tree"
ok "1. diff keeps 49152 (line $smem_line, the tree's fact) and the tier's 128 (line $moe_line, with a note)"

set +e
"$muhpatch" verify rules.yaml tree --patch kept.diff >verify.out 2>verify.err
code=$?
set -e
[[ $code -eq 0 ]] || { cat verify.err >&2; fail "verify --patch kept.diff on the edited tree: exit $code"; }
tail -n 1 verify.err | grep -q "^verify: clean: kept.diff matches the rules" || { cat verify.err >&2; fail "verify is not clean"; }
ok "1. verify --patch agrees with the patch diff wrote (pristine copy)"

"$muhpatch" status rules.yaml tree >status.txt 2>/dev/null || fail "status failed"
grep -qE "^custom-ops-smem-limit +$smem:$smem_line +49152 +48 \* 1024 +unknown +at value: " status.txt &&
  grep -qE "^fused-moe-tier-block-m +$moe:$moe_line +128 +[0-9]+ +[a-z-]+ +hand-tuned" status.txt ||
  { cat status.txt >&2; fail "status does not show the smem fact at value and the tier hand-tuned"; }
"$muhpatch" diff --format markdown rules.yaml tree >summary.md 2>/dev/null || fail "diff --format markdown failed"
[[ $(grep -c "kept a hand-tuned value" summary.md) -eq 1 ]] || { cat summary.md >&2; fail "the markdown summary lacks the line for the kept tier"; }
grep -qF -- "- \`fused-moe-tier-block-m\` kept a hand-tuned value at \`$moe:$moe_line\`: \`128\`" summary.md ||
  { cat summary.md >&2; fail "the summary line does not name the tier"; }
ok "1. status calls the tier hand-tuned and the smem limit at value; the markdown summary names the tier"

"$muhpatch" apply rules.yaml tree 2>/dev/null || fail "apply failed"
grep -q "return 49152" tree/$smem && grep -q "config\['BLOCK_SIZE_M'\] = 128" tree/$moe || fail "apply overwrote a kept value"
"$muhpatch" verify rules.yaml tree --patch kept.diff >/dev/null 2>verify.err ||
  { cat verify.err >&2; fail "verify --patch kept.diff after apply: exit $?"; }
"$muhpatch" verify rules.yaml tree >/dev/null 2>verify.err || { cat verify.err >&2; fail "verify after apply: exit $?"; }
ok "1. after apply both values are still there, and verify (with and without --patch) is clean"

# === 2. --retune overwrites, with the warning ==============================
rm -rf tree && cp -a edited tree
# (--include-dead: the smem limit's site is dead code, left alone otherwise.)
"$muhpatch" diff --retune --include-dead rules.yaml tree >retune.diff 2>retune.err || fail "diff --retune failed"
grep -qF "warning: rule 'fused-moe-tier-block-m' replaces '128'" retune.err ||
  { cat retune.err >&2; fail "diff --retune does not warn about the tier"; }
grep -q "custom-ops-smem-limit' replaces" retune.err && fail "diff --retune overwrites the tree's smem fact"
rm -rf applied && cp -a edited applied && (cd applied && patch -p1 -s <../retune.diff) || fail "the --retune patch does not apply"
[[ $(sed -n "${moe_line}p" applied/$moe) != "        config['BLOCK_SIZE_M'] = 128" ]] || fail "diff --retune does not rewrite the tier"
grep -q "^-    return 49152" retune.diff && fail "diff --retune rewrites the tree's smem fact"
ok "2. diff --retune overwrites the tier, with a warning, and leaves the tree's smem fact"

# === 3. --patch: a value muhpatch wrote is its own ==========================
# (--include-dead throughout: the smem limit's site is dead code.)
rm -rf tree && cp -a pristine tree
"$muhpatch" diff --include-dead --set smem_per_block=65536 rules.yaml tree >ov.diff 2>/dev/null || fail "diff --set failed"
"$muhpatch" apply --include-dead --set smem_per_block=65536 rules.yaml tree 2>/dev/null || fail "apply --set failed"
written=$(sed -n "s/^+    return \(.* \* 1024\)$/\1/p" ov.diff | head -1)
[[ -n $written && $written != "32 * 1024" ]] || fail "the --set did not change the smem limit"
"$muhpatch" diff --include-dead rules.yaml tree >again.diff 2>again.err || fail "diff after apply --set failed"
grep -q "hand-tuned" again.err && { cat again.err >&2; fail "the value written under --set is called hand-tuned"; }
[[ ! -s again.diff ]] || { cat again.diff >&2; fail "a run without --set rewrites the tree's own smem value"; }
"$muhpatch" diff --include-dead --patch ov.diff rules.yaml tree >ours.diff 2>ours.err || fail "diff --patch failed"
[[ ! -s ours.diff ]] || { cat ours.diff >&2; fail "diff --patch rewrites the tree's own smem value"; }
smem_at=$(grep -nF "return $written" tree/$smem | cut -d: -f1)
"$muhpatch" model rules.yaml --tree tree --explain >ours.model 2>/dev/null || fail "model --tree failed"
grep -qF "smem_per_block = 65536 bytes (claimed, unconfirmed; the tree's value: $smem:$smem_at: \`return $written\`" ours.model ||
  { grep smem_per_block ours.model >&2; fail "--explain does not quote the tree's value"; }
ok "3. '$written' written under --set is the tree's fact afterwards, quoted at $smem:$smem_at"

# === 4. a pin accepts the hand-tuned tier ==================================
rm -rf tree && cp -a edited tree
python3 - rules.yaml pinned.yaml <<'PY' || fail "could not pin the tier"
import sys
text = open(sys.argv[1]).read()
# The tier family pins all its tiers at once: here each tier has a rule of
# its own in the family's place, and the medium tier's is pinned.
at = text.index("  - id: fused-moe-tier-block-m\n")
end = text.index("\n  # ---", at) + 1
rule = """  - id: fused-moe-tier-small
    files: vllm/model_executor/layers/fused_moe/fused_moe.py
    pattern: |
      if numel <= $bound:
          config['BLOCK_SIZE_M'] = $value
    where:
      bound: {regex: '^[0-9]+$'}
    replace: value
    with: "{{moe_block_m_for_numel(@bound)}}"
    upstream: "32"

  - id: fused-moe-tier-medium
    files: vllm/model_executor/layers/fused_moe/fused_moe.py
    pattern: |
      if $_:
          $$$
      elif numel <= $bound:
          config['BLOCK_SIZE_M'] = $value
    where:
      bound: {regex: '^[0-9]+$'}
    replace: value
    with: "{{moe_block_m_for_numel(@bound)}}"
    upstream: "64"
    pin: {value: 128, reason: "the maintainers timed 128 fastest"}

  - id: fused-moe-tier-large
    files: vllm/model_executor/layers/fused_moe/fused_moe.py
    pattern: |
      if numel <= $_:
          $$$
      else:
          config['BLOCK_SIZE_M'] = $value
    replace: value
    with: "{{moe_block_m_large_tier}}"
    upstream: "256"

"""
open(sys.argv[2], "w").write(text[:at] + rule + text[end:])
PY
"$muhpatch" diff --explain pinned.yaml tree >pinned.diff 2>pinned.err || fail "diff with the pin failed"
grep -qF "tree/$moe:$moe_line:34: note: rule 'fused-moe-tier-medium': pinned to '128': the maintainers timed 128 fastest (the model's own value: " pinned.err ||
  { cat pinned.err >&2; fail "--explain does not show the pin"; }
grep -q "rule 'fused-moe-tier-medium' keeps" pinned.err && fail "a pinned value is still called hand-tuned"
grep -qE "^muhpatch: rule fused-moe-tier-medium: at value(; left: .*)?$" pinned.diff || fail "the pinned rule is not at its value"
"$muhpatch" status pinned.yaml tree >pinned.status 2>/dev/null || fail "status with the pin failed"
grep -qE "^fused-moe-tier-medium +$moe:$moe_line +128 +128 +[a-z-]+ +at value: pinned: the maintainers timed 128 fastest \(the model's own: [0-9]+\)$" pinned.status ||
  { cat pinned.status >&2; fail "status does not show the pin"; }
"$muhpatch" verify pinned.yaml tree --patch pinned.diff >/dev/null 2>verify.err || { cat verify.err >&2; fail "verify with the pin: exit $?"; }
# The pin on the pristine tree: written, and verify names the pin on drift.
rm -rf tree && cp -a pristine tree
"$muhpatch" diff pinned.yaml tree >pin_pristine.diff 2>/dev/null || fail "diff with the pin on the pristine tree failed"
rm -rf applied && cp -a pristine applied && (cd applied && patch -p1 -s <../pin_pristine.diff) || fail "the pinned patch does not apply"
[[ $(sed -n "${moe_line}p" applied/$moe) == "        config['BLOCK_SIZE_M'] = 128" ]] || fail "the pin is not written over upstream's value"
set +e
"$muhpatch" verify pinned.yaml tree >/dev/null 2>verify.err
code=$?
set -e
[[ $code -eq 1 ]] && grep -qF "error: drift: rule 'fused-moe-tier-medium' finds '64' where it pins '128' (the maintainers timed 128 fastest)" verify.err ||
  { cat verify.err >&2; fail "verify does not name the pin (exit $code)"; }
ok "4. a pin keeps the tier's 128 with its reason in diff --explain, status and verify; written over upstream's 64"
