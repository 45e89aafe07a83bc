#!/usr/bin/env bash
# Named precondition lists (issue 40, item 5): rules/bi100.yaml declares
# `v2-implemented` once in its top-level `preconditions:` map and its four
# v1/v2 rules name it. On a copy of the fixture tree and of the real tree
# (when ../shared has it):
# - the named form plans as the same list copied into each rule by hand
#   (what users wrote with YAML anchors): the same diff and status, with
#   paged_attention_v2 a bare `raise` (the rules skipped) and calling a v2
#   kernel (they rewrite);
# - a rule names the list and adds an entry of its own: each of the two
#   skips it, by its own name;
# - an unknown name is an error at the name (file:line:col), with a
#   suggestion and the names the file declares; the tree stays untouched.
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "FAIL: named_preconditions: $*" >&2; exit 1; }
# shellcheck source=lib/scratch_tree.sh
source "$repo/tests/cli/lib/scratch_tree.sh"

# copied.yaml: rules.yaml with each `preconditions: [v2-implemented]`
# replaced by the list's entries, copied into the rule.
python3 - rules.yaml copied.yaml <<'PY'
import re, sys
text = open(sys.argv[1]).read()
block = re.search(r"^preconditions:\n  v2-implemented:\n((?:    .*\n|\n)+?)(?=\S)", text, re.M)
entries = block.group(1).rstrip("\n") + "\n"
text = text[:block.start()] + text[block.end():]
rule_entries = "".join("  " + line + "\n" if line else "\n" for line in entries.splitlines())
uses = text.count("    preconditions: [v2-implemented]\n")
assert uses == 4, uses
text = text.replace("    preconditions: [v2-implemented]\n", "    preconditions:\n" + rule_entries)
open(sys.argv[2], "w").write(text)
PY
grep -q "v2-implemented" copied.yaml && fail "copied.yaml still names the list"

# extended.yaml: paged-attn-v1-max-context names the list and adds an entry
# that holds only while no `max_seq_len` is read in paged_attn.py.
python3 - rules.yaml extended.yaml <<'PY'
import sys
text = open(sys.argv[1]).read()
head, rule, tail = text.partition("  - id: paged-attn-v1-max-context\n")
body, sep, rest = tail.partition("    preconditions: [v2-implemented]\n")
own = ("    preconditions:\n"
       "      - v2-implemented\n"
       "      - name: no context cap\n"
       "        absent: '((identifier) @n (#eq? @n \"max_seq_len\"))'\n")
open(sys.argv[2], "w").write(head + rule + body + own + rest)
PY

implement_v2() {
  awk '/^def paged_attention_v2\(/ {f = 1}
       f && /^    raise NotImplementedError\(\)/ {sub(/raise NotImplementedError\(\)/, "torch.ops._C.paged_attention_v2(out, query)"); f = 0}
       {print}' t/vllm/_custom_ops.py >ops.py
  cmp -s ops.py t/vllm/_custom_ops.py && fail "paged_attention_v2 has no bare raise to replace"
  cp ops.py t/vllm/_custom_ops.py
}

same() {
  local name=$1 state=$2 out
  for rules in rules.yaml copied.yaml; do
    out=${rules%.yaml}
    "$muhpatch" -q diff "$rules" t >"$out.diff" 2>/dev/null || fail "$name ($state): diff $rules failed"
    "$muhpatch" status "$rules" t --format json >"$out.json" 2>/dev/null ||
      fail "$name ($state): status $rules failed"
  done
  cmp -s rules.diff copied.diff || { diff rules.diff copied.diff >&2; fail "$name ($state): the diffs differ"; }
  cmp -s rules.json copied.json || fail "$name ($state): the statuses differ"
}

check() {
  local name=$1 source=$2 code=0
  copy_tree "$source"
  same "$name" "v2 a bare raise"
  grep -qE "^muhpatch: rule paged-attn-v1-max-context: skipped(; left: .*)?$" rules.diff ||
    fail "$name: paged-attn-v1-max-context is not skipped while v2 is a bare raise"
  "$muhpatch" -v diff extended.yaml t >/dev/null 2>err ||
    fail "$name: extended.yaml failed"
  grep -q "rule 'paged-attn-v1-max-context' skipped: precondition 'paged_attention_v2 is implemented' is not met" err ||
    { cat err >&2; fail "$name: the named list's entry does not skip the rule"; }

  implement_v2
  same "$name" "v2 implemented"
  grep -qE "^muhpatch: rule paged-attn-v1-max-context: rewrites(; left: .*)?$" rules.diff ||
    fail "$name: paged-attn-v1-max-context does not rewrite once v2 is implemented"
  "$muhpatch" -v diff extended.yaml t >ext.diff 2>err ||
    fail "$name: extended.yaml failed once v2 is implemented"
  grep -qE "^muhpatch: rule paged-attn-v1-max-context: skipped(; left: .*)?$" ext.diff ||
    fail "$name: the rule's own entry does not skip it"
  grep -q "rule 'paged-attn-v1-max-context' skipped: precondition 'no context cap' is not met" err ||
    { cat err >&2; fail "$name: the skip does not name the rule's own entry"; }

  # A misspelt name: exit 2, located at the name, the tree untouched.
  local line col
  line=$(grep -n "preconditions: \[v2-implemented\]" rules.yaml | head -1 | cut -d: -f1)
  sed "${line}s/\[v2-implemented\]/[v2-implemnted]/" rules.yaml >typo.yaml
  col=$(($(sed -n "${line}p" typo.yaml | awk '{print index($0, "v2-implemnted")}')))
  cp -r t before
  "$muhpatch" apply typo.yaml t 2>err || code=$?
  [[ $code -eq 2 ]] || { cat err >&2; fail "$name: a misspelt list name exited $code, expected 2"; }
  local want="typo.yaml:$line:$col: error: unknown precondition list 'v2-implemnted' (did you mean 'v2-implemented'?) (the file's 'preconditions:' names: v2-implemented)"
  grep -qxF "$want" err || { cat err >&2; fail "$name: the unknown name is not located as '$want'"; }
  diff -r before t >/dev/null || fail "$name: a rule file with an unknown name changed the tree"
  rm -rf before
  echo "ok $name: the named list plans as its copies; a rule extends it; an unknown name is located"
}

# shellcheck source=lib/on_trees.sh
source "$repo/tests/cli/lib/on_trees.sh"
on_trees check
