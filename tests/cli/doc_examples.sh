#!/usr/bin/env bash
# Runs every rule example of muhpatch-rules(5), those of its PATTERNS section
# (each .EX/.EE block there is one rule) and the whole file of its EXAMPLE
# section, each read as the page's reader sees it, on a copy of
# the miniature tree (fixtures/enginex-vllm), alone in a rule file with
# `version: 1`. Each must load, `diff` must exit 0 and rewrite the rule's
# file, and `status` must show a site it will rewrite (the EXAMPLE file's
# rule may be at its value already). Both run with --include-dead: the
# page's examples show how a site is found, and two of them find dict keys
# that the miniature tree's kernel never reads. The run fails when
# the section holds fewer than three examples.
#
# Usage: doc_examples.sh MUHPATCH
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: doc_examples: $*" >&2; exit 1; }

sed -e 's/\\-/-/g' -e "s/\\\\(aq/'/g" -e 's/\\e/\\/g' "$repo/dist/muhpatch-rules.5" | awk -v dir="$scratch" '
  /^\.SH / { inside = ($0 == ".SH PATTERNS" || $0 == ".SH EXAMPLE"); whole = ($0 == ".SH EXAMPLE") }
  inside && /^\.EX$/ { n++; file = dir "/" (whole ? "whole" : "example") n ".yaml"; copying = 1; first = 1; next }
  copying && /^\.EE$/ { copying = 0; close(file); next }
  copying && first { first = 0; if ($0 != "version: 1") print "version: 1\nrules:" >file }
  copying { print >>file }
'

count=0
for rules in "$scratch"/example*.yaml "$scratch"/whole*.yaml; do
  [[ -f $rules ]] || continue
  count=$((count + 1))
  id=$(sed -n 's/^  - id: //p' "$rules" | head -1)
  file=$(sed -n 's/^    files: //p' "$rules" | head -1)
  rm -rf "$scratch/tree"
  cp -a "$repo/fixtures/enginex-vllm" "$scratch/tree"
  "$muhpatch" diff --include-dead "$rules" "$scratch/tree" >"$scratch/out.diff" 2>"$scratch/err" ||
    fail "example '$id': diff exits $?: $(cat "$scratch/err")"
  "$muhpatch" status --include-dead "$rules" "$scratch/tree" >"$scratch/status" 2>&1 ||
    fail "example '$id': status exits $?"
  if [[ $(basename "$rules") == whole* ]]; then
    # The page's whole example file: bi100's own rule, already at the
    # model's value on the miniature tree.
    grep -qE "^$id .*(will rewrite|at value)" "$scratch/status" ||
      fail "example '$id': status shows no site of it"
    echo "ok example file '$id' plans"
    continue
  fi
  grep -q "^+++ b/$file$" "$scratch/out.diff" || fail "example '$id' does not rewrite $file"
  grep -q "^$id .*will rewrite" "$scratch/status" || fail "example '$id': status shows no site it will rewrite"
  echo "ok example '$id' rewrites $file"
done
[[ $count -ge 3 ]] || fail "found $count examples in muhpatch-rules(5)'s PATTERNS section"
echo "ok $count examples"
