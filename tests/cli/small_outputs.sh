#!/usr/bin/env bash
# Small outputs that must read right (issue 40, item 6): `-V` is
# `--version`; `test` exits 1 for a failing test and 7 (README's table) for
# a rule without a test, and says which on stderr; counts read "1 file",
# "1 rule"; the summary offers -v only when -v is not given; verify's text
# summary and its JSON "summary" give the same counts (rules by outcome,
# sites by liveness), on the fixture tree and on a copy of the real tree
# when ../shared has it.
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: small_outputs: $*" >&2; exit 1; }
cd "$scratch"
cp "$repo/rules/bi100.yaml" rules.yaml
cp -a "$repo/fixtures/enginex-vllm" tree
chmod -R u+w tree

# -V
[[ $("$muhpatch" -V) == $("$muhpatch" --version) ]] || fail "-V differs from --version"
[[ $("$muhpatch" -V) == "muhpatch "[0-9]* ]] || fail "-V: $("$muhpatch" -V)"
echo "ok -V prints the version"

# test: a rule without a test case exits 7 and says so; a failing test, 1.
python3 - "$repo/tests/rules/bi100.tests.yaml" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
# Drop the first rule's cases: it is then untested.
head, rest = text.split("tests:\n", 1)
blocks = re.split(r"(?m)^(?=  - rule: )", rest)
open("untested.yaml", "w").write(head + "tests:\n" + "".join(blocks[2:]))
first = re.search(r"rule: (\S+)", blocks[1]).group(1)
open("untested.rule", "w").write(first)
# Break one expected rewrite: that test fails.
open("failing.yaml", "w").write(text.replace("fixed: |\n          _PARTITION_SIZE = 512",
                                             "fixed: |\n          _PARTITION_SIZE = 4", 1))
PY
code=0
"$muhpatch" test rules.yaml untested.yaml >out 2>err || code=$?
[[ $code -eq 7 ]] || fail "test with an untested rule exited $code, not 7"
grep -qx "untested: rule '$(cat untested.rule)' has no test case" out || fail "untested rule not named"
grep -q "exit 7: 1 rule has no test case" err || fail "test does not say why it exits 7: $(cat err)"
code=0
"$muhpatch" test rules.yaml failing.yaml >out 2>err || code=$?
[[ $code -eq 1 ]] || fail "a failing rule test exited $code, not 1"
grep -q "exit 1: 1 rule test failed" err || fail "test does not say why it exits 1: $(cat err)"
"$muhpatch" test rules.yaml "$repo/tests/rules/bi100.tests.yaml" >/dev/null ||
  fail "the shipped rule tests do not pass"
echo "ok test exits 7 for an untested rule and 1 for a failing test, and says why"

# Plurals: one file rewritten, one rule run.
cp -a tree one
"$muhpatch" -v apply --rule prefix-prefill-block rules.yaml one 2>err >/dev/null
grep -q "rewrote 1 file; 1 rule: 1 rewrite" err || fail "apply -v: $(grep rewrote err)"
! grep -qE '\b1 (files|rules|sites)\b' err || fail "a plural after 1: $(cat err)"
echo "ok counts of one read in the singular"

# The summary offers -v only without -v.
"$muhpatch" diff rules.yaml tree 2>err >/dev/null || true
grep -q "(-v lists the" err || fail "the summary does not offer -v: $(cat err)"
"$muhpatch" -v diff rules.yaml tree 2>err >/dev/null || true
! grep -q "\-v lists" err || fail "under -v the summary still offers -v"
grep -q "says why each is left alone" err || fail "under -v, no summary: $(cat err)"
echo "ok the summary offers -v only without it"

# Text and JSON: the same counts.
same_counts() {
  local name=$1 dir=$2
  "$muhpatch" verify rules.yaml "$dir" 2>text.err >/dev/null || true
  "$muhpatch" verify --format json rules.yaml "$dir" 2>/dev/null >json.out || true
  python3 - text.err json.out "$name" <<'PY' || fail "$name: text and JSON counts differ"
import json, re, sys
text = open(sys.argv[1]).read()
m = re.search(r"muhpatch: (\d+) rules?: (.*?); (\d+) sites?: (\d+) live, (\d+) dead, (\d+) unknown",
              text)
if not m:
    sys.exit(f"no summary line in: {text}")
j = json.load(open(sys.argv[2]))["summary"]
words = {"rewrite": "rewrites", "already at its value": "at value",
         "already at their value": "at value", "skipped": "skipped",
         "without a valid value": "no value", "dead": "dead",
         "keeping a hand-tuned value": "hand-tuned", "failed": "failed"}
rules = {k: 0 for k in words.values()}
for part in m.group(2).split(", "):
    n, word = part.split(" ", 1)
    rules[words[word]] = int(n)
want = {"total": int(m.group(1)), **rules}
got = {k: j["rules"][k] for k in want}
sites = {"total": int(m.group(3)), "live": int(m.group(4)), "dead": int(m.group(5)),
         "unknown": int(m.group(6))}
got_sites = {k: j["sites"][k] for k in sites}
if got != want or got_sites != sites:
    sys.exit(f"text {want} {sites}, JSON {got} {got_sites}")
print(f"ok {sys.argv[3]}: text and JSON count {want['total']} rules and {sites['total']} sites alike")
PY
}
same_counts "fixture tree" tree
real=$repo/../shared/targets/enginex-vllm
if [[ -d $real/vllm ]]; then
  cp -a "$real" real && chmod -R u+w real
  same_counts "real tree" real
else
  echo "note: the real tree is not at $real; checked the fixture only"
fi
