#!/usr/bin/env bash
# Stops `apply` at every write point (test hook MUHPATCH_TEST_KILL_AT, which
# sends SIGKILL to itself) and with real SIGKILLs at random moments, then
# checks that every file is entirely old or entirely new, and that the next
# `apply` completes the job with no duplicate autotune entries and no temp
# files left. Prints the counts for the issue note.
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
cp "$repo/rules/bi100.yaml" rules.yaml
cp -a "$repo/fixtures/enginex-vllm" pristine
cp -a pristine expected
"$muhpatch" apply rules.yaml expected 2>/dev/null
mapfile -t targets < <(cd pristine && "$muhpatch" diff ../rules.yaml . 2>/dev/null | sed -n 's|^+++ b/||p')
[[ ${#targets[@]} -gt 0 ]] || { echo "FAIL: nothing to apply"; exit 1; }

torn=0
check_untorn() {  # every target is byte-equal to its old or its new version
  local t
  for t in "${targets[@]}"; do
    if ! cmp -s "pristine/$t" "$1/$t" && ! cmp -s "expected/$t" "$1/$t"; then
      echo "FAIL: $1/$t is neither old nor new (torn)"
      torn=$((torn + 1))
    fi
  done
}
check_complete() {  # a later apply finishes the job
  "$muhpatch" apply rules.yaml "$1" 2>/dev/null || { echo "FAIL: re-apply failed on $1"; exit 1; }
  diff -r expected "$1" >/dev/null || { echo "FAIL: re-apply of $1 differs from a clean apply"; exit 1; }
  if [[ -n $(find "$1" -name '*.muhpatch-tmp.*') ]]; then echo "FAIL: temp files left in $1"; exit 1; fi
}

# Every write point: 4 per file (temp created, temp written, temp synced, renamed).
points=$(( ${#targets[@]} * 4 ))
hook_kills=0
for ((k = 1; k <= points; k++)); do
  rm -rf t && cp -a pristine t
  set +e
  (MUHPATCH_TEST_KILL_AT=$k exec "$muhpatch" apply rules.yaml t 2>/dev/null) 2>/dev/null
  code=$?
  set -e
  [[ $code -eq 137 ]] || { echo "FAIL: point $k: apply exited $code, expected a SIGKILL (137)"; exit 1; }
  hook_kills=$((hook_kills + 1))
  check_untorn t
  check_complete t
done
# One point past the last must let apply finish normally.
rm -rf t && cp -a pristine t
MUHPATCH_TEST_KILL_AT=$((points + 1)) "$muhpatch" apply rules.yaml t 2>/dev/null || { echo "FAIL: apply past the last point"; exit 1; }

# Real SIGKILLs at pseudo-random moments (fixed seed), spread over the
# second half of a measured run, where the writes happen.
RANDOM=1234
rm -rf t && cp -a pristine t
t0=$(date +%s%N)
"$muhpatch" apply rules.yaml t 2>/dev/null
run_us=$(( ($(date +%s%N) - t0) / 1000 ))
real_kills=0
mid_write=0  # kills that left some files new and some old
for ((i = 0; i < 40; i++)); do
  rm -rf t && cp -a pristine t
  "$muhpatch" apply rules.yaml t 2>/dev/null &
  pid=$!
  delay_us=$(( run_us / 2 + (RANDOM % 1000) * run_us / 1000 ))
  sleep "$(printf '%d.%06d' $((delay_us / 1000000)) $((delay_us % 1000000)))"
  kill -9 "$pid" 2>/dev/null && real_kills=$((real_kills + 1)) || true
  wait "$pid" 2>/dev/null || true
  check_untorn t
  new=0
  for f in "${targets[@]}"; do cmp -s "expected/$f" "t/$f" && new=$((new + 1)) || true; done
  if [[ $new -gt 0 && $new -lt ${#targets[@]} ]] || [[ -n $(find t -name '*.muhpatch-tmp.*') ]]; then
    mid_write=$((mid_write + 1))
  fi
  check_complete t
done
[[ $torn -eq 0 ]] || { echo "FAIL: $torn torn files"; exit 1; }
echo "ok kill test: $hook_kills hook kills at $points distinct write points; $real_kills real SIGKILLs, $mid_write of them mid-write; 0 torn files"
