#!/usr/bin/env bash
# Two runs on one tree never interleave: while one holds the tree's lock,
# `apply` fails at once with exit 5 and a clear message and writes nothing;
# readers (`diff`) wait for the lock and then see a whole tree.
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
cp "$repo/rules/bi100.yaml" rules.yaml
cp -a "$repo/fixtures/enginex-vllm" tree
cp -a tree pristine
command -v flock >/dev/null || { echo "ok lock test skipped: no flock(1)"; exit 0; }

flock -x tree sleep 3 &
holder=$!
sleep 0.5
set +e
"$muhpatch" apply rules.yaml tree >out 2>err
code=$?
set -e
[[ $code -eq 5 ]] || { echo "FAIL: apply under a held lock exited $code, expected 5"; cat err; exit 1; }
want="tree: error: another muhpatch run holds the tree's lock; nothing was written"
[[ $(cat err) == "$want" ]] || { echo "FAIL: message was: $(cat err)"; exit 1; }
diff -r pristine tree >/dev/null || { echo "FAIL: the tree changed"; exit 1; }
echo "ok apply refuses while the lock is held"

start=$(date +%s%N)
# (expected.diff is made with a measured shared-memory fact: pass it too.)
"$muhpatch" diff --hw "$repo/fixtures/cases/enginex_vllm/measured-card.yaml" rules.yaml tree >d.diff 2>/dev/null
waited=$(( ($(date +%s%N) - start) / 1000000 ))
wait "$holder"
[[ $waited -ge 1000 ]] || { echo "FAIL: diff did not wait for the lock (${waited} ms)"; exit 1; }
cmp -s d.diff "$repo/fixtures/cases/enginex_vllm/expected.diff" || { echo "FAIL: diff after waiting differs"; exit 1; }
echo "ok diff waits for the lock, then reads a whole tree"

# Two applies started together: exactly one rewrites, the other gets 5 or finds nothing to do.
cp -a pristine race
set +e
"$muhpatch" apply rules.yaml race 2>/dev/null & a=$!
"$muhpatch" apply rules.yaml race 2>/dev/null & b=$!
wait $a; ca=$?
wait $b; cb=$?
set -e
for c in $ca $cb; do [[ $c -eq 0 || $c -eq 5 ]] || { echo "FAIL: a racing apply exited $c"; exit 1; }; done
"$muhpatch" apply rules.yaml race 2>/dev/null
cp -a pristine clean && "$muhpatch" apply rules.yaml clean 2>/dev/null
diff -r clean race >/dev/null || { echo "FAIL: racing applies left a different tree"; exit 1; }
echo "ok racing applies: exits $ca and $cb, same result as one apply"
