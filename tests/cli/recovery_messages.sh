#!/usr/bin/env bash
# What muhpatch says about an apply that was killed (MUHPATCH_TEST_KILL_AT,
# as kill_apply.sh), on copies of the fixture tree:
#   - diff, status and verify each warn of the journal left behind, exactly,
#     and change nothing;
#   - the next apply says what its recovery did (a note, no -v needed);
#   - a file a person edited between the crash and the next run stops every
#     apply with exit 2, naming the file and the two commands out; each of
#     them, run as printed, lets the next apply through;
#   - a corrupted journal is exit 2 (bad input), and the command it prints
#     clears it.
#
# Usage: recovery_messages.sh MUHPATCH
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: recovery_messages: $*" >&2; exit 1; }
ok() { echo "ok $*"; }
cd "$scratch"
cp "$repo/rules/bi100.yaml" rules.yaml
cp -a "$repo/fixtures/enginex-vllm" pristine
mapfile -t targets < <(cd pristine && "$muhpatch" diff ../rules.yaml . 2>/dev/null | sed -n 's|^+++ b/||p')
[[ ${#targets[@]} -ge 2 ]] || fail "the fixture tree needs two files to rewrite"

# crashed DIR: DIR, a copy of the tree whose apply was killed after its
# first rename; prints the path of the file it replaced.
crashed() {
  local k t
  for ((k = 1; k <= 4 * ${#targets[@]}; k++)); do
    rm -rf "$1" && cp -a pristine "$1"
    # (a subshell that outlives the kill, so that no shell reports it)
    (MUHPATCH_TEST_KILL_AT=$k "$muhpatch" apply rules.yaml "$1" >/dev/null 2>&1 || true) 2>/dev/null
    grep -qx 'state committing' "$1/.muhpatch-journal" 2>/dev/null || continue
    for t in "${targets[@]}"; do
      if ! cmp -s "pristine/$t" "$1/$t"; then echo "$t"; return 0; fi
    done
  done
  fail "no kill point leaves a renamed file"
}

# --- readers warn of the journal, and change nothing ---------------------------
crashed tree >/dev/null
cp -a tree before
n=${#targets[@]}
warning="tree/.muhpatch-journal: warning: an apply was interrupted here ($n files: some may hold their new content); this run reads the files as they are; the next apply finishes or rolls it back first"
for cmd in diff status verify; do
  set +e
  "$muhpatch" "$cmd" rules.yaml tree >/dev/null 2>err
  set -e
  [[ $(head -1 err) == "$warning" ]] || { cat err >&2; fail "$cmd: the first stderr line is not the journal's warning"; }
  [[ $(grep -c 'muhpatch-journal' err) -eq 1 ]] || fail "$cmd: the warning is not said once"
  diff -r before tree >/dev/null || fail "$cmd changed the tree"
  ok "$cmd warns of the interrupted apply's journal and changes nothing"
done
"$muhpatch" -q status rules.yaml tree >/dev/null 2>err
[[ $(cat err) == "$warning" ]] || fail "-q status: the warning is not kept"
ok "-q keeps the warning"

# --- apply says what its recovery did ------------------------------------------
"$muhpatch" apply rules.yaml tree >/dev/null 2>err || { cat err >&2; fail "apply after the crash failed"; }
grep -qxE "tree/.muhpatch-journal: note: (completed|rolled back) an apply that was interrupted \($n files\)" err ||
  { cat err >&2; fail "apply does not say what its recovery did"; }
[[ ! -e tree/.muhpatch-journal ]] || fail "the journal is left after the recovery"
ok "apply says what its recovery did: $(grep -o '\(completed\|rolled back\) an apply[^(]*' err)"

# --- a person's edit after the crash: named, with the ways out -------------------
for way in rm mv; do
  edited=$(crashed t)
  echo "# a person's edit" >>"t/$edited"
  cp "t/$edited" person.py
  for run in 1 2; do
    set +e
    "$muhpatch" apply rules.yaml t >/dev/null 2>err
    code=$?
    set -e
    [[ $code -eq 2 ]] || { cat err >&2; fail "$way: apply $run after a person's edit exited $code, expected 2"; }
    line=$(grep "^t/$edited: error: changed since an apply was interrupted, so it is left as it is, and every apply stops here until you choose: to keep it as it is now, rm '" err) ||
      { cat err >&2; fail "$way: apply $run does not name the file and the ways out"; }
    cmp -s person.py "t/$edited" || fail "$way: apply $run changed the person's edit"
  done
  # The command as printed: `rm 'B'` or `mv 'B' 'T'`.
  if [[ $way == rm ]]; then
    command=$(sed -n "s/.*to keep it as it is now, \(rm '[^']*'\);.*/\1/p" <<<"$line")
  else
    command=$(sed -n "s/.*before that apply, \(mv '[^']*' '[^']*'\)$/\1/p" <<<"$line")
  fi
  [[ -n $command ]] || fail "$way: no command in '$line'"
  eval "$command"
  "$muhpatch" apply rules.yaml t >/dev/null 2>err || { cat err >&2; fail "$way: apply after '$command' failed"; }
  if [[ $way == rm ]]; then
    grep -qF "# a person's edit" "t/$edited" || fail "rm: the person's edit is gone"
  fi
  [[ -z $(find t -name '*.muhpatch-tmp.*') && ! -e t/.muhpatch-journal ]] || fail "$way: muhpatch's files are left"
  ok "a person's edit after a crash: apply exits 2 twice naming $edited; '$way' as printed clears it"
done

# --- a corrupted journal -----------------------------------------------------------
rm -rf c && cp -a pristine c
printf 'muhpatch-journal 1\nstate sideways\n' >c/.muhpatch-journal
set +e
"$muhpatch" apply rules.yaml c >/dev/null 2>err
code=$?
set -e
[[ $code -eq 2 ]] || { cat err >&2; fail "a corrupted journal: exit $code, expected 2"; }
command=$(sed -n "s/^c\/.muhpatch-journal: error: cannot read the journal of an interrupted apply: .*; muhpatch changes nothing while it is there. Once the files it names hold what you want, \(rm '[^']*'\) and run apply again$/\1/p" err)
[[ -n $command ]] || { cat err >&2; fail "a corrupted journal: no command to clear it"; }
diff -r -x .muhpatch-journal pristine c >/dev/null || fail "a corrupted journal: apply changed the tree"
eval "$command"
"$muhpatch" apply rules.yaml c >/dev/null 2>err || { cat err >&2; fail "apply after '$command' failed"; }
ok "a corrupted journal: exit 2, and '$command' as printed clears it"

# A journal naming a file under a directory that is now a symlink out of
# the tree (a helper probe of 3cee5a3: recovery renamed a staged file over
# one outside it): exit 2, nothing outside touched.
rm -rf j outside && mkdir -p j/vllm outside && printf 'X = 1\n' >j/vllm/k.py
echo precious >outside/x.py
printf 'EVIL\n' >outside/.x.py.muhpatch-tmp.1.new
cp outside/x.py outside/.x.py.muhpatch-tmp.1.old
ln -s ../../outside j/vllm/d
python3 - <<'PY'
def fnv(b):
    h = 14695981039346656037
    for c in b:
        h = ((h ^ c) * 1099511628211) & 0xffffffffffffffff
    return "%016x" % h
old = open("outside/x.py", "rb").read()
new = open("outside/.x.py.muhpatch-tmp.1.new", "rb").read()
open("j/.muhpatch-journal", "w").write(
    "muhpatch-journal 1\nstate committing\nfile vllm/d/x.py vllm/d/.x.py.muhpatch-tmp.1.new "
    "vllm/d/.x.py.muhpatch-tmp.1.old %d %s %d %s\nend\n" % (len(old), fnv(old), len(new), fnv(new)))
PY
code=0
"$muhpatch" apply rules.yaml j >/dev/null 2>err || code=$?
[[ $code -eq 2 ]] || { cat err >&2; fail "a journal through a symlink out of the tree: exit $code, expected 2"; }
grep -qF "whose directory now resolves outside the tree" err || { cat err >&2; fail "a journal through a symlink: no reason"; }
[[ $(cat outside/x.py) == precious ]] || fail "a journal through a symlink: the file outside changed"
ok "a journal naming a file through a symlink out of the tree: exit 2, nothing outside touched"
