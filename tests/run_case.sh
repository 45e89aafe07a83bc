#!/usr/bin/env bash
# Golden test for one case folder: fixtures/cases/NAME/ holds
#   tree/            the input tree (or tree.link: a path to another case's tree/)
#   overlay.link     files from other cases' trees to add (one repo path a line)
#   rules.yaml       the rules (or rules.link: a path to a rule file, from the repo root)
#   expected.diff    what `muhpatch diff` prints on stdout
#   expected.stderr  what it prints on stderr (diagnostics only)
#   expected.exit    its exit code (absent: 0)
#   args             extra arguments for muhpatch, e.g. `--rule ID` (optional)
#   setup.sh         run inside the scratch copy before the test (optional)
# The case runs in a scratch copy, from inside it, so messages show
# `tree/...` paths. Then `apply` runs on the copy: on success its result must
# equal the diff applied with `git apply`, `patch -p1` must accept the diff,
# every patched file must py_compile, and a second `diff` must be empty; on
# failure the tree must be byte-for-byte untouched.
#
# Usage: run_case.sh MUHPATCH CASE_DIR [--update]
set -euo pipefail
muhpatch=$(realpath "$1")
case_dir=$(realpath "$2")
update=${3:-}
repo=$(cd "$(dirname "$0")/.." && pwd)

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
if [[ -f $case_dir/tree.link ]]; then
  cp -a "$repo/$(cat "$case_dir/tree.link")" "$scratch/tree"
else
  cp -a "$case_dir/tree" "$scratch/tree"
fi
# overlay.link: repo-relative files under some case's tree/, copied to the
# same tree-relative path here, so cases share files instead of copying them.
if [[ -f $case_dir/overlay.link ]]; then
  while read -r src; do
    [[ -n $src ]] || continue
    rel=${src#*/tree/}
    mkdir -p "$scratch/tree/$(dirname "$rel")"
    cp "$repo/$src" "$scratch/tree/$rel"
  done <"$case_dir/overlay.link"
fi
if [[ -f $case_dir/rules.link ]]; then
  cp "$repo/$(cat "$case_dir/rules.link")" "$scratch/rules.yaml"
else
  cp "$case_dir/rules.yaml" "$scratch/rules.yaml"
fi
[[ -x $case_dir/setup.sh ]] && (cd "$scratch" && "$case_dir/setup.sh")
cp -a "$scratch/tree" "$scratch/pristine"
args=()
[[ -f $case_dir/args ]] && { read -ra args <"$case_dir/args" || true; }

cd "$scratch"
set +e
"$muhpatch" diff "${args[@]}" rules.yaml tree >out.diff 2>out.stderr
code=$?
set -e
want_code=0
[[ -f $case_dir/expected.exit ]] && want_code=$(cat "$case_dir/expected.exit")

if [[ $update == --update ]]; then
  cp out.diff "$case_dir/expected.diff"
  cp out.stderr "$case_dir/expected.stderr"
  if [[ $code -ne 0 ]]; then echo "$code" >"$case_dir/expected.exit"; else rm -f "$case_dir/expected.exit"; fi
  echo "updated $(basename "$case_dir") (exit $code)"
  exit 0
fi

fail() { echo "FAIL $(basename "$case_dir"): $*" >&2; exit 1; }
diff -u "$case_dir/expected.diff" out.diff || fail "stdout differs from expected.diff"
diff -u "$case_dir/expected.stderr" out.stderr || fail "stderr differs from expected.stderr"
[[ $code -eq $want_code ]] || fail "exit $code, expected $want_code"

set +e
"$muhpatch" apply "${args[@]}" rules.yaml tree >apply.out 2>apply.err
apply_code=$?
set -e
if [[ $want_code -ne 0 ]]; then
  [[ $apply_code -eq $want_code ]] || fail "apply exited $apply_code, expected $want_code"
  diff -r pristine tree >/dev/null || fail "apply changed the tree despite the error"
  echo "ok $(basename "$case_dir") (error case, tree untouched)"
  exit 0
fi
[[ $apply_code -eq 0 ]] || { cat apply.err >&2; fail "apply exited $apply_code"; }
[[ -s apply.out ]] && fail "apply wrote to stdout"

if [[ -s out.diff ]]; then
  cp -a pristine bypatch
  (cd pristine && git apply --check ../out.diff) || fail "git apply --check rejects the diff"
  (cd pristine && patch -p1 --dry-run --quiet <../out.diff >/dev/null) || fail "patch -p1 --dry-run rejects the diff"
  (cd bypatch && patch -p1 --quiet --no-backup-if-mismatch <../out.diff >/dev/null) || fail "patch -p1 failed"
  diff -r bypatch tree >/dev/null || fail "the applied diff differs from what apply wrote"
  grep '^+++ b/' out.diff | sed 's|^+++ b/||' | while read -r f; do
    python3 - "tree/$f" <<'PY' || fail "tree/$f does not compile after the rewrite"
import sys
src = open(sys.argv[1], 'rb').read()
compile(src, sys.argv[1], 'exec')
PY
  done
fi
"$muhpatch" diff "${args[@]}" rules.yaml tree >again.diff 2>/dev/null || fail "second diff failed"
[[ -s again.diff ]] && { cat again.diff >&2; fail "second diff is not empty"; }
echo "ok $(basename "$case_dir")"
