#!/usr/bin/env bash
# `diff --base-patch PATCH -o PATCH` (issue 40, item 1): a fork committed
# patched, with its .diff beside it. On a copy of the fixture tree and of
# the real tree (when ../shared has it):
#   1. diff > p.diff, apply: verify --patch p.diff is clean, and
#      `diff --base-patch p.diff` gives p.diff back byte for byte;
#   2. a plain `diff -o p.diff` there writes an empty patch and says so;
#   3. a teammate hand-tunes the MoE tier the patch rewrites second (its
#      `config['BLOCK_SIZE_M'] = ...` line, live on the served platform) to
#      128: verify exits 1 and every finding and the verdict advise
#      `muhpatch diff --base-patch p.diff -o p.diff rules.yaml t` (on the
#      fixture: stderr exactly as below);
#   4. that command, as verify spells it, exits 0 and changes exactly two
#      lines of p.diff: the rule's status line records the tuned line as
#      hand-tuned, and its `+` line holds 128; every other hunk stays;
#   5. verify is then clean, `git apply -R --check` takes the new patch, and
#      the command run again changes nothing (the record keeps the value);
#   6. the tier tuned by hand to 200, which the kernel does not take: the
#      command exits 6 naming the check at that line, and p.diff is kept.
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "FAIL: base_patch: $*" >&2; exit 1; }
# shellcheck source=lib/scratch_tree.sh
source "$repo/tests/cli/lib/scratch_tree.sh"
next='muhpatch diff --base-patch p.diff -o p.diff rules.yaml t'

fixture_verify() {
  local line=$1
  cat <<OUT
t/$moe:$line:34: error: drift: rule 'fused-moe-tier-block-m' was 'rewrites' when p.diff was made and is 'hand-tuned' now (rule 'fused-moe-tier-block-m' keeps '128', a hand-tuned value); next: $next
t/$moe:$line: error: drift: hunk 1 of $moe (p.diff:123) no longer applies in reverse: its lines are at lines 123-133 now (the hunk says 123), where line $line is '        config['BLOCK_SIZE_M'] = 128' and the hunk has '        config['BLOCK_SIZE_M'] = 16' (a line it changes differs); next: $next
t/$moe:$line:34: error: drift: rule 'fused-moe-tier-block-m' finds '128', a hand-edited value (upstream's is '64', the model derives '16'); next: $next
verify: drift: p.diff was made while rules were in another state; next: $next
OUT
}

check() {
  local name=$1 source=$2 code
  rm -f p.diff && copy_tree "$source"
  "$muhpatch" -q diff rules.yaml t >p.diff
  "$muhpatch" -q apply rules.yaml t
  "$muhpatch" -q verify rules.yaml t --patch p.diff || fail "$name: verify is not clean after apply"
  "$muhpatch" -q diff --base-patch p.diff rules.yaml t >again.diff
  cmp -s p.diff again.diff || fail "$name: --base-patch does not give the patch back"
  cp p.diff committed.diff
  # Without --base-patch, -o keeps a non-empty patch rather than empty it
  # (a helper probe of d751784: verify's advice, run on a patched tree,
  # emptied the committed patch).
  "$muhpatch" -q diff -o p.diff rules.yaml t 2>err || fail "$name: diff -o failed"
  cmp -s p.diff committed.diff || fail "$name: diff -o on the patched tree did not keep the patch"
  grep -q "^muhpatch: warning: p.diff: not written, and kept as it was ([0-9]* lines): the rules change nothing in t (a tree that carries the patch: --base-patch makes it again; remove p.diff to drop the patch)$" err ||
    { cat err >&2; fail "$name: the kept patch is not said"; }
  cp committed.diff p.diff

  # The second tier the patch rewrites, hand-tuned to 128 on the patched tree.
  local plus line
  plus=$(grep -m2 "^+ *config\['BLOCK_SIZE_M'\] = " p.diff | tail -1)
  line=$(grep -nxF -- "${plus#+}" "t/$moe" | sed -n 2p | cut -d: -f1)
  [[ -z $line ]] && line=$(grep -nxF -- "${plus#+}" "t/$moe" | head -1 | cut -d: -f1)
  [[ -n $line && $plus != *"= 128" ]] || fail "$name: no MoE tier line to hand-tune"
  sed -i "${line}s/= [0-9]*\$/= 128/" "t/$moe"
  code=0
  "$muhpatch" -q verify rules.yaml t --patch p.diff 2>err || code=$?
  [[ $code -eq 1 ]] || { cat err >&2; fail "$name: verify exited $code on the hand-tuned tier, expected 1"; }
  if [[ $name == "fixture tree" ]]; then
    diff <(fixture_verify "$line") err >&2 || fail "$name: verify's findings differ"
  fi
  # Every next command is the base-patch one.
  local others
  others=$(grep -o '; next: .*' err | sort -u)
  [[ $others == "; next: $next" ]] || { cat err >&2; fail "$name: a next command is not '$next'"; }

  # The command as verify spells it.
  (PATH=$(dirname "$muhpatch"):$PATH && eval "$next" 2>err) || { cat err >&2; fail "$name: '$next' failed"; }
  grep -q "^t/$moe:$line: note: rule 'fused-moe-tier-block-m' keeps the value tuned by hand here, and the patch records it as hand-tuned$" err ||
    { cat err >&2; fail "$name: no note at the kept value"; }
  # The sites left alone are recorded as they were (left_record.h): not compared here.
  diff <(sed 's/; left: .*//' committed.diff) <(sed 's/; left: .*//' p.diff) >changes || true
  local status
  status=$(grep -n "^muhpatch: rule fused-moe-tier-block-m: rewrites\(; left: .*\)\{0,1\}$" committed.diff | cut -d: -f1)
  # The tuned tier's `+` line: the second that reads as $plus does.
  local at
  at=$(grep -nxF -- "$plus" committed.diff | sed -n 2p | cut -d: -f1)
  [[ -n $at ]] || at=$(grep -nxF -- "$plus" committed.diff | head -1 | cut -d: -f1)
  cat >want <<OUT
${status}c${status}
< muhpatch: rule fused-moe-tier-block-m: rewrites
---
> muhpatch: rule fused-moe-tier-block-m: rewrites; hand-tuned: $moe:$line
${at}c${at}
< $plus
---
> ${plus% = *} = 128
OUT
  diff want changes >&2 || fail "$name: the regenerated patch differs from the committed one in more than the record and the tuned line"
  "$muhpatch" -q verify rules.yaml t --patch p.diff || fail "$name: verify is not clean after '$next'"
  if command -v git >/dev/null; then
    git apply -R --check --directory=t p.diff || fail "$name: git apply -R refuses the regenerated patch"
  fi
  cp p.diff kept.diff
  "$muhpatch" -q diff --base-patch p.diff -o p.diff rules.yaml t
  cmp -s kept.diff p.diff || fail "$name: a second run did not keep the record"

  # 6. Tuned by hand to a value the kernel does not take: the command fails
  #    (exit 6) at that line, naming the check, and -o p.diff stays as it was.
  sed -i "${line}s/= [0-9]*\$/= 200/" "t/$moe"
  code=0
  "$muhpatch" -q diff --base-patch p.diff -o p.diff rules.yaml t 2>err || code=$?
  [[ $code -eq 6 ]] || { cat err >&2; fail "$name: a kept value failing its kernel's check: exit $code, expected 6"; }
  grep -q "^t/$moe:$line:[0-9]*: error: rule 'fused-moe-tier-block-m' keeps '200', a hand-tuned value that fails its kernel's check" err ||
    { cat err >&2; fail "$name: the failing kept value is not named at its line"; }
  grep -qxF "muhpatch: error: p.diff: not written, and kept as it was: the rules failed (the errors above); fix them and run this again" err ||
    { cat err >&2; fail "$name: -o on a failed run does not say it kept the file"; }
  cmp -s kept.diff p.diff || fail "$name: a failed run changed p.diff"
  echo "ok $name: verify advises '$next'; it keeps every hunk, records the tuned tier at line $line, and verify is then clean; a kept value the kernel does not take fails and leaves p.diff"
}

# shellcheck source=lib/on_trees.sh
source "$repo/tests/cli/lib/on_trees.sh"
on_trees check
