#!/usr/bin/env bash
# `muhpatch diff` on the enginex fixture is byte-identical (cmp) across:
#   - two runs;
#   - the working directory (scratch dir, /, inside the tree);
#   - the tree given as a relative, ./relative, trailing-slash or absolute path;
#   - the rules given as a relative or absolute path;
#   - LC_ALL/LANG = C, POSIX, C.UTF-8 and every other UTF-8 locale that
#     `locale -a` lists, plus en_US.UTF-8 and tr_TR.UTF-8 compiled into a
#     scratch LOCPATH when localedef can (skipped otherwise);
#   - TZ;
#   - the order in which the tree's files were created.
# Where the tree argument is the same, stderr must be identical too.
# The baseline itself must equal fixtures/cases/enginex_vllm/expected.diff.
#
# Usage: determinism.sh MUHPATCH
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: determinism: $*" >&2; exit 1; }
ok() { echo "ok $*"; }

cp -a "$repo/fixtures/enginex-vllm" "$scratch/tree"
cp "$repo/rules/bi100.yaml" "$scratch/rules.yaml"
mkdir "$scratch/out"
cd "$scratch"

n=0
# run NAME DIR ENV-ASSIGNMENTS... -- MUHPATCH-ARGS...: runs `diff` in DIR with
# the extra environment, leaves out/NAME.diff and out/NAME.err, fails on a
# non-zero exit.
run() {
  local name=$1 dir=$2
  shift 2
  local envs=()
  while [[ $1 != -- ]]; do envs+=("$1"); shift; done
  shift
  local code=0
  (cd "$dir" && env "${envs[@]}" "$muhpatch" diff --hw "$card" "$@") \
    >"$scratch/out/$name.diff" 2>"$scratch/out/$name.err" || code=$?
  [[ $code -eq 0 ]] || { cat "$scratch/out/$name.err" >&2; fail "$name: diff exited $code"; }
  n=$((n + 1))
}
# same NAME [stderr]: out/NAME.diff equals the baseline (and stderr too if asked).
same() {
  cmp "$scratch/out/base.diff" "$scratch/out/$1.diff" >&2 ||
    { diff -u "$scratch/out/base.diff" "$scratch/out/$1.diff" >&2 || true; fail "$1: diff differs from the baseline"; }
  if [[ ${2:-} == stderr ]]; then
    cmp "$scratch/out/base.err" "$scratch/out/$1.err" >&2 ||
      { diff -u "$scratch/out/base.err" "$scratch/out/$1.err" >&2 || true; fail "$1: stderr differs from the baseline"; }
  fi
  ok "diff identical: $1${2:+ (stdout and stderr)}"
}

# The baseline's _custom_ops.py hunk needs a measured shared-memory fact (the
# case's args give the same one).
card=$repo/fixtures/cases/enginex_vllm/measured-card.yaml
run base "$scratch" LC_ALL=C TZ=UTC -- rules.yaml tree
cmp -s "$repo/fixtures/cases/enginex_vllm/expected.diff" out/base.diff ||
  fail "baseline diff differs from fixtures/cases/enginex_vllm/expected.diff"
[[ -s out/base.diff ]] || fail "baseline diff is empty"
ok "baseline equals expected.diff"

run again "$scratch" LC_ALL=C TZ=UTC -- rules.yaml tree
same again stderr

# Working directory and path spellings.
run cwd_root / LC_ALL=C TZ=UTC -- "$scratch/rules.yaml" "$scratch/tree"
same cwd_root
run cwd_tree "$scratch/tree" LC_ALL=C TZ=UTC -- ../rules.yaml .
same cwd_tree
run cwd_vllm "$scratch/tree/vllm" LC_ALL=C TZ=UTC -- ../../rules.yaml ..
same cwd_vllm
run tree_abs "$scratch" LC_ALL=C TZ=UTC -- rules.yaml "$scratch/tree"
same tree_abs
run tree_dot "$scratch" LC_ALL=C TZ=UTC -- rules.yaml ./tree
same tree_dot
run tree_slash "$scratch" LC_ALL=C TZ=UTC -- rules.yaml tree/
same tree_slash
run tree_dotdot "$scratch" LC_ALL=C TZ=UTC -- rules.yaml "out/../tree"
same tree_dotdot
run rules_abs "$scratch" LC_ALL=C TZ=UTC -- "$scratch/rules.yaml" tree
same rules_abs stderr
run rules_dot "$scratch" LC_ALL=C TZ=UTC -- ./rules.yaml tree
same rules_dot stderr
run both_abs "$scratch" LC_ALL=C TZ=UTC -- "$scratch/rules.yaml" "$scratch/tree"
same both_abs

# Locales: C, POSIX, every UTF-8 locale installed, and LANG instead of LC_ALL.
locales=(C POSIX C.UTF-8)
while read -r l; do
  [[ $l =~ [Uu][Tt][Ff]-?8 ]] && locales+=("$l")
done < <(locale -a 2>/dev/null | LC_ALL=C sort -u)
for l in "${locales[@]}"; do
  run "lc_all_$l" "$scratch" LC_ALL="$l" TZ=UTC -- rules.yaml tree
  same "lc_all_$l" stderr
  run "lang_$l" "$scratch" -u LC_ALL LANG="$l" LC_COLLATE="$l" LC_CTYPE="$l" TZ=UTC -- rules.yaml tree
  same "lang_$l" stderr
done
# Locales that collate and case-fold differently from C, built in scratch.
mkdir "$scratch/locales"
for l in en_US tr_TR; do
  if localedef -i "$l" -f UTF-8 "$scratch/locales/$l.UTF-8" >/dev/null 2>&1; then
    run "lc_all_$l" "$scratch" LOCPATH="$scratch/locales" LC_ALL="$l.UTF-8" TZ=UTC -- rules.yaml tree
    same "lc_all_$l" stderr
  else
    echo "ok skipped $l.UTF-8: localedef cannot build it here"
  fi
done

# Time zones.
for tz in UTC America/Los_Angeles Asia/Kolkata Pacific/Chatham "XYZ-13:45" ""; do
  name=tz_${tz//\//_}
  [[ -n $tz ]] || name=tz_empty
  run "$name" "$scratch" LC_ALL=C TZ="$tz" -- rules.yaml tree
  same "$name" stderr
done
run tz_unset "$scratch" -u TZ LC_ALL=C -- rules.yaml tree
same tz_unset stderr

# The same files created in reverse order (different directory entry order
# where the filesystem keeps creation order).
mkdir "$scratch/reversed"
(cd tree && find . -type d | LC_ALL=C sort) | while read -r d; do mkdir -p "$scratch/reversed/$d"; done
(cd tree && find . -type f | LC_ALL=C sort -r) | while read -r f; do cp -p "tree/$f" "reversed/$f"; done
diff -r tree reversed >/dev/null || fail "reversed copy differs from the tree"
run reversed "$scratch" LC_ALL=C TZ=UTC -- rules.yaml reversed
same reversed

# verify's whole-tree search runs in parallel: its report must not depend on
# the thread count. Copy knobs into other files so the search finds some.
cp -a tree moved
cp moved/vllm/attention/ops/prefix_prefill.py moved/vllm/worker/prefix_copy.py
cp moved/vllm/_custom_ops.py moved/vllm/engine/ops_copy.py
for t in 1 2 8; do
  set +e
  (cd "$scratch" && LC_ALL=C "$muhpatch" verify rules.yaml moved --threads "$t" --format json >"verify_$t.json" 2>/dev/null)
  code=$?
  set -e
  [[ $code -eq 1 ]] || fail "verify --threads $t exited $code, expected 1 (drift)"
  n=$((n + 1))
done
grep -q prefix_copy.py "$scratch/verify_1.json" || fail "the whole-tree search missed the copied knob"
cmp -s "$scratch/verify_1.json" "$scratch/verify_2.json" || fail "verify output differs at 1 and 2 threads"
cmp -s "$scratch/verify_1.json" "$scratch/verify_8.json" || fail "verify output differs at 1 and 8 threads"

echo "ok determinism: $n runs, all byte-identical"
