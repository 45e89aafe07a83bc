#!/usr/bin/env bash
# What verify's whole-tree search for moved or copied knobs covers, and that
# it says so (issue 11, items 6 and 14):
#   1. a file it must search but cannot read (a FIFO, a file over 16 MiB) is
#      a located error and verify exits 2, never 0 ("cannot vouch");
#   2. a copy of a knob under a directory .gitignore ignores (build/lib/vllm,
#      nested .gitignore with `!`, anchored and `**` patterns) or that the
#      rule file's `exclude:` names is not a finding, and -v says what was
#      skipped (hidden directories too) with counts; without the .gitignore
#      the copy is drift (exit 1);
#   3. a rule's own `files:` still work when .gitignore ignores them;
#   4. a query over the matcher's budget is a located error naming it.
#
# Usage: whole_tree_search.sh MUHPATCH
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: whole_tree_search: $*" >&2; exit 1; }
cd "$scratch"
cp "$repo/rules/bi100.yaml" rules.yaml
cp -a "$repo/fixtures/enginex-vllm" pristine
knob=vllm/_custom_ops.py
"$muhpatch" diff rules.yaml pristine >committed.diff 2>/dev/null

# run NAME CODE CMD...: CMD exits CODE within 20 s; its stderr is left in err.
run() {
  local name=$1 want=$2 code=0
  shift 2
  timeout 20 "$@" >out 2>err </dev/null || code=$?
  [[ $code -ne 124 ]] || fail "$name: hung (killed after 20 s)"
  [[ $code -eq $want ]] || { cat out err >&2; fail "$name: exited $code, expected $want"; }
}
has() { grep -qF -- "$2" err || { cat err >&2; fail "$1: stderr lacks '$2'"; }; }

run "pristine" 0 "$muhpatch" verify rules.yaml pristine --patch committed.diff

# 1. Unreadable files in the search's scope.
rm -rf t && cp -a pristine t && mkfifo t/vllm/secret.py
run "a FIFO outside every rule's files" 2 "$muhpatch" verify rules.yaml t --patch committed.diff
has "FIFO" "t/vllm/secret.py: error: not a regular file (a FIFO)"
rm -rf t && cp -a pristine t
# Outside vllm/: the rules' own files (a precondition reads vllm/**) are
# loaded before the search, and an oversized one there is a load error.
mkdir -p t/tools
{ cat "t/$knob"; head -c $((16 * 1024 * 1024)) /dev/zero | tr '\0' '#'; } >t/tools/huge.py
run "a file over 16 MiB" 2 "$muhpatch" verify rules.yaml t --patch committed.diff
has "oversized" "t/tools/huge.py: error: file is larger than the limit of 16777216 bytes"
"$muhpatch" verify rules.yaml t --patch committed.diff --format json >out 2>/dev/null || true
grep -q '"kind": *"unreadable"' out || { cat out >&2; fail "json lacks kind unreadable"; }
echo "ok unreadable files: exit 2, located"

# 2. .gitignore, exclude:, hidden directories.
rm -rf t && cp -a pristine t
mkdir -p t/build/lib/vllm t/.tox/lib t/gen/deep t/vllm/vendored
cp "t/$knob" t/build/lib/vllm/_custom_ops.py
cp "t/$knob" t/.tox/lib/_custom_ops.py
cp "t/$knob" t/gen/deep/_custom_ops.py
cp "t/$knob" t/vllm/vendored/ops_copy.py
cp "t/$knob" t/vllm/vendored/kept.py
run "copies, nothing ignored" 1 "$muhpatch" verify rules.yaml t --patch committed.diff
has "copies" "t/build/lib/vllm/_custom_ops.py:"
has "copies" "t/vllm/vendored/kept.py:"
printf '# build outputs\n/build/\n**/deep/\n' >t/.gitignore
printf '*.py\n!kept.py\n' >t/vllm/vendored/.gitignore
run "copies, kept.py re-included" 1 "$muhpatch" verify rules.yaml t --patch committed.diff
has "kept.py" "t/vllm/vendored/kept.py:"
grep -q "build/lib\|gen/deep\|ops_copy" err && { cat err >&2; fail "an ignored copy was reported"; }
rm t/vllm/vendored/kept.py
run "ignored copies" 0 "$muhpatch" verify -v rules.yaml t --patch committed.diff
has "-v" "whole-tree search skips build/ (.gitignore)"
has "-v" "whole-tree search skips gen/deep/ (.gitignore)"
has "-v" "whole-tree search skips vllm/vendored/ops_copy.py (.gitignore)"
has "-v" "whole-tree search skips .tox/ (a hidden directory)"
has "-v" "skipped 1 hidden directory, 3 parts ignored by .gitignore, 0 excluded by the rule file"
rm t/.gitignore t/vllm/vendored/.gitignore
{ cat rules.yaml; printf 'exclude:\n  - build\n  - "gen/**"\n  - vllm/vendored/*.py\n'; } >excl.yaml
"$muhpatch" diff excl.yaml pristine >excl.diff 2>/dev/null
run "exclude:" 0 "$muhpatch" verify -v excl.yaml t --patch excl.diff
has "exclude" "whole-tree search skips build/ (exclude: in excl.yaml)"
has "exclude" "3 excluded by the rule file"
echo "ok .gitignore, exclude: and hidden directories"

# 3. A rule's own files are not subject to .gitignore.
rm -rf t && cp -a pristine t && printf 'vllm/\n*.py\n' >t/.gitignore
run "ignored rule files" 0 "$muhpatch" diff rules.yaml t
cmp -s out committed.diff || fail "diff of a tree ignoring vllm/ differs"
run "ignored rule files, verify" 0 "$muhpatch" verify rules.yaml t --patch committed.diff
echo "ok a rule's own files ignore .gitignore"

# 4. The matcher's budget.
mkdir -p six/vllm
for i in $(seq 300); do echo "x$i = f($i)"; done >six/vllm/a.py
cat >six.yaml <<'YAML'
version: 1
rules:
  - id: six-nodes
    files: vllm/a.py
    query: |
      (module (_) (_) (_) (_) (_) (expression_statement) @value)
    replace: value
    with: "1"
YAML
run "six-node query" 6 "$muhpatch" diff six.yaml six
has "budget" "six.yaml:3:5: error: rule 'six-nodes': query \`(module (_) (_) (_) (_) (_) (expression_statement) @value)\` needs more work on one file than the matcher's budget of "
echo "ok a query over budget: located error"
rm -rf six && mkdir -p six/vllm && printf 'a\nb\nc\nd\ne\nf\n' >six/vllm/a.py
for i in $(seq 300); do echo "f($i)"; done >six/vllm/big.py
"$muhpatch" diff six.yaml six >six.diff 2>/dev/null
run "six-node query in the search" 2 "$muhpatch" verify six.yaml six --patch six.diff
has "search budget" "six/vllm/big.py: error: rule 'six-nodes': query \`(module (_)"
echo "ok a query over budget in the search: verify exits 2"

# 5. Copies in every shape the search's excerpt must keep (statement_excerpt.h:
#    it parses only the top-level statements holding the rule's literals):
#    CRLF, CR-only (at the line Python counts), form feeds, tabs, a
#    decorator with a comment, a method, a clause of an if/else, a BOM, no
#    final newline, a backslash continuation before it, a syntax error
#    elsewhere in the file. Not found: the copy in
#    a string, and the copy whose own statement does not parse.
rm -rf t && cp -a pristine t && mkdir -p t/vllm/zz
python3 - t/vllm/zz <<'PY'
import os, sys
knob = ("def get_max_shared_memory_per_block_device_attribute(device: int) -> int:\n"
        "    return 32 * 1024\n")
indented = "".join("    " + l + "\n" for l in knob.splitlines())
files = {
    "crlf.py": ("import os\n\ndef f():\n    return 1\n\n" + knob).replace("\n", "\r\n"),
    "cronly.py": ("import os\n\ndef f():\n    return 1\n\n" + knob).replace("\n", "\r"),
    "formfeed.py": "import os\n\f\ndef f():\n    return 1\n\f" + knob,
    "tabs.py": "import os\nif True:\n\tx = 1\n" + knob.replace("    ", "\t") + "y = 2\n",
    "broken_elsewhere.py": "def f(:\n    pass\n\n" + knob,
    "broken_here.py": "import os\n" + knob.replace("32 * 1024", "(32 * 1024"),
    "in_string.py": "S = '''\n" + knob + "'''\n",
    "decorated.py": "@dec\n# c\n" + knob,
    "in_class.py": "class C:\n    @staticmethod\n" + indented,
    "backslash.py": "x = 1 + \\\n  2\n" + knob,
    "if_else.py": "if A:\n    pass\nelse:\n" + indented,
    "bom.py": "\ufeff" + knob,
    "no_newline.py": "import os\n" + knob.rstrip("\n"),
}
for name, text in files.items():
    with open(os.path.join(sys.argv[1], name), "w", newline="", encoding="utf-8") as f:
        f.write(text)
PY
run "copies in every shape" 1 "$muhpatch" verify rules.yaml t --patch committed.diff
grep -o 't/vllm/zz/[a-z_]*\.py:[0-9]*:[0-9]*' err | sort >found
cat >want <<'TXT'
t/vllm/zz/backslash.py:3:5
t/vllm/zz/bom.py:1:8
t/vllm/zz/broken_elsewhere.py:4:5
t/vllm/zz/crlf.py:6:5
t/vllm/zz/cronly.py:6:5
t/vllm/zz/decorated.py:3:5
t/vllm/zz/formfeed.py:5:6
t/vllm/zz/if_else.py:4:9
t/vllm/zz/in_class.py:3:9
t/vllm/zz/no_newline.py:2:5
t/vllm/zz/tabs.py:4:5
TXT
diff want found >&2 || fail "copies in every shape: found other copies than these"
echo "ok copies in every shape the excerpt keeps"
