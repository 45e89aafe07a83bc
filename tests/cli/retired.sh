#!/usr/bin/env bash
# `retired:` (issue 40, item 5): at a later state of the fork the v1
# heuristic's `max_seq_len <= 8192` term is gone (`use_v1 =
# (max_num_partitions == 1)`). With `retired:` on its rule, diff and verify
# say "retired" in the summary and -v gives the note with the reason, exit 0. The knob back in the tree is
# drift: verify exits 1 with an error at the knob that names the rule and
# the reason. A retired rule without a reason is bad input (exit 2).
# Checked on the fixture tree and on a copy of the real tree.
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
source "$repo/tests/cli/lib/on_trees.sh"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
test=retired
source "$repo/tests/cli/lib/run_muhpatch.sh"
paged=vllm/attention/ops/paged_attn.py

# The rules with the context-length rule retired (or its reason left out).
retire() {  # OUT [no-reason]
  python3 - "$repo/rules/bi100.yaml" "$1" "${2:-}" <<'PY'
import sys
text = open(sys.argv[1]).read()
anchor = '    with: "{{v1_max_context}}"\n    upstream: "8192"\n'
assert anchor in text
reason = '' if sys.argv[3] else '      reason: "upstream picks v1 by the partition count alone"\n'
text = text.replace(anchor, anchor + '    retired:\n' + reason +
                    '      replaced-by: "use_v1 = (max_num_partitions == 1)"\n')
open(sys.argv[2], 'w').write(text)
PY
}
retire retired.yaml
retire no_reason.yaml no-reason

check() {  # NAME SOURCE
  local name=$1 src=$2
  rm -rf pristine later && cp -a "$src" pristine && chmod -R u+w pristine
  cp -a pristine later
  python3 - later/$paged <<'PY'
import re, sys
path = sys.argv[1]
text = open(path, newline='').read()
text, n = re.subn(r"use_v1 = \(max_seq_len <= 8192\s*and \(max_num_partitions == 1 or "
                  r"num_seqs \* num_heads > 512\)\)", "use_v1 = (max_num_partitions == 1)", text)
assert n == 1, n
open(path, 'w', newline='').write(text)
PY
  run diff retired.yaml later
  [[ $code -eq 0 ]] || { cat err >&2; fail "$name: diff with the rule retired: exit $code, expected 0"; }
  grep -qx "muhpatch: rule paged-attn-v1-max-context: retired" out || fail "$name: no 'retired' status line"
  grep -q "^muhpatch: 15 rules: .*, 1 retired;" err || { cat err >&2; fail "$name: the summary does not count it"; }
  cp out later.diff
  run diff -v retired.yaml later
  grep -qF "retired.yaml:$(grep -n '^    retired:$' retired.yaml | cut -d: -f1):5: note: rule 'paged-attn-v1-max-context' retired: upstream picks v1 by the partition count alone; replaced by: use_v1 = (max_num_partitions == 1)" err ||
    { cat err >&2; fail "$name: -v gives no note with the reason"; }
  run verify --patch later.diff retired.yaml later
  [[ $code -eq 0 ]] || { cat err >&2; fail "$name: verify of the later state: exit $code, expected 0"; }
  grep -q "^verify: clean: .*1 retired" err || { cat err >&2; fail "$name: verify does not say it is retired"; }
  # The knob comes back: drift, named at the knob.
  run verify --patch later.diff retired.yaml pristine
  [[ $code -eq 1 ]] || { cat err >&2; fail "$name: the knob back: verify exit $code, expected 1"; }
  local line
  line=$(grep -n "use_v1 = (max_seq_len <= 8192" pristine/$paged | cut -d: -f1)
  grep -qF "pristine/$paged:$line:34: error: rule 'paged-attn-v1-max-context' is retired (upstream picks v1 by the partition count alone; replaced by: use_v1 = (max_num_partitions == 1)), but its knob is back here: \`8192\`; drop 'retired:' from the rule to manage it again" err ||
    { cat err >&2; fail "$name: no located error for the knob back"; }
  run diff no_reason.yaml later
  [[ $code -eq 2 ]] || fail "$name: a retired rule without a reason: exit $code, expected 2"
  grep -qF "no_reason.yaml:$(($(grep -n '^    retired:$' no_reason.yaml | cut -d: -f1) + 1)):7: error: 'retired' needs 'reason': why the knob is gone upstream" err ||
    { cat err >&2; fail "$name: no located error for the missing reason"; }
  echo "ok $name: retired is a note (exit 0), the knob back is drift (verify 1)"
}
on_trees check
