#!/usr/bin/env bash
# Why verify could not run reaches stderr in every --format, not only the
# report on stdout (which a CI log may not show): each reason as
# `file:line:col: error: message`, then the verdict; in text the reasons
# alone (text prints no report). Cases: a tree that is not there, and a
# rule file with a located error. diff and status say the same in theirs.
#
# Usage: errors_every_format.sh MUHPATCH
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: errors_every_format: $*" >&2; exit 1; }
cp -a "$repo/fixtures/enginex-vllm" "$scratch/tree"
cp "$repo/rules/bi100.yaml" "$scratch/rules.yaml"
cp "$repo/fixtures/cases/errors/unknown_key/rules.yaml" "$scratch/typo.yaml"
cd "$scratch"

# expect NAME EXIT STDERR -- ARGS...: the exit code and stderr, exactly.
expect() {
  local name=$1 want_code=$2 want_err=$3 code
  shift 4
  set +e
  "$muhpatch" "$@" >out 2>err
  code=$?
  set -e
  [[ $code -eq $want_code ]] || { cat err >&2; fail "$name: exit $code, expected $want_code"; }
  [[ $(cat err) == "$want_err" ]] ||
    { diff -u <(printf '%s\n' "$want_err") err >&2 || true; fail "$name: stderr differs"; }
  echo "ok $name: exit $code, stderr as expected"
}

missing="missing: error: no such directory"
typo="typo.yaml:8:5: error: unknown key 'qurey' in rule (did you mean 'query'?)"
expect "verify, missing tree, text" 2 "$missing" -- verify rules.yaml missing
expect "verify, rule file error, text" 2 "$typo" -- verify typo.yaml tree
for format in json sarif github; do
  expect "verify, missing tree, $format" 2 \
    "$missing"$'\n'"verify: error: cannot load the rules or the tree" -- \
    verify rules.yaml missing --format "$format"
  [[ -s out ]] || fail "verify --format $format printed no report on stdout"
  expect "verify, rule file error, $format" 2 \
    "$typo"$'\n'"verify: error: cannot load the rules or the tree" -- \
    verify typo.yaml tree --format "$format"
  # -q keeps errors.
  expect "verify -q, missing tree, $format" 2 \
    "$missing"$'\n'"verify: error: cannot load the rules or the tree" -- \
    -q verify rules.yaml missing --format "$format"
done
# The JSON report still carries the reason.
"$muhpatch" verify rules.yaml missing --format json >report.json 2>/dev/null || true
python3 -c 'import json, sys; r = json.load(open("report.json")); assert r["status"] == "error" and r["findings"][0]["message"] == "no such directory", r' ||
  fail "the JSON report lost the reason"
expect "status --format json, missing tree" 2 "$missing" -- status rules.yaml missing --format json
expect "diff --format markdown, rule file error" 2 "$typo" -- diff typo.yaml tree --format markdown
