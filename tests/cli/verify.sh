#!/usr/bin/env bash
# `muhpatch verify RULES TREE [--patch FILE]` on a scratch copy of the enginex
# fixture with rules/bi100.yaml. Exit 0: the tree is pristine and the rules
# produce FILE byte for byte, or the tree is patched and nothing is left to
# change (with FILE: undoing it exactly gives a tree for which the rules
# reproduce it). Drift is exit 1, a bad --patch file exit 2.
#   1. pristine + --patch = the `diff` output: exit 0, stdout empty, stderr the
#      summary line then `verify: clean: committed.diff matches the rules (N rules: ...)`, the
#      summary adding up (N = the rules of rules.yaml, skipped = diff's count);
#   2. pristine, no --patch: exit 1, stderr = the notes, then per site one
#      `tree/FILE:LINE:COL: error: drift: rule 'ID' finds 'X' where the model
#      derives 'Y'` (or `would insert N lines starting '...'`), with --explain
#      followed by indented derivation lines with a `decided by:` (without it,
#      none), then the summary line and `verify: drift: N files would change`.
#      Model values are not hard-coded: the reported edits, made at their
#      line:col on the pristine tree, must give exactly what `apply` writes;
#   3. after `apply`: exit 0 without --patch (`nothing left to change`) and
#      with the committed patch (`is applied and the rules reproduce it`);
#   4. after apply, the patch with a `+` line hand-edited (in the first and in
#      the last hunk): exit 1, `tree/FILE:N: error: drift: hunk K of FILE
#      (PATCH:L) no longer applies in reverse: its lines are at lines A-B now
#      (the hunk says A), where line N is '...' and the hunk has '...' (a line
#      it changes differs); next: muhpatch diff ... > PATCH` at the edited
#      line, then `verify: drift: PATCH is stale: 1 hunk no longer applies to
#      tree (in reverse), as git apply would refuse it; next: ...`;
#   5. pristine, the patch with a `-` line hand-edited: the same, forwards;
#   6. stale patches: exit 1, stdout empty, stderr naming each rule whose
#      line the patch leaves otherwise than the rules write it (at the line,
#      then `committed:` and `regenerated:` lines) and ending `verify: drift:
#      PATCH is stale: ...`; with -v, stdout a unified diff of the patch file
#      that turns the committed patch into the regenerated one (checked by
#      applying it with patch(1)):
#      a patch generated with `--set smem_per_block=65536` on the pristine tree
#      (stderr also carries the drift errors of 2.), a hand-edited `+` line on
#      the pristine tree, and a patched tree whose patch holds one hunk the
#      rules do not make. A tree patched with the override and verified
#      without it against the override's patch: exit 1, recorded as what verify
#      does today (`no longer applies`, forwards; see QUESTIONABLE below);
#   7. a value hand-edited after apply (the CRLF _custom_ops.py smem limit):
#      exit 1, the exact drift error at its line:col (ending with the `apply`
#      command to run next, as every site's does), derivation lines, and
#      `verify: drift: 1 file would change`; with --patch, exit 1;
#   8. the NUM_WARPS line deleted from a pristine copy: exit 1, the count
#      error at the rule's `id:` in rules.yaml, then `verify: drift: the rules
#      no longer apply cleanly to tree` (with and without --patch);
#   9. the smem function duplicated: exit 1, `expects 1 match ..., found 2
#      (at lines A, B)` at the second copy; copied into a file outside the
#      rule's files (the whole-tree search): exit 1, `drift: rule 'ID' matches
#      here, outside its files: ...` at the copy; `_PARTITION_SIZE = 512`
#      copied into another module: exit 0 while its rule's precondition skips
#      it, the `foreign` finding at the copy once paged_attention_v2 has a body;
#  10. a --patch file that does not exist (relative and absolute), on a
#      pristine and on a patched tree: exit 2, exactly `nope.diff: error:
#      cannot open (No such file or directory)`; a malformed one (`hello`):
#      exit 2, `bad.diff:1:1: error: malformed patch: no file in it ...`; a
#      patch naming a file the tree lacks: exit 1;
#  11. every verify run is checked for writes: the tree must equal the copy
#      taken before the run (diff -r), and nothing in the scratch dir (tree,
#      patch files, TMPDIR, which points into it) may change its listing,
#      mode, inode, size, mtime or content.
# What verify prints besides its findings (the plan's warnings, and the one
# summary line counting the rules left alone, last before the verdict) is
# taken from `diff` on the same tree (take_notes), so stderr is compared
# exactly without hard-coding it. Derivations print only under --explain. Arguments go
# RULES TREE first: `--set` before RULES swallows the positionals when
# `--patch` follows.
#
# Usage: verify.sh MUHPATCH
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: verify: $*" >&2; exit 1; }
ok() { echo "ok $*"; }

# The miniature tree's CRLF file is vllm/_custom_ops.py, whose one rule (the
# shared-memory limit) rewrites only from a measured fact: every run gets the
# measured card of fixtures/cases/enginex_vllm (--hw, right after the command).
card=$repo/fixtures/cases/enginex_vllm/measured-card.yaml
real_muhpatch=$muhpatch
muhpatch=$scratch/muhpatch-measured
printf '#!/usr/bin/env bash\ncmd=$1; shift\nexec "%s" "$cmd" --hw "%s" "$@"\n' "$real_muhpatch" "$card" >"$muhpatch"
chmod +x "$muhpatch"

cp -a "$repo/fixtures/enginex-vllm" "$scratch/pristine"
cp "$repo/rules/bi100.yaml" "$scratch/rules.yaml"
mkdir "$scratch/tmp"
export TMPDIR=$scratch/tmp
cd "$scratch"

crlf_file=vllm/_custom_ops.py
smem_fn=get_max_shared_memory_per_block_device_attribute
pp_file=vllm/attention/ops/prefix_prefill.py
# What a finding says to run next: the run's own inputs (the measured card
# included), `diff` into the patch to refresh it, `apply` to write a site,
# `status --rule` to see a rule's sites.
next_apply="muhpatch apply rules.yaml tree --hw $card"
next_status="muhpatch status rules.yaml tree --hw $card"
refresh() { echo "muhpatch diff -o $1 rules.yaml tree --hw $card"; }
# stale_tail PATCH: the end of the verdict for a stale PATCH.
stale_tail() { echo "the rules, the model or the tree changed, and the patch they produce now differs (each rule's line above; -v prints committed -> regenerated on stdout); next: ${2:-$(refresh "$1")}"; }
# stale_rule PATCH FILE LINE RULE COMMITTED REGENERATED [NEXT]: the finding
# for a rule whose line PATCH leaves otherwise than the rules write it.
stale_rule() {
  printf '%s\n    committed:   %s\n    regenerated: %s' \
    "tree/$2:$3: error: drift: rule '$4' writes this line otherwise than $1; next: ${7:-$(refresh "$1")}" "$5" "$6"
}
# On a patched tree the rules change nothing: a refresh there says it writes an empty patch.
# (-o keeps a non-empty patch rather than empty it.)
refresh_empties() { refresh "$1"; }
# On a tree that carries its patch, the patch is made again from the pre-image.
base_refresh() { echo "muhpatch diff --base-patch $1 -o $1 rules.yaml tree --hw $card"; }
# no_longer PATCH [REVERSE NEXT]: the verdict for a PATCH of which git refuses
# 1 hunk (forwards, or in reverse with NEXT to run: a patched tree needs
# `apply` when a site was edited since, else a patch made without it).
no_longer() {
  if [[ -z ${2:-} ]]; then
    echo "verify: drift: $1 is stale: 1 hunk no longer applies to tree, as git apply would refuse it; next: $(refresh "$1")"
  else
    echo "verify: drift: $1 is stale: 1 hunk no longer applies to tree (in reverse), as git apply would refuse it${4:+; make it again (\`muhpatch diff -o\` it) from the tree without the patch: a patch made from this tree would drop what it holds}; next: $3"
  fi
}

# check.py blocks ERR NOTES LAST: ERR must be the lines of NOTES, then blocks of
# one unindented line followed by indented derivation lines (one of them
# `decided by: ...`), then LAST. Prints the unindented lines of the blocks.
# check.py sites PRISTINE APPLIED ERRORS: the drift errors (one a line) are
# edits of PRISTINE; made at their line:col they must give APPLIED exactly.
cat >check.py <<'PY'
import os, re, sys

def blocks(err_path, notes_path, last):
    err = open(err_path, encoding='utf-8').read().split('\n')
    if err and err[-1] == '':
        err.pop()
    notes = open(notes_path, encoding='utf-8').read().split('\n')
    if notes and notes[-1] == '':
        notes.pop()
    if err[:len(notes)] != notes:
        sys.exit('stderr does not start with the notes')
    if not err or err[-1] != last:
        sys.exit('last stderr line is %r, expected %r' % (err[-1] if err else '', last))
    body = err[len(notes):-1]
    if body and re.match(r'^muhpatch: \d+ rules: ', body[-1]):
        body.pop()  # the summary line, before the verdict
    heads, i = [], 0
    while i < len(body):
        head = body[i]
        if head.startswith(' '):
            sys.exit('indented line without an error before it: %r' % head)
        i += 1
        why = []
        while i < len(body) and body[i].startswith('    '):
            why.append(body[i])
            i += 1
        if not why:
            sys.exit('no derivation lines after %r' % head)
        if not any(re.match(r'^ +decided by: \S', w) for w in why):
            sys.exit('no "decided by:" line in the derivation after %r' % head)
        heads.append(head)
    print('\n'.join(heads))

def one_line(text):
    text = text.rstrip('\r\n').replace('\r', ' ').replace('\n', ' ')
    return text[:67] + '...' if len(text) > 70 else text

def sites(pristine, applied, errors_path):
    rx = re.compile(r"^tree/(.+?):(\d+):(\d+): error: drift: rule '([a-z0-9-]+)' "
                    r"(?:finds '(.*?)' where the model derives '(.*)'|would insert (\d+ lines? starting '.*'))$")
    edits = {}
    for line in open(errors_path, encoding='utf-8').read().splitlines():
        next_apply = '; next: ' + os.environ['NEXT_APPLY']
        if not line.endswith(next_apply):
            sys.exit('drift error does not end with %r: %r' % (next_apply, line))
        line = line[:-len(next_apply)]
        m = rx.match(line)
        if not m:
            sys.exit('malformed drift error: %r' % line)
        path, l, c, rule, old, new, ins = m.groups()
        text = open(os.path.join(pristine, path), 'rb').read().decode('latin-1')
        starts = [0] + [k + 1 for k, ch in enumerate(text) if ch == '\n']
        l, c = int(l), int(c)
        if l > len(starts):
            sys.exit('line %d is past the end of %s: %r' % (l, path, line))
        off = starts[l - 1] + c - 1
        if old is not None:
            if old.endswith('...') or new.endswith('...'):
                sys.exit('truncated value, cannot check: %r' % line)
            if text[off:off + len(old)] != old:
                sys.exit('%s:%d:%d holds %r, not %r: %r' % (path, l, c, text[off:off + len(old)], old, line))
            edits.setdefault(path, []).append((off, len(old), new, line))
        else:
            edits.setdefault(path, []).append((off, 0, None, ins, line))
    for root, _, files in os.walk(pristine):
        for f in files:
            path = os.path.relpath(os.path.join(root, f), pristine)
            before = open(os.path.join(pristine, path), 'rb').read().decode('latin-1')
            after = open(os.path.join(applied, path), 'rb').read().decode('latin-1')
            es = sorted(edits.get(path, []), key=lambda e: e[0])
            if not es:
                if before != after:
                    sys.exit('apply changes %s but no drift error names it' % path)
                continue
            offs = [e[0] for e in es]
            if len(set(offs)) != len(offs):
                sys.exit('two drift errors at the same site of %s' % path)
            inserts = [e for e in es if e[2] is None]
            if len(inserts) > 1:
                sys.exit('more than one insertion in %s; this test cannot rebuild it' % path)
            pieces, pos, split = [], 0, None
            for e in es:
                off, n = e[0], e[1]
                if off < pos:
                    sys.exit('overlapping drift errors in %s' % path)
                pieces.append(before[pos:off])
                if e[2] is None:
                    split = len(pieces)
                    pieces.append('')
                else:
                    pieces.append(e[2])
                pos = off + n
            pieces.append(before[pos:])
            if split is None:
                if ''.join(pieces) != after:
                    sys.exit('the drift errors of %s, made on the pristine file, do not give what apply writes' % path)
                continue
            head, tail = ''.join(pieces[:split]), ''.join(pieces[split + 1:])
            if not (after.startswith(head) and after.endswith(tail) and len(after) >= len(head) + len(tail)):
                sys.exit('the drift errors of %s, made on the pristine file, do not give what apply writes' % path)
            inserted = after[len(head):len(after) - len(tail)]
            said = inserts[0][3]
            lines = inserted.splitlines()
            want = "%d line%s starting '%s'" % (len(lines), '' if len(lines) == 1 else 's',
                                                one_line(lines[0].lstrip(' \t')) if lines else '')
            if not inserted or want != said:
                sys.exit('%s: apply inserts %r, the drift error says %r' % (path, want, said))
    print(sum(len(v) for v in edits.values()))

if sys.argv[1] == 'blocks':
    blocks(*sys.argv[2:])
else:
    sites(*sys.argv[2:])
PY

# state: everything in the scratch dir but mp.out and mp.err (kind, mode,
# inode, size, mtime, and the content of every file under tree/).
state() {
  find . \( -path ./mp.out -o -path ./mp.err \) -prune -o -printf '%p %y %m %i %s %T@\n' | LC_ALL=C sort
  (cd tree && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum)
}
: >mp.out
: >mp.err
runs=0
# mp ARGS...: runs `muhpatch verify ARGS...` from the scratch dir; sets $code,
# $out, $err. Fails if the run wrote anything (see 11 above).
mp() {
  local before after
  before=$(state)
  code=0
  "$muhpatch" verify "$@" >mp.out 2>mp.err || code=$?
  out=$(cat mp.out)
  err=$(cat mp.err)
  after=$(state)
  [[ $before == "$after" ]] ||
    { diff <(printf '%s\n' "$before") <(printf '%s\n' "$after") >&2 || true; fail "verify $*: wrote to the tree or left a file behind"; }
  diff -r snapshot tree >/dev/null || fail "verify $*: the tree differs from its copy taken before the run"
  runs=$((runs + 1))
}
# expect WHAT CODE STDOUT STDERR: the last mp call's results, exactly.
expect() {
  [[ $code -eq $2 ]] || { printf '%s\n%s\n' "$out" "$err" >&2; fail "$1: exit $code, expected $2"; }
  [[ $out == "$3" ]] || { diff -u <(printf '%s\n' "$3") <(printf '%s\n' "$out") >&2 || true; fail "$1: stdout differs"; }
  [[ $err == "$4" ]] || { diff -u <(printf '%s\n' "$4") <(printf '%s\n' "$err") >&2 || true; fail "$1: stderr differs"; }
}
# fresh [patched [APPLY-ARGS...]]: a new copy of the fixture in ./tree,
# optionally applied (with APPLY-ARGS, e.g. --set); sets $notes and
# $summary_line from what `diff` prints on stderr for it (take_notes) and
# takes the snapshot.
fresh() {
  rm -rf tree
  cp -a pristine tree
  if [[ ${1:-} == patched ]]; then
    "$muhpatch" apply rules.yaml tree "${@:2}" 2>/dev/null || fail "apply ${*:2} on a fresh copy failed"
  fi
  "$muhpatch" diff rules.yaml tree >/dev/null 2>diff.err || fail "diff on a fresh copy failed"
  take_notes
  snap
}
# take_notes: from diff's stderr (diff.err), the lines verify prints too
# ($notes, in notes.txt: the plan's errors and warnings) and the summary
# line counting the rules left alone ($summary_line), which verify prints
# last before its verdict. diff's notes on sites it rewrites without knowing
# whether they run are diff's alone.
take_notes() {
  grep -v -e '^muhpatch: [0-9]* rules: ' -e ": note: rule '[^']*' rewrites a site that may not run: " diff.err >notes.txt || true
  notes=$(cat notes.txt)
  summary_line=$(grep '^muhpatch: [0-9]* rules: ' diff.err || true)
}
snap() { rm -rf snapshot && cp -a tree snapshot; }
# lines A B...: the non-empty arguments joined by newlines.
lines() {
  local s="" a
  for a in "$@"; do [[ -z $a ]] || s+=${s:+$'\n'}$a; done
  printf '%s' "$s"
}
# rule_line ID: the line of `- id: ID` in rules.yaml.
rule_line() { grep -n "^  - id: $1\$" rules.yaml | cut -d: -f1; }
id_col() { awk -v l="$(rule_line "$1")" 'NR == l {print index($0, "id:")}' rules.yaml; }
# hunk_at PATCH N: for line N of PATCH (inside a hunk), prints the line of the
# hunk's `@@` header, the hunk's number within its file, the file, and the
# old-side and new-side line numbers of line N.
hunk_at() {
  awk -v n="$2" '
    /^diff --git / {path = substr($3, 3); h = 0; hl = 0; next}
    /^@@ / {h++; hl = NR; split($2, a, /[-,]/); o = a[2]; split($3, b, /[+,]/); w = b[2]; next}
    NR == n {if (hl) print hl, h, path, o, w; exit}
    hl {c = substr($0, 1, 1); if (c == " ") {o++; w++} else if (c == "-") o++; else if (c == "+") w++}
  ' "$1"
}
# edit_line PATCH WHICH SIGN OUT: copies PATCH to OUT with the first or last
# (WHICH) `SIGN` line holding a digit changed (its first number -> 987654);
# prints the line number.
edit_line() {
  local n
  n=$(grep -n "^[$3][^$3]" "$1" | grep '^[0-9]*:.*[0-9]' | { if [[ $2 == first ]]; then head -n 1; else tail -n 1; fi; } | cut -d: -f1)
  [[ $n =~ ^[0-9]+$ ]] || fail "no '$3' line with a digit in $1"
  awk -v n="$n" 'NR == n {sub(/[0-9]+/, "987654")} {print}' "$1" >"$4"
  [[ $(diff "$1" "$4" | grep -c '^[<>]') -eq 2 ]] || fail "could not hand-edit line $n of $1"
  echo "$n"
}
# stale_stdout FROM TO WHAT: mp.out is a diff of the patch file FROM that turns
# it into TO.
stale_stdout() {
  head -n 3 mp.out | cmp -s - <(printf '%s\n' "diff --git a/$1 b/$1" "--- a/$1" "+++ b/$1") ||
    { head -n 5 mp.out >&2; fail "$3: stdout does not start with a diff of $1"; }
  cp "$1" roundtrip.diff
  patch --batch --silent --no-backup-if-mismatch roundtrip.diff <mp.out >/dev/null ||
    { cat mp.out >&2; fail "$3: the diff on stdout does not apply to $1"; }
  cmp -s roundtrip.diff "$2" || { diff -u "$2" roundtrip.diff >&2 || true; fail "$3: stdout does not turn $1 into $2"; }
  rm -f roundtrip.diff
}
n_rules=$(grep -c '^  - id: ' rules.yaml)

# === 1. pristine tree, --patch the diff output ========================================
fresh
"$muhpatch" diff rules.yaml tree >committed.diff 2>/dev/null || fail "diff failed"
[[ -s committed.diff ]] || fail "diff is empty"
mapfile -t diff_files < <(sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' committed.diff)
n_files=${#diff_files[@]}
n_skipped=$(sed -n 's/.*, \([0-9]*\) skipped.*/\1/p' <<<"$summary_line")
n_skipped=${n_skipped:-0}
[[ -z $notes && -n $summary_line ]] || fail "diff prints more than its summary line and the sites it cannot tell run: $(cat diff.err)"

mp rules.yaml tree --patch committed.diff
summary_re='\(([0-9]+) rules: ([0-9]+) rewrite, ([0-9]+) already at (its|their) value, ([0-9]+) skipped(, ([0-9]+) dead)?\)$'
clean_line=$(tail -n 1 mp.err)
[[ $code -eq 0 && -z $out && $(sed '$d' mp.err) == "$(lines "$notes" "$summary_line")" ]] || { printf '%s\n' "$err" >&2; fail "pristine --patch committed.diff: exit $code (expected 0), stdout not empty or stderr not the notes and the verdict"; }
[[ $clean_line =~ ^"verify: clean: committed.diff matches the rules "$summary_re ]] ||
  fail "pristine --patch committed.diff: last stderr line is '$clean_line'"
total=${BASH_REMATCH[1]} to_apply=${BASH_REMATCH[2]} applied=${BASH_REMATCH[3]} skipped=${BASH_REMATCH[5]}
dead=${BASH_REMATCH[7]:-0} dead_part=${BASH_REMATCH[6]}
[[ $total -eq $n_rules && $skipped -eq $n_skipped && $((to_apply + applied + skipped + dead)) -eq $total && $to_apply -gt 0 ]] ||
  fail "pristine summary does not add up: '$clean_line' (rules.yaml has $n_rules rules, diff notes $n_skipped skipped)"
at_value=$((to_apply + applied)) their=their
[[ $at_value -eq 1 ]] && their=its
summary_patched="$total rules: 0 rewrite, $at_value already at $their value, $skipped skipped$dead_part"
ok "1. pristine --patch committed.diff: exit 0, '$clean_line'"

# === 2. pristine tree, no --patch ====================================================
rm -rf applied && cp -a pristine applied
"$muhpatch" apply rules.yaml applied 2>/dev/null || fail "apply failed"
# Without --explain each drift error is one line; --explain adds its derivation.
mp rules.yaml tree
[[ $code -eq 1 && -z $out ]] && ! grep -q '^ ' mp.err ||
  { printf '%s\n' "$err" >&2; fail "pristine, no --patch, no --explain: exit $code (expected 1), or a derivation printed"; }
mp rules.yaml tree --explain
[[ $code -eq 1 && -z $out ]] || { printf '%s\n' "$err" >&2; fail "pristine, no --patch: exit $code (expected 1), stdout '$out'"; }
drift_last="verify: drift: $n_files file$([[ $n_files -eq 1 ]] || echo s) would change"
python3 check.py blocks mp.err notes.txt "$drift_last" >drift.txt ||
  { printf '%s\n' "$err" >&2; fail "pristine, no --patch: stderr is not notes + drift errors with derivations + '$drift_last'"; }
n_sites=$(NEXT_APPLY=$next_apply python3 check.py sites pristine applied drift.txt) ||
  { cat drift.txt >&2; fail "pristine, no --patch: the drift errors are not the edits apply makes"; }
# (At least one per rule to apply: the tier family rewrites several sites.)
[[ $n_sites -ge $to_apply ]] || fail "pristine, no --patch: $n_sites drift errors, but $to_apply rules to apply"
while read -r id; do
  [[ -n $(rule_line "$id") ]] || fail "a drift error names '$id', not a rule of rules.yaml"
done < <(sed -E "s/^[^']*rule '([^']+)'.*/\\1/" drift.txt)
cp mp.err drift.err
ok "2. pristine, no --patch: exit 1, $n_sites drift errors (each made at its line:col gives what apply writes), each with a derivation, then '$drift_last'"
sed 's/^/     /' drift.txt

# === 3. patched tree ================================================================
fresh patched
mp rules.yaml tree
expect "patched, no --patch" 0 "" "$(lines "$notes" "$summary_line" "verify: clean: nothing left to change ($summary_patched)")"
mp rules.yaml tree --patch committed.diff
expect "patched --patch committed.diff" 0 "" \
  "$(lines "$notes" "$summary_line" "verify: clean: committed.diff is applied and the rules reproduce it ($summary_patched)")"
ok "3. after apply: exit 0 without --patch and with committed.diff ($summary_patched)"

# === 4. patched tree, a `+` line of the patch hand-edited ================================
for which in first last; do
  n=$(edit_line committed.diff "$which" + plus.diff)
  read -r hl hn f _ new_line < <(hunk_at plus.diff "$n") || fail "line $n of plus.diff is not in a hunk"
  mp rules.yaml tree --patch plus.diff
  [[ $code -eq 1 && -z $out ]] &&
    grep -q "^tree/$f:$new_line: error: drift: hunk $hn of $f (plus.diff:$hl) no longer applies in reverse: its lines are at lines [0-9]*-[0-9]* now (the hunk says [0-9]*), where line $new_line is '.*' and the hunk has '.*987654.*' (a line it changes differs); next: $next_status\$" mp.err &&
    [[ $(tail -n 1 mp.err) == "$(no_longer plus.diff reverse "$next_status" unpatched)" ]] ||
    { printf '%s\n' "$err" >&2; fail "patched --patch plus.diff ($which '+' line): expected exit 1, hunk $hn at tree/$f:$new_line, in reverse"; }
  ok "4. after apply, patch with its $which '+' line edited (line $n): exit 1, hunk $hn of $f (plus.diff:$hl), in reverse, at tree/$f:$new_line"
done

# === 5. pristine tree, a `-` line of the patch hand-edited ===============================
fresh
for which in first last; do
  n=$(edit_line committed.diff "$which" - minus.diff)
  read -r hl hn f old_line _ < <(hunk_at minus.diff "$n") || fail "line $n of minus.diff is not in a hunk"
  mp rules.yaml tree --patch minus.diff
  [[ $code -eq 1 && -z $out ]] &&
    grep -q "^tree/$f:$old_line: error: drift: hunk $hn of $f (minus.diff:$hl) no longer applies: its lines are at lines [0-9]*-[0-9]* now (the hunk says [0-9]*), where line $old_line is '.*' and the hunk has '.*987654.*' (a line it changes differs); next: $(refresh minus.diff)\$" mp.err &&
    [[ $(tail -n 1 mp.err) == "$(no_longer minus.diff)" ]] ||
    { printf '%s\n' "$err" >&2; fail "pristine --patch minus.diff ($which '-' line): expected exit 1, hunk $hn at tree/$f:$old_line"; }
  ok "5. pristine, patch with its $which '-' line edited (line $n): exit 1, hunk $hn of $f (minus.diff:$hl) at tree/$f:$old_line"
done

# === 6. stale patches ===================================================================
drift_body=$(sed '$d' drift.err)
# Generated with an override, verified without it, on the pristine tree.
"$muhpatch" diff rules.yaml tree --set smem_per_block=65536 >ov.diff 2>/dev/null || fail "diff --set failed"
cmp -s ov.diff committed.diff && fail "--set smem_per_block=65536 does not change the diff; pick another override"
mp rules.yaml tree --patch ov.diff
expect "pristine --patch ov.diff" 1 "" "$(lines "$notes" "$(stale_rule ov.diff vllm/_custom_ops.py 294 custom-ops-smem-limit "'    return 64 * 1024'" "'    return 48 * 1024'")" "$summary_line" "verify: drift: ov.diff is stale: $(stale_tail ov.diff)")"
mp -v rules.yaml tree --patch ov.diff
stale_stdout ov.diff committed.diff "pristine --patch ov.diff -v"
mp rules.yaml tree --patch ov.diff --set smem_per_block=65536
[[ $code -eq 0 && -z $out && $(tail -n 1 mp.err) =~ ^"verify: clean: ov.diff matches the rules "$summary_re ]] ||
  { printf '%s\n%s\n' "$out" "$err" >&2; fail "pristine --patch ov.diff --set smem_per_block=65536: exit $code, expected 0 and 'matches the rules'"; }
ok "6. pristine, patch made with --set smem_per_block=65536, verified without: exit 1, the rule's line named, then 'is stale'; -v's stdout turns ov.diff into the regenerated patch; with the --set: exit 0"

# A `+` line hand-edited, on the pristine tree: it applies forwards but differs.
edit_line committed.diff first + plus.diff >/dev/null
mp rules.yaml tree --patch plus.diff
expect "pristine --patch plus.diff" 1 "" "$(lines "$notes" "$(stale_rule plus.diff vllm/_custom_ops.py 294 custom-ops-smem-limit "'    return 987654 * 1024'" "'    return 48 * 1024'")" "$summary_line" "verify: drift: plus.diff is stale: $(stale_tail plus.diff)")"
mp -v rules.yaml tree --patch plus.diff
stale_stdout plus.diff committed.diff "pristine --patch plus.diff -v"
ok "6. pristine, patch with a '+' line edited: exit 1, stale, the rule's line named; -v's stdout turns plus.diff into the regenerated patch"

# A patched tree whose committed patch also rewrites a comment the rules never
# touch: it undoes cleanly, but the rules do not reproduce it.
python3 - committed.diff extra.diff <<'PY' || fail "could not add a hunk line to the patch"
import sys
lines = open(sys.argv[1], 'rb').read().split(b'\n')
for i, l in enumerate(lines):
    if l.startswith(b' ') and l.lstrip().startswith(b'#'):
        body, cr = (l[1:-1], b'\r') if l.endswith(b'\r') else (l[1:], b'')
        lines[i:i + 1] = [b'-' + body + cr, b'+' + body + b' (edited)' + cr]
        break
else:
    sys.exit('no comment context line')
open(sys.argv[2], 'wb').write(b'\n'.join(lines))
PY
rm -rf tree && cp -a pristine tree
(cd tree && patch -p1 --batch --silent --no-backup-if-mismatch <../extra.diff >/dev/null) || fail "patch -p1 rejects extra.diff"
snap
"$muhpatch" diff rules.yaml tree >/dev/null 2>diff.err || fail "diff on the tree patched with extra.diff failed"
take_notes
mp rules.yaml tree
expect "tree patched with extra.diff, no --patch" 0 "" "$(lines "$notes" "$summary_line" "verify: clean: nothing left to change ($summary_patched)")"
mp rules.yaml tree --patch extra.diff
expect "tree patched with extra.diff --patch extra.diff" 1 "" "$(lines "$notes" "$summary_line" "verify: drift: extra.diff is stale: $(stale_tail extra.diff "$(base_refresh extra.diff)")")"
mp -v rules.yaml tree --patch extra.diff
stale_stdout extra.diff committed.diff "tree patched with extra.diff --patch extra.diff -v"
ok "6. patched tree, patch with a hunk line the rules do not make: exit 1, stale (no rule's line differs); -v's stdout turns it into the reproduced patch"

# Patched with the override, verified without it against the override's patch:
# ov.diff does not apply forwards (the tree is patched), undoes cleanly, and
# the rules then reproduce committed.diff, not ov.diff: stale. With the
# override, it is clean.
fresh patched --set smem_per_block=65536
# The override's values are ov.diff's `+` lines: with --patch ov.diff they
# are muhpatch's own, not hand-tuned (diff's notes the same way).
"$muhpatch" diff rules.yaml tree --patch ov.diff 2>diff.err >/dev/null || true
take_notes
mp rules.yaml tree --patch ov.diff
expect "patched with the override --patch ov.diff" 1 "" "$(lines "$notes" "$(stale_rule ov.diff vllm/_custom_ops.py 294 custom-ops-smem-limit "'    return 64 * 1024'" "'    return 48 * 1024'" "$(base_refresh ov.diff)")" "$summary_line" "verify: drift: ov.diff is stale: $(stale_tail ov.diff "$(base_refresh ov.diff)")")"
mp -v rules.yaml tree --patch ov.diff
stale_stdout ov.diff committed.diff "patched with the override --patch ov.diff -v"
# (With the override, the values in place are the model's: no hand-tuned warnings.)
"$muhpatch" diff rules.yaml tree --set smem_per_block=65536 2>diff.err >/dev/null || true
take_notes
mp rules.yaml tree --patch ov.diff --set smem_per_block=65536
expect "patched with the override --patch ov.diff --set smem_per_block=65536" 0 \
  "" "$(lines "$notes" "$summary_line" "verify: clean: ov.diff is applied and the rules reproduce it ($summary_patched)")"
ok "6. patched with --set smem_per_block=65536, verified without it against ov.diff: exit 1, stale, the rule's line named; -v's stdout turns ov.diff into committed.diff; with the --set: exit 0"

# === 7. a value hand-edited after apply ===================================================
fresh patched
smem_re="^    return [0-9]+ \\* 1024"$'\r'"\$"
[[ $(grep -Ec "$smem_re" "tree/$crlf_file") -eq 1 ]] || fail "no unique 'return N * 1024' line in $crlf_file after apply"
l=$(grep -En "$smem_re" "tree/$crlf_file" | cut -d: -f1)
line=$(sed -n "${l}p" "tree/$crlf_file")
derived=$(printf '%s' "$line" | sed -E 's/^    return ([0-9]+ \* 1024)\r$/\1/')
new=40
[[ $derived == "$new * 1024" ]] && new=36
col=$(printf '%s' "$line" | awk '{print match($0, /[0-9]/)}')
python3 - "tree/$crlf_file" "$l" "$new" <<'PY' || fail "could not hand-edit $crlf_file"
import re, sys
path, n, new = sys.argv[1], int(sys.argv[2]), sys.argv[3].encode()
lines = open(path, 'rb').read().split(b'\n')
lines[n - 1] = re.sub(rb'\d+', new, lines[n - 1], count=1)
data = b'\n'.join(lines)
assert data.count(b'\n') == data.count(b'\r\n'), 'lost CRLF'
open(path, 'wb').write(data)
PY
[[ $(diff "snapshot/$crlf_file" "tree/$crlf_file" | grep -c '^[<>]') -eq 2 ]] ||
  fail "the hand-edit of $crlf_file changed more than line $l"
snap
# The rule states upstream's value: a value that is neither it nor the
# model's is hand-tuned. diff keeps it and says so; verify, without the
# patch to tell when the value changed, does the same and finds nothing
# left to change (issue 25: the maintainers' values win over the model's).
"$muhpatch" diff rules.yaml tree >kept.diff 2>notes.txt || fail "diff after the hand edit failed"
notes=$(cat notes.txt)
grep -qF "tree/$crlf_file:$l:$col: note: rule 'custom-ops-smem-limit' keeps '$new * 1024', a hand-tuned value: neither upstream's '32 * 1024' nor the model's '$derived'" notes.txt ||
  { cat notes.txt >&2; fail "diff does not say it keeps the hand-tuned smem limit"; }
[[ -s kept.diff ]] && fail "diff rewrites the hand-tuned smem limit"
want="tree/$crlf_file:$l:$col: error: drift: rule 'custom-ops-smem-limit' finds '$new * 1024', a hand-edited value (upstream's is '32 * 1024', the model derives '$derived'); next: $next_apply"
mp rules.yaml tree
[[ $code -eq 0 && -z $out && $(tail -n 1 mp.err) == "verify: clean: nothing left to change ("*", 1 hand-tuned site kept)" ]] ||
  { printf '%s\n' "$err" >&2; fail "hand-edited smem limit: exit $code (expected 0, the note, 'nothing left to change')"; }
ok "7. after apply, '$new * 1024' written over '$derived': diff keeps it with a note; verify: exit 0, nothing left to change"
# --retune overwrites it, as before: diff warns, verify calls it hand-edited.
"$muhpatch" diff --retune rules.yaml tree >/dev/null 2>diff.err || fail "diff --retune after the hand edit failed"
take_notes
grep -qF "warning: rule 'custom-ops-smem-limit' replaces '$new * 1024', which is neither upstream's '32 * 1024' nor the model's '$derived': a hand-tuned value is overwritten" notes.txt ||
  { cat notes.txt >&2; fail "diff --retune does not warn about the hand-tuned smem limit"; }
mp rules.yaml tree --retune --explain
[[ $code -eq 1 && -z $out ]] || { printf '%s\n' "$err" >&2; fail "hand-edited smem limit --retune: exit $code (expected 1), stdout '$out'"; }
got=$(python3 check.py blocks mp.err notes.txt "verify: drift: 1 file would change") ||
  { printf '%s\n' "$err" >&2; fail "hand-edited smem limit --retune: stderr is not notes + one drift error with derivation + 'verify: drift: 1 file would change'"; }
[[ $got == "$want" ]] || { diff -u <(printf '%s\n' "$want") <(printf '%s\n' "$got") >&2 || true; fail "hand-edited smem limit --retune: wrong drift error"; }
ok "7. ... with --retune: exit 1, '$want' + derivation"
mp rules.yaml tree --patch committed.diff
# The edited line is one the patch wrote, so the patch undoes no more: the
# failing hunk names the edited line. The rule, which rewrote when the patch
# was made, now keeps a hand-tuned value: the state check says so too.
[[ $code -eq 1 ]] && grep -q "^tree/$crlf_file:$l: error: drift: hunk [0-9]* of $crlf_file (committed.diff:[0-9]*) no longer applies in reverse: its lines are at lines [0-9]*-[0-9]* now (the hunk says [0-9]*), where line $l is '    return $new \* 1024' and the hunk has '    return ${derived//\*/\\*}' (a line it changes differs); next: muhpatch " mp.err &&
  grep -qF "${want%%; next: *}" mp.err &&
  grep -q "^tree/$crlf_file:$l:$col: error: drift: rule 'custom-ops-smem-limit' was 'rewrites' when committed.diff was made and is 'hand-tuned' now" mp.err &&
  [[ $(tail -n 1 mp.err) == "verify: drift: committed.diff was made while rules were in another state"* ]] ||
  { printf '%s\n' "$err" >&2; fail "hand-edited smem limit --patch committed.diff: expected exit 1, the failing hunk at line $l and 'no longer applies'"; }
ok "7. ... with --patch committed.diff: exit 1, the rule's state, the hunk that no longer applies (in reverse) at the edited line, and the site's value"
# An edit elsewhere (a line the patch does not touch, inside a patched file's
# context-free region): the patch still undoes, so verify names the site.
fresh patched
sed -i "0,/^\( *config\['BLOCK_SIZE_M'\]\) = 16$/s//\1 = 24/" tree/vllm/model_executor/layers/fused_moe/fused_moe.py
grep -q "config\['BLOCK_SIZE_M'\] = 24" tree/vllm/model_executor/layers/fused_moe/fused_moe.py || fail "could not edit the MoE tier"
snap
mp rules.yaml tree --patch committed.diff
if grep -q "is applied, but the tree was edited since" mp.err; then
  grep -q "^tree/vllm/model_executor/layers/fused_moe/fused_moe.py:[0-9]*:[0-9]*: error: drift: rule 'fused-moe-tier-[a-z]*' finds '24'" mp.err ||
    { printf '%s\n' "$err" >&2; fail "edited tier: the site is not named"; }
  ok "7. edited MoE tier after apply, --patch: exit $code, 'is applied, but the tree was edited since' with the site"
else
  [[ $code -eq 1 ]] || { printf '%s\n' "$err" >&2; fail "edited tier: exit $code"; }
  ok "7. edited MoE tier after apply, --patch: exit 1 ($(tail -n 1 mp.err))"
fi

# === 8. a knob line deleted from a pristine copy ==============================================
fresh
[[ $(grep -c '^        NUM_WARPS = ' "tree/$pp_file") -eq 1 ]] || fail "no unique NUM_WARPS line in $pp_file"
python3 - "tree/$pp_file" <<'PY' || fail "could not delete the NUM_WARPS line"
import sys
path = sys.argv[1]
data = open(path, 'rb').read()
lines = data.split(b'\n')
keep = [l for l in lines if not l.startswith(b'        NUM_WARPS = ')]
assert len(keep) == len(lines) - 1
open(path, 'wb').write(b'\n'.join(keep))
PY
snap
# The error is at NUM_WARPS's use, and says no value reaches it below SM80.
want_re="^tree/$pp_file:[0-9]+:[0-9]+: error: rule 'prefix-prefill-num-warps': NUM_WARPS is read here, but assigned nowhere before on the path where \`current_platform.has_device_capability\\(80\\)\` is false in context_attention_fwd"
want="prefix-prefill-num-warps: NUM_WARPS read at its use, assigned nowhere before"
# Every check runs: the missing site, and then what the others find (the
# sites still to rewrite, or the committed patch's hunk that lost its line).
for patch_args in "" "--patch committed.diff"; do
  # shellcheck disable=SC2086
  mp rules.yaml tree $patch_args
  [[ $code -eq 1 && -z $out ]] && grep -qE "$want_re" mp.err &&
    [[ $(tail -n 1 mp.err) == "verify: drift: the rules no longer apply cleanly to tree" ]] ||
    { printf '%s\n' "$err" >&2; fail "NUM_WARPS deleted ${patch_args:-(no --patch)}: expected exit 1, '$want' and the verdict"; }
done
grep -q "^tree/$pp_file:[0-9]*: error: drift: hunk [0-9]* of $pp_file (committed.diff:[0-9]*) no longer applies: " mp.err ||
  { printf '%s\n' "$err" >&2; fail "NUM_WARPS deleted --patch committed.diff: the failing hunk is not named"; }
ok "8. NUM_WARPS deleted: exit 1 with and without --patch, '$want', and with --patch the hunk that lost its line"

# === 9. the smem function duplicated ==========================================================
fresh
python3 - "tree/$crlf_file" "$smem_fn" <<'PY' || fail "could not duplicate $smem_fn"
import sys
path, fn = sys.argv[1], sys.argv[2].encode()
data = open(path, 'rb').read()
lines = data.split(b'\r\n')
start = next(i for i, l in enumerate(lines) if l.startswith(b'def ' + fn + b'('))
end = start + 1
while end < len(lines) and (lines[end].startswith(b' ') or lines[end] == b''):
    end += 1
while lines[end - 1] == b'':
    end -= 1
block = lines[start:end]
assert data.endswith(b'\r\n'), 'no final CRLF'
open(path, 'wb').write(data + b'\r\n\r\n' + b'\r\n'.join(block) + b'\r\n')
PY
snap
mapfile -t defs < <(grep -n "^def $smem_fn(" "tree/$crlf_file" | cut -d: -f1)
[[ ${#defs[@]} -eq 2 ]] || fail "expected two definitions of $smem_fn"
# The sites are the values the rule rewrites: each definition's `return N * 1024`.
mapfile -t vals < <(grep -n "^    return [0-9]* \* 1024" "tree/$crlf_file" | cut -d: -f1)
[[ ${#vals[@]} -eq 2 ]] || fail "expected two 'return N * 1024' lines"
col=$(awk -v l="${vals[1]}" 'NR == l {print match($0, /[0-9]/)}' "tree/$crlf_file")
want="tree/$crlf_file:${vals[1]}:$col: error: rule 'custom-ops-smem-limit' expects 1 match in $crlf_file, found 2 (at lines ${vals[0]}, ${vals[1]}); next: $next_status --rule custom-ops-smem-limit"
for patch_args in "" "--patch committed.diff"; do
  # shellcheck disable=SC2086
  mp rules.yaml tree $patch_args
  # (With --patch, the patch the rules make without the failing rule is
  # also shown as stale, on stdout.)
  [[ $code -eq 1 ]] && grep -qxF "$want" mp.err &&
    [[ $(tail -n 1 mp.err) == "verify: drift: the rules no longer apply cleanly to tree" ]] ||
    { printf '%s\n' "$err" >&2; fail "$smem_fn duplicated ${patch_args:-(no --patch)}: expected exit 1, '$want' and the verdict"; }
done
ok "9. $smem_fn duplicated: exit 1 with and without --patch, '$want'"

# The same function copied into a file outside the rule's files.
fresh
copy_file=vllm/lora/ops/sgmv_shrink.py
grep -q "$smem_fn" "tree/$copy_file" && fail "$copy_file already mentions $smem_fn"
python3 - "tree/$crlf_file" "tree/$copy_file" "$smem_fn" <<'PY' || fail "could not copy $smem_fn into $copy_file"
import sys
src, dst, fn = sys.argv[1], sys.argv[2], sys.argv[3].encode()
lines = open(src, 'rb').read().split(b'\r\n')
start = next(i for i, l in enumerate(lines) if l.startswith(b'def ' + fn + b'('))
end = start + 1
while end < len(lines) and (lines[end].startswith(b' ') or lines[end] == b''):
    end += 1
while lines[end - 1] == b'':
    end -= 1
data = open(dst, 'rb').read()
assert data.endswith(b'\n') and b'\r' not in data, 'expected an LF file with a final newline'
open(dst, 'wb').write(data + b'\n\n' + b'\n'.join(lines[start:end]) + b'\n')
PY
snap
l=$(grep -n "^def $smem_fn(" "tree/$copy_file" | cut -d: -f1)
col=$(awk -v l="$l" -v f="$smem_fn" 'NR == l {print index($0, f)}' "tree/$copy_file")
want="tree/$copy_file:$l:$col: error: drift: rule 'custom-ops-smem-limit' matches here, outside its files: a moved or copied knob (list the path under 'also-matches' if it belongs here); next: $next_status --rule custom-ops-smem-limit"
for patch_args in "" "--patch committed.diff"; do
  # shellcheck disable=SC2086
  mp rules.yaml tree $patch_args
  [[ $code -eq 1 && -z $out ]] && grep -qxF "$want" mp.err &&
    [[ $(tail -n 1 mp.err) == "verify: drift: a knob was moved or copied outside its rule's files in tree" ]] ||
    { printf '%s\n' "$err" >&2; fail "$smem_fn copied into $copy_file ${patch_args:-(no --patch)}: expected exit 1, '$want' and the verdict"; }
done
ok "9. $smem_fn copied into $copy_file: exit 1 with and without --patch, '$want'"

# A knob of a rule a precondition gates, copied outside its files: no drift
# while the precondition skips the rule (it manages nothing), a `foreign`
# finding once paged_attention_v2 has a body (verify searches such rules
# only after the plan has said they run).
gated_copy=vllm/lora/ops/sgmv_shrink.py
fresh
printf '\n_PARTITION_SIZE = 512\n' >>"tree/$gated_copy"
snap
mp rules.yaml tree --patch committed.diff
[[ $code -eq 0 ]] && ! grep -q "outside its files" mp.err ||
  { printf '%s\n' "$err" >&2; fail "_PARTITION_SIZE copied into $gated_copy, rule skipped: expected exit 0 and no foreign finding"; }
python3 "$repo/fixtures/evolution/precondition_true/evolve.py" tree
snap
l=$(grep -n "^_PARTITION_SIZE = 512" "tree/$gated_copy" | cut -d: -f1)
want="tree/$gated_copy:$l:1: error: drift: rule 'paged-attn-partition-size' matches here, outside its files: a moved or copied knob (list the path under 'also-matches' if it belongs here); next: $next_status --rule paged-attn-partition-size"
mp rules.yaml tree --patch committed.diff
[[ $code -eq 1 ]] && grep -qxF "$want" mp.err ||
  { printf '%s\n' "$err" >&2; fail "_PARTITION_SIZE copied into $gated_copy, v2 implemented: expected exit 1 and '$want'"; }
ok "9. _PARTITION_SIZE copied into $gated_copy: no drift while its rule is skipped, '$want' once v2 has a body"

# === 10. bad --patch files ====================================================================
printf 'hello\n' >bad.diff
sed "s#a/$crlf_file#a/vllm/nothere.py#; s#b/$crlf_file#b/vllm/nothere.py#" committed.diff >nf.diff
for state in pristine patched; do
  if [[ $state == pristine ]]; then fresh; else fresh patched; fi
  mp rules.yaml tree --patch nope.diff
  expect "$state, missing --patch" 2 "" "$(lines "nope.diff: error: cannot open (No such file or directory)")"
  mp rules.yaml tree --patch "$scratch/nope.diff"
  expect "$state, missing absolute --patch" 2 "" "$(lines "$scratch/nope.diff: error: cannot open (No such file or directory)")"
  mp rules.yaml tree --patch bad.diff
  expect "$state, malformed --patch" 2 "" "$(lines "bad.diff:1:1: error: malformed patch: no file in it (neither 'diff --git' nor a '---'/'+++' pair before '@@')")"
  mp rules.yaml tree --patch nf.diff
  nf_next=$(refresh nf.diff)
  [[ $state == patched ]] && nf_next=$(refresh_empties nf.diff)
  expect "$state, --patch naming a missing file" 1 "" "$(lines "$notes" \
    "tree/vllm/nothere.py: error: no such file in the tree; next: $nf_next" "$summary_line" \
    "verify: drift: nf.diff names a file the tree does not have; next: $nf_next")"
  ok "10. $state tree: missing --patch file (relative, absolute) and malformed one: exit 2, named as given; a patch naming a file the tree lacks: exit 1"
done

# === 11 ===========================================================================================
[[ -z $(ls -A tmp) ]] || fail "files left in TMPDIR: $(ls -A tmp)"
ok "11. none of the $runs verify runs wrote to the tree or left a file behind (TMPDIR included)"
