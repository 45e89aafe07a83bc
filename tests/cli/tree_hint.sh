#!/usr/bin/env bash
# TREE is the folder that holds vllm/. Named the package itself (a path
# ending in `vllm`), every command fails with exit 2, and after the "not in
# the tree" errors one note names the folder meant, as the user would type
# it. A tree that holds vllm/ but lacks the files gets no such note.
#
# Usage: tree_hint.sh MUHPATCH
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: tree_hint: $*" >&2; exit 1; }
ok() { echo "ok $*"; }

cp -a "$repo/fixtures/enginex-vllm" "$scratch/enginex-vllm"
cp "$repo/rules/bi100.yaml" "$scratch/rules.yaml"
cd "$scratch"

# hint_is DIR TREE WANT CMD: from DIR, `muhpatch CMD RULES TREE` exits 2,
# prints nothing on stdout, and its last stderr line is WANT.
hint_is() {
  local dir=$1 tree=$2 want=$3 cmd=$4 code=0
  (cd "$dir" && "$muhpatch" "$cmd" "$scratch/rules.yaml" "$tree") >out 2>err || code=$?
  [[ $code -eq 2 ]] || fail "$cmd $tree from $dir: exit $code, expected 2"
  [[ ! -s out ]] || fail "$cmd $tree from $dir printed on stdout"
  grep -q "is not in the tree$" err || fail "$cmd $tree from $dir: no 'not in the tree' error"
  [[ $(tail -n 1 err) == "$want" ]] || fail "$cmd $tree from $dir: last line '$(tail -n 1 err)', expected '$want'"
}

for cmd in diff apply verify status; do
  hint_is . enginex-vllm/vllm "enginex-vllm/vllm: note: TREE is the folder that holds vllm/; did you mean 'enginex-vllm'?" $cmd
done
ok "diff, apply, verify, status on enginex-vllm/vllm: exit 2, the note names enginex-vllm"
hint_is . ./enginex-vllm/vllm/ "./enginex-vllm/vllm/: note: TREE is the folder that holds vllm/; did you mean './enginex-vllm'?" diff
hint_is enginex-vllm/vllm . ".: note: TREE is the folder that holds vllm/; did you mean '..'?" diff
hint_is enginex-vllm vllm "vllm: note: TREE is the folder that holds vllm/; did you mean '.'?" diff
hint_is . "$scratch/enginex-vllm/vllm" "$scratch/enginex-vllm/vllm: note: TREE is the folder that holds vllm/; did you mean '$scratch/enginex-vllm'?" diff
ok "the folder meant is spelled as the user spelled TREE: ./enginex-vllm, .., ., an absolute path"
diff -r "$repo/fixtures/enginex-vllm" enginex-vllm >/dev/null || fail "a run changed the tree"

# The right TREE, with one knob file gone: the errors, and no note.
rm enginex-vllm/vllm/attention/ops/prefix_prefill.py
code=0
"$muhpatch" diff rules.yaml enginex-vllm >out 2>err || code=$?
[[ $code -eq 2 ]] || fail "diff with a file missing: exit $code, expected 2"
grep -q "file 'vllm/attention/ops/prefix_prefill.py' is not in the tree" err || fail "no error for the missing file"
! grep -q "TREE is the folder" err || fail "a tree that holds vllm/ got the note"
# Named vllm, holding no vllm/ and nothing the rules name: the note.
mkdir -p other/vllm
code=0
"$muhpatch" diff rules.yaml other/vllm >out 2>err || code=$?
[[ $code -eq 2 && $(tail -n 1 err) == "other/vllm: note: TREE is the folder that holds vllm/; did you mean 'other'?" ]] ||
  fail "an empty folder named vllm: exit $code, last line '$(tail -n 1 err)'"
ok "no note when TREE holds vllm/; a note for any folder named vllm that holds none"
