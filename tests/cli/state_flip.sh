#!/usr/bin/env bash
# A state flip names its cause in the tree (issue 40, item 2, first
# bullet). On a copy of the fixture tree and of the real tree (when
# ../shared has it), the patch is made, then `logger.debug("%s", config)`
# goes before get_default_config's `return config`: the dict's keys are now
# read by code the analysis cannot see into, and rules that were dead when
# the patch was made run. verify exits 1, and each such finding is located
# at the rule's site in the tree (never at the rule file), with the verdict
# the site has now and its evidence: the logger line, as file:line.
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "FAIL: state_flip: $*" >&2; exit 1; }
# shellcheck source=lib/scratch_tree.sh
source "$repo/tests/cli/lib/scratch_tree.sh"

check() {
  local name=$1 source=$2 code=0
  copy_tree "$source"
  "$muhpatch" -q diff rules.yaml t >p.diff
  # The first `return config` after `def get_default_config`.
  local at
  at=$(awk '/^def get_default_config/ {f = 1} f && /^    return config$/ {print NR; exit}' "t/$moe")
  [[ -n $at ]] || fail "$name: no 'return config' in get_default_config"
  sed -i "${at}s/^    return config\$/    logger.debug(\"%s\", config)\\n    return config/" "t/$moe"
  "$muhpatch" -q verify rules.yaml t --patch p.diff >/dev/null 2>err || code=$?
  [[ $code -eq 1 ]] || { cat err >&2; fail "$name: verify exited $code, expected 1"; }
  local flips
  flips=$(grep -c "was 'dead' when p.diff was made and is '[a-z ]*' now" err || true)
  [[ $flips -ge 1 ]] || { cat err >&2; fail "$name: no rule flipped from dead"; }
  ! grep -q "^rules.yaml: error: drift: rule '[^']*' was 'dead'" err ||
    { cat err >&2; fail "$name: a flip is located at the rule file"; }
  local want="^t/$moe:[0-9]*:[0-9]*: error: drift: rule '[^']*' was 'dead' when p.diff was made and is '[a-z ]*' now (its site is unknown: the dict in config reaches code the analysis cannot see into ($moe:$at)); next: "
  [[ $(grep -c "$want" err) -eq $flips ]] ||
    { cat err >&2; fail "$name: a flip does not name its site and the logger line $moe:$at"; }
  echo "ok $name: $flips rules flipped from dead, each at its site with the evidence $moe:$at"
}

# shellcheck source=lib/on_trees.sh
source "$repo/tests/cli/lib/on_trees.sh"
on_trees check
