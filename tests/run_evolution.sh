#!/usr/bin/env bash
# Golden test for one way the fork evolves after a patch was committed:
# fixtures/evolution/NAME/ holds
#   evolve.py        the change, run as `python3 evolve.py TREE` (our own words)
#   patched          present: the committed patch is applied before the change
#   rules.link       the rule file (default rules/bi100.yaml)
#   expected.verify  `verify --patch committed.diff`: stderr, then stdout
#   expected.diff    `diff` on the evolved tree: stderr, then stdout
#   expected.exit    the two exit codes, "verify diff"
# The base tree is fixtures/enginex-vllm, copied to a scratch folder; the
# committed patch is what `diff` prints for it. Messages show `tree/...`.
#
# Usage: run_evolution.sh MUHPATCH CASE_DIR [--update]
set -euo pipefail
muhpatch=$(realpath "$1")
case_dir=$(realpath "$2")
update=${3:-}
repo=$(cd "$(dirname "$0")/.." && pwd)
name=$(basename "$case_dir")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL evolution/$name: $*" >&2; exit 1; }

cp -a "$repo/fixtures/enginex-vllm" "$scratch/tree"
rules=rules/bi100.yaml
[[ -f $case_dir/rules.link ]] && rules=$(cat "$case_dir/rules.link")
cp "$repo/$rules" "$scratch/rules.yaml"
cd "$scratch"
"$muhpatch" diff rules.yaml tree >committed.diff 2>/dev/null || fail "diff on the base tree failed"
if [[ -f $case_dir/patched ]]; then
  "$muhpatch" apply rules.yaml tree 2>/dev/null || fail "apply on the base tree failed"
fi
cp -a tree before
python3 "$case_dir/evolve.py" tree || fail "evolve.py failed"
diff -rq before tree >/dev/null && fail "evolve.py changed nothing"
cp -a tree evolved

set +e
"$muhpatch" verify rules.yaml tree --patch committed.diff >verify.out 2>verify.err
vcode=$?
"$muhpatch" diff rules.yaml tree >diff.out 2>diff.err
dcode=$?
set -e
cat verify.err verify.out >verify.all
cat diff.err diff.out >diff.all
diff -r evolved tree >/dev/null || fail "verify or diff modified the tree"

if [[ $update == --update ]]; then
  cp verify.all "$case_dir/expected.verify"
  cp diff.all "$case_dir/expected.diff"
  echo "$vcode $dcode" >"$case_dir/expected.exit"
  echo "updated evolution/$name (exits $vcode $dcode)"
  exit 0
fi
status=0
diff -u "$case_dir/expected.verify" verify.all || status=1
diff -u "$case_dir/expected.diff" diff.all || status=1
[[ "$vcode $dcode" == "$(cat "$case_dir/expected.exit")" ]] ||
  { echo "exits $vcode $dcode, expected $(cat "$case_dir/expected.exit")"; status=1; }
[[ $status -eq 0 ]] || fail "output differs from the goldens"
echo "ok evolution/$name (exits $vcode $dcode)"
