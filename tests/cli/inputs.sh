#!/usr/bin/env bash
# Awkward inputs, end to end: each is planned, diffed, checked with
# `git apply --check`, applied, and re-diffed to nothing (or refused with a
# located error, leaving the tree untouched).
set -euo pipefail
muhpatch=$(realpath "$1")
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
fail() { echo "FAIL: inputs: $*"; exit 1; }

cat >rules.yaml <<'YAML'
version: 1
values:
  size: 1024
rules:
  - id: knob
    files: m.py
    query: |
      (module (expression_statement
        (assignment left: (identifier) @name right: (_) @value))
        (#eq? @name "KNOB"))
    replace: value
    with: "{{size}}"
YAML

# round_trip NAME: tree/m.py is set up; diff must apply and apply must match it.
round_trip() {
  rm -rf pristine && cp -a tree pristine
  "$muhpatch" diff rules.yaml tree >out.diff 2>err || fail "$1: diff failed: $(cat err)"
  [[ -s out.diff ]] || fail "$1: empty diff"
  (cd pristine && git init -q . && git -c core.autocrlf=false apply --check ../out.diff) ||
    fail "$1: git apply --check rejects the diff"
  (cd pristine && patch -p1 --dry-run --quiet <../out.diff >/dev/null) || fail "$1: patch rejects it"
  "$muhpatch" apply rules.yaml tree 2>err || fail "$1: apply failed: $(cat err)"
  (cd pristine && rm -rf .git && patch -p1 --quiet --no-backup-if-mismatch <../out.diff >/dev/null)
  cmp -s pristine/m.py tree/m.py || fail "$1: the applied diff differs from apply"
  [[ -z $("$muhpatch" diff rules.yaml tree 2>/dev/null) ]] || fail "$1: second diff not empty"
  echo "ok $1"
}
# refused NAME WANT: diff and apply exit 2 with stderr WANT, tree untouched.
# refused NAME STDERR [CODE]: diff and apply both exit CODE (default 2: bad
# input; 6: the rule failed to plan) and leave the tree untouched.
refused() {
  local want=${3:-2}
  rm -rf pristine && cp -a tree pristine
  set +e
  "$muhpatch" diff rules.yaml tree >out.diff 2>err
  code=$?
  "$muhpatch" apply rules.yaml tree >/dev/null 2>/dev/null
  acode=$?
  set -e
  [[ $code -eq $want && $acode -eq $want ]] || fail "$1: exits $code/$acode, expected $want"
  [[ $(cat err) == "$2" ]] || fail "$1: stderr was: $(cat err)"
  diff -r pristine tree >/dev/null || fail "$1: the tree changed"
  echo "ok $1 (refused)"
}
mk() { rm -rf tree && mkdir tree && printf "$1" >tree/m.py; }

mk 'x = 1\r\nKNOB = 512\r\ny = 2\r\n'; round_trip crlf
mk 'x = 1\r\nKNOB = 512\ny = 2\r\n'; round_trip mixed-line-endings
mk '\xef\xbb\xbfKNOB = 512\n'; round_trip bom
mk 'def f():\n\treturn 1\nKNOB = 512\n'; round_trip tabs
mk 'x = 1\nKNOB = 512'; round_trip no-final-newline
mk 'KNOB = 512\n'; round_trip one-line
# CR-only line ends are valid Python (issue 11 item 15): rewritten, bytes kept.
mk 'def f():\r    return 1\rKNOB = 512\ry = (1,\r     2)\r'; round_trip cr-only
grep -q $'KNOB = 1024\ry = ' tree/m.py || fail "cr-only: CRs not kept"

mk ''; refused empty-file "rules.yaml:5:5: error: rule 'knob' expects 1 match in m.py, found 0: no \`(identifier) @name (#eq? @name \"KNOB\")\` in the file" 6
mk 'x = "\xff"\nKNOB = 512\n'
refused non-utf8 "tree/m.py:1:6: error: invalid UTF-8 (byte 0xFF); Python sources must be UTF-8"
# Bytes in the encoding the file declares are Python, but muhpatch reads
# names as UTF-8: a knob file in another encoding is refused, located.
mk '# -*- coding: latin-1 -*-\nx = "\xe9"\nKNOB = 512\n'
refused latin-1 "tree/m.py:1:7: error: the file declares the encoding 'latin-1', in which CPython may read other code than these bytes spell as UTF-8; rule 'knob' will not rewrite a file that does not parse" 6
mk 'x = 1\nKNOB = 512\n\x00\n'
refused nul-byte "tree/m.py:3:1: error: syntax error; rule 'knob' will not rewrite a file that does not parse" 6

# A statement-local query (the whole-tree search parses only the statements
# holding KNOB; the plan parses every file whole): a syntax error in another
# statement refuses the file, whether it is to be rewritten or not.
# rules.yaml with its module-rooted query replaced by a statement-local one.
python3 - <<'PY'
text = open("rules.yaml").read()
head, rest = text.split("    query: |\n", 1)
tail = rest[rest.index("    replace:"):]
query = "((assignment left: (identifier) @name right: (_) @value) (#eq? @name \"KNOB\"))"
open("local.yaml", "w").write(head + "    query: '" + query + "'\n" + tail)
PY
mk 'KNOB = 512\nx = = 1\n'
set +e
"$muhpatch" diff local.yaml tree >out.diff 2>err
code=$?
set -e
[[ $code -eq 6 && ! -s out.diff ]] || fail "partial-broken: diff exits $code"
[[ $(cat err) == "tree/m.py:2:5: error: syntax error; rule 'knob' will not rewrite a file that does not parse" ]] ||
  fail "partial-broken: stderr was: $(cat err)"
echo "ok partial-broken (refused)"
mk 'KNOB = 1024\nx = = 1\n'
set +e
"$muhpatch" diff local.yaml tree >out.diff 2>err
code=$?
set -e
[[ $code -eq 6 && ! -s out.diff ]] || fail "partial-at-value: diff exits $code"
[[ $(cat err) == "tree/m.py:2:5: error: syntax error; rule 'knob' will not rewrite a file that does not parse" ]] ||
  fail "partial-at-value: stderr was: $(cat err)"
echo "ok partial-at-value (refused)"
# The same inside a function, beside the knob.
mk 'def f():\n    y = 2\n    x = = 1\n    KNOB = 512\n    return KNOB\n'
set +e
"$muhpatch" diff local.yaml tree >out.diff 2>err
code=$?
set -e
[[ $code -eq 6 && ! -s out.diff ]] || fail "nested-broken: diff exits $code"
[[ $(cat err) == "tree/m.py:3:9: error: syntax error; rule 'knob' will not rewrite a file that does not parse" ]] ||
  fail "nested-broken: stderr was: $(cat err)"
echo "ok nested-broken (refused)"

# 10 MB: the knob in the middle of a large module.
rm -rf tree && mkdir tree
python3 - <<'PY'
lines = [f"value_{i} = compute({i})  # padding line to make a large module\n" for i in range(160000)]
lines.insert(80000, "KNOB = 512\n")
open("tree/m.py", "w").write("".join(lines))
PY
[[ $(stat -c %s tree/m.py) -gt 10000000 ]] || fail "10 MB file is too small"
round_trip 10-mb-file

# Deeply nested expressions (parenthesised 5,000 deep) around the knob.
rm -rf tree && mkdir tree
python3 -c "
d = 5000
open('tree/m.py', 'w').write('deep = ' + '(' * d + '1' + ')' * d + '\nKNOB = 512\n')"
set +e
"$muhpatch" diff rules.yaml tree >out.diff 2>err
code=$?
set -e
[[ $code -eq 0 || $code -eq 2 ]] || fail "deep nesting: exit $code ($(cat err))"
echo "ok deeply-nested (exit $code: $( [[ $code -eq 0 ]] && echo rewritten || head -c 120 err))"

# 5,000 rules in one file, each rewriting its own knob; 100 knobs per module.
rm -rf tree && mkdir -p tree/pkg
python3 - <<'PY'
n = 5000
out = ["version: 1\nvalues:\n  size: 1024\nrules:\n"]
for m in range(n // 100):
    open(f"tree/pkg/m{m}.py", "w").write("".join(f"K{i} = 512\n" for i in range(m * 100, m * 100 + 100)))
for i in range(n):
    out.append(f"""  - id: knob-{i}
    files: pkg/m{i // 100}.py
    query: '((assignment left: (identifier) @n right: (_) @v) (#eq? @n "K{i}"))'
    replace: v
    with: "{{{{size}}}}"
""")
open("many.yaml", "w").write("".join(out))
PY
"$muhpatch" diff many.yaml tree >many.diff 2>err || fail "5000 rules: $(cat err)"
[[ $(grep -c '^+K' many.diff) -eq 5000 ]] || fail "5000 rules: expected 5000 rewrites"
"$muhpatch" apply many.yaml tree 2>err || fail "5000 rules apply: $(cat err)"
[[ -z $("$muhpatch" diff many.yaml tree 2>/dev/null) ]] || fail "5000 rules: second diff not empty"
echo "ok 5000-rule file"
