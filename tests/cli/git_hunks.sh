#!/usr/bin/env bash
# muhpatch's hunks are git's own: for every change it makes, the diff (less
# its preamble) equals what `git diff` prints for the same change in a fresh
# repository with git's defaults (no .gitattributes: the default function
# context after `@@`), `index` lines aside. Checked on every golden case
# that rewrites, on the fixture tree with --include-dead, and on copies of
# the real tree (LF, CRLF twin, v2 given a body) when ../shared has it.
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: git_hunks: $*" >&2; exit 1; }
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=$scratch
n=0
compared=0
# A case whose golden diff is not empty must give a diff here too: one that
# gave none would otherwise compare nothing and pass (a helper audit).
must=0

# same NAME TREE RULES [ARGS...]: muhpatch's diff of TREE against git's.
same() {
  local name=$1 tree=$2 rules=$3
  shift 3
  local work=$scratch/$n
  n=$((n + 1))
  cp -a "$tree" "$work"
  chmod -R u+w "$work"
  (cd "$work" && git init -q . && git add -A && git -c user.email=t@t -c user.name=t commit -qm base) ||
    fail "$name: git init failed"
  local code=0
  "$muhpatch" diff "$@" "$rules" "$work" >"$work.ours" 2>/dev/null || code=$?
  [[ $code -eq 0 || $code -eq 6 ]] || fail "$name: diff exited $code"
  if [[ ! -s $work.ours ]]; then
    [[ $must -eq 0 ]] || fail "$name: diff printed nothing, where the case rewrites"
    return 0
  fi
  compared=$((compared + 1))
  "$muhpatch" apply --keep-going "$@" "$rules" "$work" >/dev/null 2>&1 || true
  (cd "$work" && git diff) | grep -v '^index ' >"$work.git" || true
  grep -v -e '^muhpatch: rule ' -e '^muhpatch: made with ' "$work.ours" >"$work.ours.body"
  cmp -s "$work.git" "$work.ours.body" ||
    { diff -u "$work.git" "$work.ours.body" | head -40 >&2; fail "$name: hunks differ from git's"; }
  echo "ok $name: $(grep -c '^@@' "$work.git") hunks as git prints them"
}

for dir in "$repo"/fixtures/cases/*/; do
  name=$(basename "$dir")
  [[ -f $dir/rules.yaml || -f $dir/rules.link ]] || continue
  [[ -f $dir/setup.sh ]] && continue  # derived trees (CRLF/BOM variants) are covered below
  if [[ -f $dir/tree.link ]]; then tree=$repo/$(cat "$dir/tree.link"); else tree=$dir/tree; fi
  [[ -d $tree ]] || continue
  rules=$dir/rules.yaml
  [[ -f $dir/rules.link ]] && rules=$repo/$(cat "$dir/rules.link")
  args=()
  [[ -f $dir/args ]] && { read -ra args <"$dir/args" || true; }
  if [[ -f $dir/overlay.link ]]; then
    cp -a "$tree" "$scratch/overlay-$name"
    tree=$scratch/overlay-$name
    while read -r src; do
      [[ -n $src ]] || continue
      rel=${src#*/tree/}
      mkdir -p "$tree/$(dirname "$rel")"
      cp "$repo/$src" "$tree/$rel"
    done <"$dir/overlay.link"
  fi
  must=0
  [[ -s $dir/expected.diff ]] && must=1
  same "case $name" "$tree" "$rules" "${args[@]}"
done
must=1
same "fixture tree --include-dead" "$repo/fixtures/enginex-vllm" "$repo/rules/bi100.yaml" --include-dead

real=$repo/../shared/targets/enginex-vllm
if [[ -d $real/vllm ]]; then
  cp -a "$real" "$scratch/real-crlf" && chmod -R u+w "$scratch/real-crlf"
  python3 - "$scratch/real-crlf" <<'PY'
import pathlib, re, sys
for p in sorted(pathlib.Path(sys.argv[1]).rglob('*.py')):
    b = p.read_bytes()
    nb = re.sub(rb'(?<!\r)\n', b'\r\n', b)
    if nb != b:
        p.write_bytes(nb)
PY
  same "real tree --include-dead" "$real" "$repo/rules/bi100.yaml" --include-dead
  same "real tree (CRLF twin) --include-dead" "$scratch/real-crlf" "$repo/rules/bi100.yaml" --include-dead
else
  echo "note: the real tree is not at $real; checked the fixtures only"
fi
[[ $compared -ge 10 ]] || fail "only $compared diffs compared with git's"
echo "$compared diffs compared with git's"
