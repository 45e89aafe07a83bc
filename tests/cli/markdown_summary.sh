#!/usr/bin/env bash
# The markdown summary names every cause (issue 40, item 2): each failed
# rule with its first error (the one stderr gives first for it, at its
# file:line), each dead rule with its first site and why it does not run;
# never "see the log", never dead rules as a bare count. On a copy of the
# fixture tree and of the real tree (when ../shared has it) whose
# prefix-prefill BLOCK line is gone, so that two rules fail.
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: markdown_summary: $*" >&2; exit 1; }
cd "$scratch"
cp "$repo/rules/bi100.yaml" rules.yaml
pp=vllm/attention/ops/prefix_prefill.py

check() {
  local name=$1 source=$2
  rm -rf t && cp -a "$source" t && chmod -R u+w t
  grep -q 'BLOCK = 128 if current_platform' "t/$pp" || fail "$name: no BLOCK line to remove"
  sed -i '/BLOCK = 128 if current_platform/d' "t/$pp"
  local code=0
  "$muhpatch" diff --format markdown rules.yaml t >md 2>md.err || code=$?
  [[ $code -eq 6 ]] || fail "$name: diff --format markdown exited $code, expected 6"
  "$muhpatch" diff rules.yaml t >patch 2>/dev/null || true
  ! grep -q "see the log" md || fail "$name: the summary says 'see the log'"
  local failed=0 rule
  for rule in $(sed -n 's/^muhpatch: rule \([^:]*\): failed$/\1/p' patch); do
    failed=$((failed + 1))
    # The first error stderr gives for the rule, as file:line: message.
    local first
    first=$(grep -m1 "error: rule '$rule'" md.err | sed 's/^t\///')
    local file=${first%%:*} rest=${first#*:}
    local line=${rest%%:*} message=${first#*: error: }
    grep -qF -- "- \`$rule\` failed: \`$file:$line\`: $message; none of its edits is in the patch" md ||
      { cat md >&2; fail "$name: failed rule $rule is not listed with its first error"; }
  done
  [[ $failed -ge 1 ]] || fail "$name: no rule failed"
  local dead=0
  for rule in $(sed -n 's/^muhpatch: rule \([^:]*\): dead\(; left: .*\)\{0,1\}$/\1/p' patch); do
    dead=$((dead + 1))
    grep -qE -- "^- \`$rule\` dead at \`[^\`]+:[0-9]+\`( and [0-9]+ more sites?)?: .+ \(--include-dead rewrites it\)$" md ||
      { cat md >&2; fail "$name: dead rule $rule is not listed with its reason"; }
  done
  [[ $dead -ge 1 ]] || fail "$name: no rule is dead"
  echo "ok $name: $failed failed rules with their first error, $dead dead rules with their reason"
}

# shellcheck source=lib/on_trees.sh
source "$repo/tests/cli/lib/on_trees.sh"
on_trees check
