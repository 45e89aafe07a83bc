#!/usr/bin/env bash
# The gate on copies of the real tree (../shared/targets/enginex-vllm) with
# rules/bi100.yaml: ordinary edits leave `verify --patch` clean, as they
# leave `git apply --check` content; real drift fails it, with messages
# compared exactly, each ending with the command to run next.
# Ordinary edits (pristine and patched copies; git apply --check, or -R
# --check on the patched copy, accepts the patch after each):
#   top       two comment lines added at the top of fused_moe.py (the patch's
#             hunk then sits two lines lower: an offset git allows);
#   above     two comment lines added above the knobs' function, outside the
#             hunk's context;
#   comment   a comment changed far from any hunk.
# Real drift (pristine copies; git apply --check refuses the patch in the
# first and third):
#   value     a tier's value changed upstream: the hunk's removed line
#             differs (stale, the hunk named where its lines are now), and
#             the site holds a hand-edited value;
#   multiply  a tier's assignment written twice: the rule finds 2 sites;
#   context   a context line inside the hunk changed: stale;
#   preamble  a status line doubled, a status or a rule id misspelt by hand.
# Without the real tree the test prints why and exits 77 (CTest: skipped).
#
# Usage: verify_edits.sh MUHPATCH
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
real=$repo/../shared/targets/enginex-vllm
if [[ ! -d $real/vllm ]]; then
  echo "skip: verify_edits: the real enginex-vllm tree is not at $real (../shared/targets/enginex-vllm beside the checkout)"
  exit 77
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: verify_edits: $*" >&2; exit 1; }
ok() { echo "ok $*"; }
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=$scratch GIT_CEILING_DIRECTORIES=$scratch
cd "$scratch"
cp "$repo/rules/bi100.yaml" rules.yaml
cp -a "$real" pristine
chmod -R u+w pristine
moe=vllm/model_executor/layers/fused_moe/fused_moe.py
"$muhpatch" diff rules.yaml pristine >committed.diff 2>/dev/null || fail "diff failed"
[[ $(grep -c '^diff --git ' committed.diff) -eq 1 && $(grep -c "^diff --git a/$moe " committed.diff) -eq 1 ]] ||
  fail "the patch should change $moe alone; this test edits that file"
cp -a pristine patched
"$muhpatch" apply rules.yaml patched 2>/dev/null || fail "apply failed"
hunk_line=$(grep -n '^@@ ' committed.diff | head -n 1 | cut -d: -f1)
read -r hunk_start hunk_len < <(sed -n "${hunk_line}s/^@@ -\([0-9]*\),\([0-9]*\) .*/\1 \2/p" committed.diff)
[[ -n $hunk_start && -n $hunk_len ]] || fail "cannot read the hunk header of committed.diff"
refresh="muhpatch diff -o committed.diff rules.yaml tree"

# run STATE: verify --patch committed.diff on ./tree; sets $code, $err (the
# lines that are not the rules' notes) and $git (0: git apply --check, or
# -R --check on a patched tree, accepts the patch).
run() {
  code=0 git=0
  "$muhpatch" verify rules.yaml tree --patch committed.diff >out.txt 2>err.txt || code=$?
  err=$(grep -v ': note: \|^note: ' err.txt || true)
  local r=
  [[ $1 == patched ]] && r=-R
  (cd tree && git apply $r --check ../committed.diff) >/dev/null 2>&1 || git=1
}
fresh() { rm -rf tree && cp -a "$1" tree; }
# edit NAME: makes the ordinary edit NAME on tree/$moe.
edit() {
  python3 - "tree/$moe" "$1" "$hunk_start" "$hunk_len" <<'PY'
import sys
path, name, start, length = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
lines = open(path, 'rb').read().split(b'\n')
if name == 'top':
    lines[0:0] = [b'# Tuned for the BI-V100.', b'# See the team wiki.']
elif name == 'above':
    at = next(i for i, l in enumerate(lines) if l.startswith(b'def get_default_config('))
    assert at < start - 1, 'the function starts inside the hunk'
    lines[at:at] = [b'# The default tiers below are tuned per card.', b'# Keep them in step with the rules.']
elif name == 'comment':
    far = [i for i, l in enumerate(lines) if l.lstrip().startswith(b'#') and abs(i + 1 - start) > 100]
    assert far, 'no comment far from the hunk'
    lines[far[0]] += b' (edited)'
open(path, 'wb').write(b'\n'.join(lines))
PY
}

for state in pristine patched; do
  if [[ $state == pristine ]]; then
    verdict="verify: clean: committed.diff matches the rules ("
  else
    verdict="verify: clean: committed.diff is applied and the rules reproduce it ("
  fi
  for name in top above comment; do
    fresh "$state"
    edit "$name" || fail "could not make the edit '$name'"
    cmp -s "$state/$moe" "tree/$moe" && fail "the edit '$name' changed nothing"
    run "$state"
    [[ $git -eq 0 ]] || fail "$state, $name: git apply --check refuses the patch; this edit should be ordinary"
    [[ $code -eq 0 && $(tail -n 1 err.txt) == "$verdict"* ]] ||
      { cat err.txt >&2; fail "$state, $name: git accepts the patch, verify exits $code"; }
    ok "$state, $name: git apply --check accepts the patch; verify: clean"
  done
done

# --- real drift -------------------------------------------------------------
medium_re="^        config\['BLOCK_SIZE_M'\] = 64\$"
[[ $(grep -c "$medium_re" "pristine/$moe") -eq 1 ]] || fail "no unique medium tier line in $moe"
medium=$(grep -n "$medium_re" "pristine/$moe" | cut -d: -f1)
(( medium >= hunk_start && medium < hunk_start + hunk_len )) || fail "the medium tier is not inside the hunk"
span="lines are at lines $hunk_start-$((hunk_start + hunk_len - 1)) now (the hunk says $hunk_start)"

# A value changed upstream.
fresh pristine
sed -i "${medium}s/= 64\$/= 32/" "tree/$moe"
run pristine
[[ $git -ne 0 ]] || fail "value: git apply --check still accepts the patch"
col=$(awk -v l="$medium" 'NR == l {print index($0, "32")}' "tree/$moe")
want_hunk="tree/$moe:$medium: error: drift: hunk 1 of $moe (committed.diff:$hunk_line) no longer applies: its $span, where line $medium is '        config['BLOCK_SIZE_M'] = 32' and the hunk has '        config['BLOCK_SIZE_M'] = 64' (a line it changes differs); next: $refresh"
want_site="tree/$moe:$medium:$col: error: drift: rule 'fused-moe-tier-block-m' finds '32', a hand-edited value (upstream's is '64', the model derives '16'); next: $refresh"
# The tier family still rewrites its other tiers (its state is unchanged,
# one of its sites now keeps a hand-tuned value): the stale hunk gives the
# verdict.
want_last="verify: drift: committed.diff is stale: 1 hunk no longer applies to tree, as git apply would refuse it; next: $refresh"
[[ $code -eq 1 ]] && grep -qxF "$want_hunk" err.txt && grep -qxF "$want_site" err.txt && [[ $(tail -n 1 err.txt) == "$want_last" ]] ||
  { printf 'want:\n%s\n%s\n%s\ngot:\n' "$want_hunk" "$want_site" "$want_last" >&2; cat err.txt >&2; fail "value: exit $code, expected 1 and the findings above"; }
ok "value: git apply --check refuses the patch; verify: exit 1, the hunk where its lines are now and the hand-edited site"

# A site multiplied.
fresh pristine
sed -i "${medium}p" "tree/$moe"
run pristine
second=$((medium + 1))
col2=$(awk -v l="$second" 'NR == l {print index($0, "= 64") + 2}' "tree/$moe")
want_plan="tree/$moe:$second:$col2: error: rule 'fused-moe-tier-block-m' expects 1 site in tier 2 of 3 (64 < numel <= 1024) of the chain at line $((medium - 3)), found 2 (at lines $medium, $second); next: muhpatch status rules.yaml tree --rule fused-moe-tier-block-m"
[[ $code -eq 1 ]] && grep -qxF "$want_plan" err.txt && [[ $(tail -n 1 err.txt) == "verify: drift: the rules no longer apply cleanly to tree" ]] ||
  { printf 'want:\n%s\ngot:\n' "$want_plan" >&2; cat err.txt >&2; fail "multiply: exit $code, expected 1 and the count error"; }
ok "multiply: verify: exit 1, '$want_plan'"

# A context line inside the hunk changed.
fresh pristine
ctx=$((hunk_start + 1))
before=$(sed -n "${ctx}p" "tree/$moe")
[[ $before == "    "* ]] || fail "line $ctx of $moe is not an indented context line"
sed -i "${ctx}s/\$/  # tokens routed/" "tree/$moe"
run pristine
[[ $git -ne 0 ]] || fail "context: git apply --check still accepts the patch"
want="tree/$moe:$ctx: error: drift: hunk 1 of $moe (committed.diff:$hunk_line) no longer applies: its $span, where line $ctx is '$before  # tokens routed' and the hunk has '$before' (a context line changed); next: $refresh
muhpatch: 15 rules: 1 rewrite, 1 already at its value, 4 skipped, 9 dead; 19 sites: 7 live, 11 dead, 1 unknown (-v lists the 14 left alone; \`muhpatch status\` says why)
verify: drift: committed.diff is stale: 1 hunk no longer applies to tree, as git apply would refuse it; next: $refresh"
[[ $code -eq 1 && $err == "$want" ]] || { diff -u <(echo "$want") <(echo "$err") >&2 || true; fail "context: exit $code, expected 1 and exactly the stale hunk"; }
ok "context: git apply --check refuses the patch; verify: exit 1, exactly the hunk, where its lines are now, and the refresh command"

# The preamble edited by hand: a second line for a rule, a status muhpatch
# never writes, a rule the rule file does not have. Each is drift located
# at its line of the patch, exactly as below.
fresh pristine
rule=paged-attn-partition-size
[[ $(head -n 1 committed.diff) == "muhpatch: rule $rule: skipped; left: "* ]] ||
  fail "preamble: the patch's first line is not $rule's skipped status"
sed '1{p;s/: skipped; left: .*$/: rewrites/}' committed.diff >dup.diff
sed '1s/: skipped;/: skiped;/' committed.diff >status.diff
sed "1s/rule $rule:/rule ${rule%size}sise:/" committed.diff >id.diff
for edit in dup status id; do
  case $edit in
    dup) want="$edit.diff:2:1: error: drift: a second status line for rule '$rule' (the first is line 1): muhpatch writes one line a rule, so this one was added by hand, and the state the patch records for the rule is not trusted" ;;
    status) want="$edit.diff:1:1: error: drift: the status line for rule '$rule' records 'skiped', which is no status muhpatch writes (rewrites, at value, skipped, no value, failed, dead, hand-tuned, retired): it was edited by hand" ;;
    id) want="$edit.diff:1:1: error: drift: the preamble records rule '${rule%size}sise', which the rule file does not have: it was removed or renamed since the patch was made, or the line was edited, and what the patch holds for it is not checked" ;;
  esac
  want="$want; next: muhpatch diff -o $edit.diff rules.yaml tree"
  last="verify: drift: $edit.diff's preamble is not as muhpatch writes it; next: muhpatch diff -o $edit.diff rules.yaml tree"
  code=0
  "$muhpatch" verify rules.yaml tree --patch "$edit.diff" >out.txt 2>err.txt || code=$?
  [[ $code -eq 1 ]] && grep -qxF "$want" err.txt && [[ $(tail -n 1 err.txt) == "$last" ]] ||
    { printf 'want:\n%s\n%s\ngot:\n' "$want" "$last" >&2; cat err.txt >&2; fail "preamble $edit: exit $code, expected 1 and the finding above"; }
  ok "preamble $edit: verify: exit 1, '$want'"
done
