#!/usr/bin/env bash
# Tracked means searched (issue 40, item 3): when TREE lies in a git work
# tree and git is on PATH, verify's whole-tree search searches every file git
# tracks under TREE whatever .gitignore says; untracked files follow
# .gitignore; without git, or outside a work tree, .gitignore decides as
# before. -v says which case applied. On a copy of the fixture tree made a
# git repository, and on a copy of the real tree when ../shared has it:
# a committed copy of the fused-MoE tier chain under fused_moe/lib/ (vLLM's
# own .gitignore has `lib/`) must be drift, never `verify: clean`.
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
command -v git >/dev/null || { echo "skipped: git is not on PATH"; exit 77; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: git_tracked_search: $*" >&2; exit 1; }
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=$scratch
cd "$scratch"
cp "$repo/rules/bi100.yaml" rules.yaml
moe=vllm/model_executor/layers/fused_moe
timeout_bin=$(command -v timeout)  # found before a case takes git (and all else) off PATH

# run NAME CODE ARGS...: muhpatch exits CODE; stderr left in err.
run() {
  local name=$1 want=$2 code=0
  shift 2
  "$timeout_bin" 60 "$muhpatch" "$@" >out 2>err </dev/null || code=$?
  [[ $code -eq $want ]] || { cat err >&2; fail "$name: exited $code, expected $want"; }
}
has() { grep -qF -- "$2" err || { cat err >&2; fail "$1: stderr lacks '$2'"; }; }

# check NAME SOURCE: the case on a copy of SOURCE.
check() {
  local name=$1 source=$2
  rm -rf t && cp -a "$source" t && chmod -R u+w t
  "$muhpatch" diff rules.yaml t >committed.diff 2>/dev/null || true
  grep -qx 'lib/' t/.gitignore 2>/dev/null || printf 'lib/\n' >>t/.gitignore
  mkdir -p "t/$moe/lib"
  cp "t/$moe/fused_moe.py" "t/$moe/lib/fused_moe.py"

  # No git work tree: .gitignore decides, as before (the copy is ignored).
  run "$name, no work tree" 0 -v verify rules.yaml t --patch committed.diff
  has "$name, no work tree" ".gitignore decides for every file"
  has "$name, no work tree" "whole-tree search skips $moe/lib/ (.gitignore)"

  # A work tree that tracks the copy: it is searched, and it is drift.
  (cd t && git init -q . && git add -A && git add -f "$moe/lib/fused_moe.py" &&
    git -c user.email=t@t -c user.name=t commit -qm base) || fail "$name: git init"
  run "$name, tracked copy" 1 -v verify rules.yaml t --patch committed.diff
  has "$name, tracked copy" "is in a git work tree: the "
  has "$name, tracked copy" "whole-tree search searches $moe/lib/fused_moe.py (.gitignore matches it, but git tracks it)"
  has "$name, tracked copy" "t/$moe/lib/fused_moe.py:"
  grep -q "verify: clean" err && fail "$name: a tracked copy gave verify: clean"
  echo "ok $name: a committed copy under an ignored lib/ is drift"

  # The same tree with git off PATH: as before.
  PATH=/nonexistent run "$name, git not on PATH" 0 -v verify rules.yaml t --patch committed.diff
  has "$name, git not on PATH" "git is not on PATH: .gitignore decides for every file"

  # Untracked copies follow .gitignore.
  (cd t && git rm -q --cached "$moe/lib/fused_moe.py") || fail "$name: git rm"
  run "$name, untracked copy" 0 -v verify rules.yaml t --patch committed.diff
  has "$name, untracked copy" "is in a git work tree"
  has "$name, untracked copy" "whole-tree search skips $moe/lib/ (.gitignore)"
  echo "ok $name: without git, or untracked, .gitignore decides"
}

# shellcheck source=lib/on_trees.sh
source "$repo/tests/cli/lib/on_trees.sh"
on_trees check
