#!/usr/bin/env bash
# verify -p N reads the whole of --patch with -p N, the lines muhpatch
# wrote included (the patch is parsed once, issue 34 item 3). On a copy of
# the real tree patched under another workload (topk 2), so that the MoE
# tier's large value on a `+` line (64) is neither upstream's (256) nor
# the model's now: with the git patch and git's default -p, and with the
# same patch made without prefixes and -p 0, that value is muhpatch's
# (the patch is stale), never a hand-tuned one. Before, -p 0 marked the
# lines of the patch read with the default -p, which named no file, and
# called the value hand-tuned.
# Without the real tree the test exits 77 (CTest: skipped).
#
# Usage: verify_strip_marks.sh MUHPATCH
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
real=$repo/../shared/targets/enginex-vllm
if [[ ! -d $real/vllm ]]; then
  echo "skip: verify_strip_marks: the real enginex-vllm tree is not at $real"
  exit 77
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: verify_strip_marks: $*" >&2; exit 1; }
ok() { echo "ok $*"; }
cd "$scratch"
cp "$repo/rules/bi100.yaml" rules.yaml
sed 's/^  topk: .*/  topk: 2/' rules.yaml >other.yaml
cmp -s rules.yaml other.yaml && fail "rules/bi100.yaml has no 'topk:' line to change"
cp -a "$real" tree && chmod -R u+w tree
"$muhpatch" diff other.yaml tree >git.diff 2>/dev/null || fail "diff under topk 2 failed"
grep -q '^+ .*= 64$' git.diff || fail "the patch made under topk 2 writes no tier value of 64"
sed -E 's#^diff --git a/(.*) b/#diff --git \1 #; s#^--- a/#--- #; s#^\+\+\+ b/#+++ #' git.diff >bare.diff
grep -q '^+++ vllm/' bare.diff || fail "could not drop the patch's prefixes"
"$muhpatch" apply other.yaml tree 2>/dev/null || fail "apply under topk 2 failed"
set +e
"$muhpatch" verify rules.yaml tree --patch git.diff >/dev/null 2>git.err
git_code=$?
"$muhpatch" verify rules.yaml tree --patch bare.diff -p 0 >/dev/null 2>bare.err
bare_code=$?
set -e
[[ $git_code -eq 1 ]] || { cat git.err >&2; fail "verify --patch git.diff: exit $git_code, expected 1 (stale)"; }
grep -q "hand-tuned" git.err && { cat git.err >&2; fail "verify --patch git.diff calls muhpatch's value hand-tuned"; }
[[ $bare_code -eq $git_code ]] || { cat bare.err >&2; fail "verify -p 0 --patch bare.diff: exit $bare_code, the git patch's $git_code"; }
grep -q "hand-tuned" bare.err && { cat bare.err >&2; fail "verify -p 0 calls muhpatch's value hand-tuned"; }
[[ $(sed 's/bare\.diff/git.diff/g; s/ -p 0//g' bare.err) == "$(cat git.err)" ]] ||
  { diff <(sed 's/bare\.diff/git.diff/g; s/ -p 0//g' bare.err) git.err >&2; fail "verify -p 0 says otherwise than with git's default -p"; }
ok "verify -p 0 marks muhpatch's lines as the default -p does: the same verdict, no hand-tuned value"
