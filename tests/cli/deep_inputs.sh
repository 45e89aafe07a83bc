#!/usr/bin/env bash
# Hostile but valid Python in the miniature tree: a condition of 30,000
# terms (`if HAS_TRITON and x0 and ... :`) and a value nested 8,000
# conditional expressions deep at the prefix-prefill BLOCK. muhpatch must
# neither exhaust its stack (SIGSEGV before) nor go quadratic (minutes
# before; the test times nothing): the condition changes no verdict and no
# edit, and the nested value is a refusal whose message stays one short line.
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
fail() { echo "FAIL: deep_inputs: $*" >&2; exit 1; }
cp -r "$repo/fixtures/enginex-vllm" plain
"$muhpatch" diff "$repo/rules/bi100.yaml" plain >plain.diff 2>/dev/null

cp -r plain wide
python3 - wide/vllm/attention/ops/paged_attn.py <<'PY'
import sys
p = sys.argv[1]
s = open(p, newline='').read()
terms = " and ".join("x%d" % i for i in range(30000))
assert "if HAS_TRITON:" in s
open(p, "w", newline='').write(s.replace("if HAS_TRITON:", "if HAS_TRITON and " + terms + ":", 1))
PY
set +e
"$muhpatch" diff "$repo/rules/bi100.yaml" wide >wide.diff 2>wide.err
code=$?
set -e
[[ $code -eq 0 ]] || { tail -3 wide.err >&2; fail "a 30,000-term condition: diff exited $code"; }
sed 's#^\(---\|+++\) \([ab]\)/#\1 \2/#' wide.diff | cmp -s - <(sed 's#^\(---\|+++\) \([ab]\)/#\1 \2/#' plain.diff) ||
  fail "a 30,000-term condition changed the patch"
echo "ok a 30,000-term condition: diff exits 0 with the plain tree's patch"

cp -r plain deep
python3 - deep/vllm/attention/ops/prefix_prefill.py <<'PY'
import sys
p = sys.argv[1]
s = open(p, newline='').read()
old = "BLOCK = 128 if current_platform.has_device_capability(80) else 64"
expr = "64"
for i in range(8000):
    expr = "(%d if x%d else %s)" % (i, i, expr)
assert old in s
open(p, "w", newline='').write(s.replace(old, old[:-2] + expr, 1))
PY
set +e
"$muhpatch" diff "$repo/rules/bi100.yaml" deep >deep.diff 2>deep.err
code=$?
set -e
[[ $code -eq 6 ]] || { tail -3 deep.err >&2; fail "an 8,000-deep value: diff exited $code, expected 6"; }
want="deep/vllm/attention/ops/prefix_prefill.py:115:73: error: rule 'prefix-prefill-block': the value is computed from x7999, x7998, x7997, x7996, x7995, x7994, x7993, x7992, and 7992 more: no literal to rewrite (it holds \`7999 if x7999 else (7998 if x7998 else (7997 if x7997 else (7996 if x7996 else (7995 if x7995 else (7994 if x7994 els...\`)"
grep -qxF "$want" deep.err || { head -c 600 deep.err >&2; fail "an 8,000-deep value: not the one-line refusal"; }
echo "ok an 8,000-deep conditional value: the rule refuses it in one line (exit 6)"

# A shared value wrapped where the function tests its condition 5,000 times,
# and a condition of 30,000 locals each computed from the platform, with a
# call between the value and the tests: the wrap's checks walk the function
# once per value, not once per test or per name (each took minutes).
mkdir -p many/vllm && : >many/vllm/__init__.py
python3 - many/vllm <<'PY'
import sys
d = sys.argv[1]
head = "from vllm.platforms import current_platform\n\n\ndef f():\n"
tests = "".join("    if current_platform.has_device_capability(80):\n        y%d = 1\n" % i
                for i in range(5000))
open(d + "/tests.py", "w").write(head + "    N = 4\n    tune()\n" + tests + "    return N\n")
names = ["x%d" % i for i in range(30000)]
locs = "".join("    %s = current_platform.has_device_capability(%d)\n" % (x, i)
               for i, x in enumerate(names))
open(d + "/locals.py", "w").write(head + locs + "    N = 4\n    tune()\n    if " +
                                  " and ".join(names) + ":\n        y = 1\n    return N\n")
rules = "version: 1\nrules:\n"
for rid, f, cond in (("tests", "tests", "current_platform.has_device_capability(80)"),
                     ("names", "locals", " and ".join(names))):
    rules += ("  - id: %s\n    files: vllm/%s.py\n    value-of:\n      name: N\n      in: f\n"
              "      when-true: \"%s\"\n    with: \"99\"\n" % (rid, f, cond))
open("many.yaml", "w").write(rules)
PY
set +e
"$muhpatch" diff many.yaml many >many.diff 2>many.err
code=$?
set -e
[[ $code -eq 0 ]] || { tail -c 600 many.err >&2; fail "5,000 tests, 30,000 fixed names: diff exited $code"; }
[[ $(grep -c '^+    N = 99 if ' many.diff) -eq 2 ]] || fail "5,000 tests, 30,000 fixed names: not both wraps"
echo "ok 5,000 tests of a condition and 30,000 fixed names: both values wrapped (exit 0)"
