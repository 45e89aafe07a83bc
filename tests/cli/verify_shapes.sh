#!/usr/bin/env bash
# verify --patch reads the committed patch as `git apply` reads it: every
# shape of the same change is checked against git's own verdict on the same
# tree, `git apply --check` on a copy of the real tree (pristine) and
# `git apply -R --check` on a patched copy. Where git accepts, verify is
# clean (exit 0) on both; where git refuses, verify is not; a rename or a
# mode change, which git takes but muhpatch never writes, is drift (exit 1).
# The change is rules/bi100.yaml's with --include-dead (many files and
# hunks). Shapes:
#   muhpatch        the `diff` output itself
#   git-diff        `git diff` (index lines), as a repository's history has it
#   format-patch    `git format-patch` (mail headers, diffstat, signature)
#   diff-ru         `diff -ru pristine applied` (its `diff -ru` lines, timestamps)
#   diff-u          plain `diff -u` hunks of each file (no `diff --git`)
#   stamps-tab      `---`/`+++` lines with a tab and a timestamp
#   stamps-space    a plain diff with a space and a timestamp (git reads it)
#   git-stamps-space the same in `diff --git` headers (git reads no timestamp there)
#   no-prefix       `git diff --no-prefix`, with -p 0
#   p2              two leading components (x/y/), with -p 2
#   no-prefix-p1    the no-prefix patch with the default -p 1 (git refuses)
#   text-around     words before the patch and after it
#   blank-stripped  blank context lines without their leading space
#   files-reversed  the files in the other order
#   hunks-reversed  each file's hunks in the other order
#   crlf            the patch file with CRLF line ends (git refuses on this LF tree)
#   blank-between   a blank line between two hunks (git: a hunk without a header)
#   no-final-newline the patch's last newline gone (git: corrupt)
#   mode-change     `old mode 100644` / `new mode 100755` on one file
#   rename          one file renamed
#   empty           an empty file (diff's output when nothing is to change):
#                   git wants --allow-empty; verify reads it as no change
# The messages of the shapes verify refuses are exact goldens. Without the
# real tree the test prints why and exits 77 (CTest: skipped).
#
# Usage: verify_shapes.sh MUHPATCH
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
real=$repo/../shared/targets/enginex-vllm
if [[ ! -d $real/vllm ]]; then
  echo "skip: verify_shapes: the real enginex-vllm tree is not at $real (../shared/targets/enginex-vllm beside the checkout)"
  exit 77
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: verify_shapes: $*" >&2; exit 1; }
ok() { echo "ok $*"; }
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=$scratch GIT_CEILING_DIRECTORIES=$scratch
export TZ=UTC LC_ALL=C
cd "$scratch"
cp "$repo/rules/bi100.yaml" rules.yaml
# shellcheck source=tests/cli/lib/without_capability_rules.sh
. "$repo/tests/cli/lib/without_capability_rules.sh"
without_capability_rules rules.yaml
cp -a "$real" pristine
chmod -R u+w pristine
args=(--include-dead)
"$muhpatch" diff rules.yaml pristine "${args[@]}" >committed.diff 2>/dev/null || fail "diff failed"
n_files=$(grep -c '^diff --git ' committed.diff)
n_hunks=$(grep -c '^@@ ' committed.diff)
[[ $n_files -ge 2 && $n_hunks -gt $n_files ]] || fail "the patch has $n_files files and $n_hunks hunks; this test needs several of each"
cp -a pristine applied
"$muhpatch" apply rules.yaml applied "${args[@]}" 2>/dev/null || fail "apply failed"

# git's own shapes, from a repository holding the pristine tree.
cp -a pristine git
(
  cd git
  git init -q . && git add -A && git -c user.email=t@t -c user.name=t commit -qm base
  "$muhpatch" apply ../rules.yaml . "${args[@]}" 2>/dev/null
  git diff >../git-diff.diff
  git diff --no-prefix >../no-prefix.diff
  git -c user.email=t@t -c user.name=t commit -qam "Tune the knobs"
  git format-patch -1 --stdout >../format-patch.diff
) || fail "could not make git's patches"
grep -q '^index ' git-diff.diff || fail "git diff wrote no index lines"
grep -q '^-- $' format-patch.diff || fail "format-patch wrote no signature"
code=0
diff -ru pristine applied >diff-ru.diff || code=$?
[[ $code -eq 1 ]] || fail "diff -ru exited $code"
grep -q '^diff -ru ' diff-ru.diff || fail "diff -ru wrote no 'diff -ru' lines"

python3 - <<'PY' || fail "could not write the shapes"
import re
src = open('committed.diff', 'rb').read()
lines = src.split(b'\n')[:-1]
def write(name, ls, end=b'\n'):
    open(name + '.diff', 'wb').write(b'\n'.join(ls) + end)
files, pre = [], []
for l in lines:
    if l.startswith(b'diff --git '):
        files.append([l])
    elif files:
        files[-1].append(l)
    else:
        pre.append(l)
def split_hunks(f):
    head = [l for l in f[:3]]
    hunks = []
    for l in f[3:]:
        if l.startswith(b'@@ '):
            hunks.append([l])
        else:
            hunks[-1].append(l)
    return head, hunks
write('muhpatch', lines)
stamp1, stamp2 = b'2024-05-01 10:00:00.000000000 +0000', b'2024-05-01 10:00:01.250000000 +0000'
def stamped(sep, keep_git, stamps):
    out = []
    for l in lines:
        if l.startswith(b'diff --git ') and not keep_git:
            continue
        if l.startswith(b'--- a/'):
            l += sep + stamps[0]
        elif l.startswith(b'+++ b/'):
            l += sep + stamps[1]
        out.append(l)
    return out
write('stamps-tab', stamped(b'\t', True, (stamp1, stamp2)))
write('stamps-space', stamped(b' ', False, (stamp1, stamp2)))
write('git-stamps-space', stamped(b' ', True, (stamp1, stamp1)))
write('diff-u', [l for l in lines if not l.startswith(b'diff --git ') and not l.startswith(b'muhpatch: ')])
def p2(l):
    if l.startswith(b'diff --git a/'):
        a, b = l[len(b'diff --git a/'):].split(b' b/', 1)
        return b'diff --git x/y/' + a + b' z/w/' + b
    if l.startswith(b'--- a/'):
        return b'--- x/y/' + l[6:]
    if l.startswith(b'+++ b/'):
        return b'+++ z/w/' + l[6:]
    return l
write('p2', [p2(l) for l in lines])
write('text-around', [b'The knobs of the BI-V100, tuned.', b'', b'Review notes:', b'- nothing odd'] + lines + [b'', b'-- ', b'reviewed by the CI', b''])
blank = [b'' if l == b' ' else l for l in lines]
assert blank != lines, 'no blank context line to strip'
write('blank-stripped', blank)
write('files-reversed', pre + [l for f in reversed(files) for l in f])
out = list(pre)
for f in files:
    head, hunks = split_hunks(f)
    out += head + [l for h in reversed(hunks) for l in h]
write('hunks-reversed', out)
write('crlf', [l + b'\r' for l in lines])
# A blank line before the second hunk of the first file with two.
out, done = [], False
for f in files:
    head, hunks = split_hunks(f)
    out += head
    for k, h in enumerate(hunks):
        if k == 1 and not done:
            out.append(b'')
            done = True
        out += h
assert done, 'no file with two hunks'
write('blank-between', out)
write('no-final-newline', lines, end=b'')
mode = list(lines)
mode.insert(mode.index(files[0][0]) + 1, b'old mode 100644')
mode.insert(mode.index(files[0][0]) + 2, b'new mode 100755')
write('mode-change', mode)
first = files[0][0][len(b'diff --git a/'):].split(b' b/', 1)[0]
ren = []
for l in lines:
    if l == files[0][0]:
        ren += [b'diff --git a/' + first + b' b/' + first + b'.renamed', b'similarity index 99%',
                b'rename from ' + first, b'rename to ' + first + b'.renamed']
    elif l == b'+++ b/' + first:
        ren.append(l + b'.renamed')
    else:
        ren.append(l)
write('rename', ren)
first = first.decode()
open('first-file', 'w').write(first)
PY
first=$(cat first-file)
cp no-prefix.diff no-prefix-p1.diff

# verdict SHAPE [-pN]: runs git apply --check forwards on pristine and
# backwards on applied, and verify on both; sets git_fwd, git_rev (0 or 1:
# accepted or not), v_fwd, v_rev (verify's exit codes), err_fwd, err_rev.
verdict() {
  local shape=$1 p=${2:-}
  git_fwd=0 git_rev=0 v_fwd=0 v_rev=0
  # shellcheck disable=SC2086
  (cd pristine && git apply --check $p "../$shape.diff") >/dev/null 2>&1 || git_fwd=1
  # shellcheck disable=SC2086
  (cd applied && git apply -R --check $p "../$shape.diff") >/dev/null 2>&1 || git_rev=1
  # shellcheck disable=SC2086
  "$muhpatch" verify rules.yaml pristine "${args[@]}" --patch "$shape.diff" $p >out.txt 2>err_fwd.txt || v_fwd=$?
  # shellcheck disable=SC2086
  "$muhpatch" verify rules.yaml applied "${args[@]}" --patch "$shape.diff" $p >out.txt 2>err_rev.txt || v_rev=$?
  err_fwd=$(cat err_fwd.txt)
  err_rev=$(cat err_rev.txt)
}
word() { [[ $1 -eq 0 ]] && echo accepts || echo refuses; }

# Shapes git accepts: verify is clean, forwards and backwards.
for spec in muhpatch git-diff format-patch diff-ru diff-u stamps-tab stamps-space no-prefix:-p0 p2:-p2 \
  text-around blank-stripped files-reversed hunks-reversed; do
  shape=${spec%%:*}
  p=
  [[ $spec == *:* ]] && p=${spec#*:}
  verdict "$shape" "$p"
  [[ $git_fwd -eq 0 && $git_rev -eq 0 ]] || fail "$shape: git apply --check $(word $git_fwd) it, -R --check $(word $git_rev) it; this test expects git to take it"
  [[ $v_fwd -eq 0 ]] || { printf '%s\n' "$err_fwd" >&2; fail "$shape: git apply --check accepts it on the pristine tree, verify exits $v_fwd"; }
  [[ $v_rev -eq 0 ]] || { printf '%s\n' "$err_rev" >&2; fail "$shape: git apply -R --check accepts it on the patched tree, verify exits $v_rev"; }
  [[ $(tail -n 1 err_fwd.txt) == "verify: clean: $shape.diff matches the rules ("* ]] ||
    fail "$shape: pristine verdict is '$(tail -n 1 err_fwd.txt)'"
  [[ $(tail -n 1 err_rev.txt) == "verify: clean: $shape.diff is applied and the rules reproduce it ("* ]] ||
    fail "$shape: patched verdict is '$(tail -n 1 err_rev.txt)'"
  ok "$shape${p:+ ($p)}: git accepts it both ways; verify: clean both ways"
done

# Shapes git refuses: verify is not clean, with the exact reason.
# refused SHAPE CODE WANT-PRISTINE WANT-PATCHED [-pN]: git refuses SHAPE both
# ways, verify exits CODE on both trees with these last stderr lines.
last_line() { if [[ $1 == fwd ]]; then tail -n 1 err_fwd.txt; else tail -n 1 err_rev.txt; fi; }
refresh="muhpatch diff rules.yaml pristine --include-dead"
# On the patched tree the rules change nothing: a refresh there says it
# writes an empty patch.
# (-o keeps a non-empty patch rather than empty it: no note.)
empty_note() { :; }
refresh_to() { echo "muhpatch diff -o $1 rules.yaml pristine --include-dead"; }
empties() { echo "${1//rules.yaml pristine/rules.yaml applied}$(empty_note "$2")"; }
refused() {
  local shape=$1 code=$2 want_fwd=$3 want_rev=$4 p=${5:-}
  verdict "$shape" "$p"
  [[ $git_fwd -ne 0 && $git_rev -ne 0 ]] || fail "$shape: git apply --check $(word $git_fwd) it, -R --check $(word $git_rev) it; this test expects git to refuse it"
  [[ $v_fwd -eq $code && $v_rev -eq $code ]] ||
    { printf '%s\n---\n%s\n' "$err_fwd" "$err_rev" >&2; fail "$shape: git refuses it, verify exits $v_fwd (pristine) and $v_rev (patched), expected $code"; }
  [[ $(last_line fwd) == "$want_fwd" ]] || { diff -u <(echo "$want_fwd") <(last_line fwd) >&2 || true; fail "$shape: pristine: wrong last line"; }
  [[ $(last_line rev) == "$want_rev" ]] || { diff -u <(echo "$want_rev") <(last_line rev) >&2 || true; fail "$shape: patched: wrong last line"; }
  ok "$shape${p:+ ($p)}: git refuses it both ways; verify exits $code both ways: $(last_line fwd)"
}
l=$(awk 'NR > 1 && prev == "" && /^@@ / {print NR; exit} {prev = $0}' blank-between.diff)
want="blank-between.diff:$l:1: error: malformed patch: a hunk without a file header before it"
refused blank-between 2 "$want" "$want"
l=$(wc -l <no-final-newline.diff)
want="no-final-newline.diff:$((l + 1)):1: error: malformed patch: the line does not end in a newline"
refused no-final-newline 2 "$want" "$want"
# A name that reads as 'FILE 2024-05-01 ...' is no file of the tree.
want="verify: drift: git-stamps-space.diff names a file the tree does not have; next: $(refresh_to git-stamps-space.diff)"
refused git-stamps-space 1 "$want" "$(empties "$want" git-stamps-space.diff)"
grep -qxF "pristine/$first 2024-05-01 10:00:00.000000000 +0000: error: no such file in the tree; next: $(refresh_to git-stamps-space.diff)" err_fwd.txt ||
  { cat err_fwd.txt >&2; fail "git-stamps-space: the missing file is not named"; }
want="verify: drift: no-prefix-p1.diff names a file the tree does not have; next: $(refresh_to no-prefix-p1.diff)"
refused no-prefix-p1 1 "$want" "$(empties "$want" no-prefix-p1.diff)"
# CRLF hunk lines match no line of this LF tree.
n=$n_hunks
refused crlf 1 \
  "verify: drift: crlf.diff is stale: $n hunks no longer apply to pristine, as git apply would refuse them; next: $(refresh_to crlf.diff)" \
  "$(empties "verify: drift: crlf.diff is stale: $n hunks no longer apply to applied, as git apply would refuse them; next: $(refresh_to crlf.diff)" crlf.diff)"
grep -q "^pristine/$first:[0-9]*: error: drift: hunk 1 of $first (crlf.diff:[0-9]*) no longer applies: its lines are at lines [0-9]*-[0-9]* now (the hunk says [0-9]*), but they end in CRLF in the hunk and in LF in the file; next: $(refresh_to crlf.diff)\$" err_fwd.txt ||
  { head -5 err_fwd.txt >&2; fail "crlf: the hunk's finding does not say the line ends differ"; }

# Shapes git accepts but muhpatch never writes: drift, exactly.
for shape in mode-change rename; do
  verdict "$shape"
  [[ $git_fwd -eq 0 ]] || fail "$shape: git apply --check refuses it; this test expects git to take it"
  # git apply -R wants the renamed file, which the patched tree lacks.
  [[ $shape == rename || $git_rev -eq 0 ]] || fail "$shape: git apply -R --check refuses it; this test expects git to take it"
  if [[ $shape == mode-change ]]; then
    what="changes its mode from 100644 to 100755"
    at=$first
  else
    what="renames $first to it"
    at=$first.renamed
  fi
  want="$shape.diff:$(grep -n '^diff --git ' "$shape.diff" | head -n 1 | cut -d: -f1):1: error: drift: for $at, the patch $what: muhpatch never makes such a change; next: $(refresh_to $shape.diff)
verify: drift: $shape.diff makes a change muhpatch never makes; next: $(refresh_to $shape.diff)"
  for which in fwd rev; do
    got=$(if [[ $which == fwd ]]; then cat err_fwd.txt; else cat err_rev.txt; fi | grep -v ': note: \|^note: \|^muhpatch: [0-9]* rules: ')
    code=$v_fwd
    w=$want
    if [[ $which == rev ]]; then
      code=$v_rev
      w=${want//rules.yaml pristine/rules.yaml applied}
      w=${w//"> $shape.diff"/"> $shape.diff$(empty_note "$shape.diff")"}
    fi
    [[ $code -eq 1 && $got == "$w" ]] || { diff -u <(echo "$w") <(echo "$got") >&2 || true; fail "$shape ($which): exit $code, expected 1 and the exact finding"; }
  done
  ok "$shape: git apply --check accepts it, -R --check $(word $git_rev) it; verify: drift both ways (a change muhpatch never makes)"
done

# An empty patch: what `diff` prints when nothing is left to change. git
# apply takes it only with --allow-empty; verify reads it as no change:
# clean on the patched tree, stale on the pristine one (the rules change it).
: >empty.diff
verdict empty
(cd pristine && git apply --check --allow-empty ../empty.diff) || fail "empty: git apply --check --allow-empty refuses it"
[[ $git_fwd -ne 0 && $v_rev -eq 0 && $v_fwd -eq 1 ]] ||
  { cat err_fwd.txt err_rev.txt >&2; fail "empty: git apply --check $(word $git_fwd) it; verify exits $v_fwd (pristine) and $v_rev (patched), expected 1 and 0"; }
[[ $(tail -n 1 err_rev.txt) == "verify: clean: empty.diff matches the rules ("* &&
  $(tail -n 1 err_fwd.txt) == "verify: drift: empty.diff is stale: "* ]] ||
  { tail -n 1 err_fwd.txt err_rev.txt >&2; fail "empty: wrong verdicts"; }
ok "empty: git apply --check refuses it (takes it with --allow-empty); verify: clean on the patched tree, stale on the pristine one"
