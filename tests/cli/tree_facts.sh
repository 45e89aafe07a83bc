#!/usr/bin/env bash
# The tree's facts are facts: the shared-memory limit that
# get_max_shared_memory_per_block_device_attribute returns (kept by hand, or
# pinned on its rule) feeds every derivation, and --explain quotes it at its
# file:line. --set and --hw win over it, it wins over the built-in default,
# and each explanation lists the sources it passed over. No explanation
# says the tree reports a value that it does not.
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: tree_facts: $*" >&2; exit 1; }
cd "$scratch"
cp -r "$repo/fixtures/enginex-vllm" tree
cp "$repo/rules/bi100.yaml" rules.yaml
ops=tree/vllm/_custom_ops.py
line=$(grep -n 'return 32 \* 1024' "$ops" | cut -d: -f1)
[[ -n $line ]] || fail "the fixture's smem function moved"

# The pristine fixture states 32 * 1024: the same value, now quoted.
"$muhpatch" model rules.yaml --tree tree --explain >model.txt 2>/dev/null || fail "model exited $?"
grep -qF "input: smem_per_block = 32768 bytes (claimed, unconfirmed; the tree's value: vllm/_custom_ops.py:$line: \`return 32 * 1024\`; passed over: 32768 (the built-in default, the value that cannot break a kernel))" model.txt ||
  fail "the tree's 32 * 1024 is not quoted at its line"
! grep -q "what the fork's _custom_ops.py reports" model.txt || fail "an explanation still claims what the tree reports"
echo "ok the tree's 32 * 1024 is quoted at vllm/_custom_ops.py:$line"

# A hand-kept 49152: every derivation uses it.
"$muhpatch" model rules.yaml --explain >builtin.txt 2>/dev/null
sed -i "${line}s/return 32 \* 1024/return 49152/" "$ops"
"$muhpatch" model rules.yaml --tree tree --explain >model.txt 2>/dev/null || fail "model exited $?"
grep -qx "  smem_limit_bytes = 49152" model.txt || fail "smem_limit_bytes is not the tree's 49152"
grep -qF "the tree's value: vllm/_custom_ops.py:$line: \`return 49152\`" model.txt || fail "49152 is not quoted"
grep -qx "  smem_limit_bytes = 32768" builtin.txt || fail "without a tree the built-in default is not used"
"$muhpatch" model rules.yaml --set smem_per_block=49152 >set.txt 2>/dev/null
values() { sed -n '/^values/,/^$/p' "$1" | grep ' = ' | sed 's/  (rests on unconfirmed facts)$//'; }
"$muhpatch" model rules.yaml --tree tree >tree.txt 2>/dev/null
diff <(values set.txt) <(values tree.txt) >/dev/null ||
  fail "the tree's 49152 derives other values than --set smem_per_block=49152"
"$muhpatch" diff rules.yaml tree --rule custom-ops-smem-limit >smem.diff 2>err || fail "diff exited $?"
[[ ! -s smem.diff ]] || fail "the smem rule rewrites the tree's own value: $(cat smem.diff)"
echo "ok a hand-kept 49152 feeds the derivations, and its rule leaves it"

# --set wins, passing over the tree's value and the built-in default.
"$muhpatch" model rules.yaml --tree tree --explain --set smem_per_block=40960 >model.txt 2>/dev/null
grep -qF "input: smem_per_block = 40960 bytes (measured; --set on the command line; passed over: 32768 (the built-in default, the value that cannot break a kernel); 49152 (the tree's value: vllm/_custom_ops.py:$line: \`return 49152\`))" model.txt ||
  fail "--set does not list what it passed over"
# --hw wins over the tree too.
printf 'profile: lab\nfacts:\n  smem_per_block: {value: 65536, source: "lab-7"}\n' >lab.yaml
"$muhpatch" model rules.yaml --tree tree --explain --hw lab.yaml >model.txt 2>/dev/null
grep -qx "  smem_limit_bytes = 65536" model.txt || fail "--hw does not win over the tree"
grep -qF "65536 bytes (measured; lab-7; passed over: 32768 (the built-in default, the value that cannot break a kernel); 49152 (the tree's value" model.txt ||
  fail "--hw does not list what it passed over"
echo "ok --set and --hw win, listing the tree's value and the default they passed over"

# A pin holds the value the tree will have.
sed -i "${line}s/return 49152/return 32 * 1024/" "$ops"
python3 - <<'PY'
import re
text = open("rules.yaml").read()
text = text.replace('    with: "{{smem_limit_kib}} * 1024"\n',
                    '    with: "{{smem_limit_kib}} * 1024"\n'
                    '    pin: {value: "48 * 1024", reason: "ixsmi on lab-7"}\n', 1)
open("rules.yaml", "w").write(text)
PY
pin=$(grep -n 'pin: {value: "48 \* 1024"' rules.yaml | cut -d: -f1)
"$muhpatch" model rules.yaml --tree tree --explain >model.txt 2>/dev/null || fail "model exited $?"
grep -qx "  smem_limit_bytes = 49152" model.txt || fail "the pin's 48 * 1024 does not feed the model"
grep -qF "the tree's value: rules.yaml:$pin: \`pin: 48 * 1024 (ixsmi on lab-7)\`" model.txt ||
  fail "the pin is not quoted at its line"
echo "ok a pin on the smem rule holds the tree's value"
