#!/usr/bin/env bash
# Runs every rule example of the README's "Code patterns" section (each
# ```yaml block there is one rule) on a copy of the miniature tree
# (fixtures/enginex-vllm), alone in a rule file with `version: 1`. Each must
# load, `diff` must exit 0 and rewrite the rule's file, and `status` must
# list the rule as rewriting. No example may be skipped: the run fails when
# the section holds fewer than two.
#
# Usage: doc_examples.sh MUHPATCH
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: doc_examples: $*" >&2; exit 1; }

awk -v dir="$scratch" '
  /^### / { inside = ($0 == "### Code patterns") }
  inside && /^```yaml$/ { n++; file = dir "/example" n ".yaml"; print "version: 1\nrules:" >file; copying = 1; next }
  copying && /^```$/ { copying = 0; close(file); next }
  copying { print >>file }
' "$repo/README.md"

count=0
for rules in "$scratch"/example*.yaml; do
  [[ -f $rules ]] || continue
  count=$((count + 1))
  id=$(sed -n 's/^  - id: //p' "$rules" | head -1)
  file=$(sed -n 's/^    files: //p' "$rules" | head -1)
  rm -rf "$scratch/tree"
  cp -a "$repo/fixtures/enginex-vllm" "$scratch/tree"
  "$muhpatch" diff "$rules" "$scratch/tree" >"$scratch/out.diff" 2>"$scratch/err" ||
    fail "example '$id': diff exits $?: $(cat "$scratch/err")"
  grep -q "^+++ b/$file$" "$scratch/out.diff" || fail "example '$id' does not rewrite $file"
  "$muhpatch" status "$rules" "$scratch/tree" >"$scratch/status" 2>&1 ||
    fail "example '$id': status exits $?"
  grep -q "^$id .*will rewrite" "$scratch/status" || fail "example '$id': status shows no site it will rewrite"
  echo "ok example '$id' rewrites $file"
done
[[ $count -ge 2 ]] || fail "found $count examples in the README's Code patterns section"
echo "ok $count examples"
