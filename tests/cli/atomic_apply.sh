#!/usr/bin/env bash
# `muhpatch apply` is all-or-nothing: with any one of the files it must
# rewrite read-only (chmod 0444; muhpatch checks the permission bits itself,
# so this holds under root too), or a directory it must write into read-only
# (0555), apply exits 2, names the file, changes no file's bytes or mode, and
# leaves no `.muhpatch-tmp.` (or any other new) file behind. A read-only file
# it does not need to rewrite does not stop it. A good apply leaves no temp
# files either.
#
# Usage: atomic_apply.sh MUHPATCH
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)

scratch=$(mktemp -d)
trap 'chmod -R u+w "$scratch" 2>/dev/null || true; rm -rf "$scratch"' EXIT
fail() { echo "FAIL: atomic_apply: $*" >&2; exit 1; }
ok() { echo "ok $*"; }

cp -a "$repo/fixtures/enginex-vllm" "$scratch/pristine"
cp "$repo/rules/bi100.yaml" "$scratch/rules.yaml"
cd "$scratch"

# The files apply rewrites, in path order, from the diff (the `ok` lines name
# them), and the notes the rules print on stderr (skipped rules).
cp -a pristine tree
"$muhpatch" diff rules.yaml tree >plan.diff 2>notes.txt || fail "diff on the pristine tree failed"
note=$(cat notes.txt)
mapfile -t targets < <(sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' plan.diff)
[[ ${#targets[@]} -ge 2 ]] || fail "the rules rewrite fewer than two files; atomicity is not tested"
# The directory holding the most targets, and those targets.
ro_dir=$(printf '%s\n' "${targets[@]}" | xargs -n1 dirname | LC_ALL=C sort | uniq -c | sort -k1,1nr -k2 | head -n1 | awk '{print $2}')
ro_dir_errors=$(for f in "${targets[@]}"; do
  if [[ $(dirname "$f") == "$ro_dir" ]]; then echo "tree/$f: error: directory $ro_dir is read-only"; fi
done)
# lines A B: A and B joined by a newline, either may be empty.
lines() { if [[ -n $1 && -n $2 ]]; then printf '%s\n%s' "$1" "$2"; else printf '%s' "$1$2"; fi; }

# listing DIR: every entry below DIR with its type and mode, sorted.
listing() { (cd "$1" && find . -printf '%p %y %m\n' | LC_ALL=C sort); }
no_temp_files() {
  local left
  left=$(find "$1" -name '*.muhpatch-tmp.*' -print)
  [[ -z $left ]] || fail "$2: temp files left behind: $left"
}
# apply_tree: runs apply on ./tree; sets $code, $out, $err.
apply_tree() {
  code=0
  "$muhpatch" apply rules.yaml tree >apply.out 2>apply.err || code=$?
  out=$(cat apply.out)
  err=$(cat apply.err)
}
# refused WHAT STDERR: apply exited 2 with STDERR, and ./tree is what it was before.
refused() {
  [[ $code -eq 2 ]] || { printf '%s\n' "$err" >&2; fail "$1: apply exited $code, expected 2"; }
  [[ -z $out ]] || fail "$1: apply wrote to stdout"
  [[ $err == "$2" ]] ||
    { diff -u <(printf '%s\n' "$2") <(printf '%s\n' "$err") >&2 || true; fail "$1: stderr differs"; }
  diff -r pristine tree >/dev/null || { diff -r pristine tree >&2 || true; fail "$1: apply changed file contents"; }
  [[ $(listing tree) == "$before" ]] ||
    { diff -u <(printf '%s\n' "$before") <(listing tree) >&2 || true; fail "$1: files or modes changed"; }
  no_temp_files tree "$1"
}

# --- one read-only target at a time --------------------------------------------------
for f in "${targets[@]}"; do
  rm -rf tree && cp -a pristine tree
  chmod 0444 "tree/$f"
  before=$(listing tree)
  apply_tree
  refused "read-only $f" "$(lines "$note" "tree/$f: error: file is read-only")"
  ok "apply with read-only $f -> 2, tree untouched, no temp files"
done

# --- a read-only directory holding the most targets (vllm/attention/ops) ----------------------
rm -rf tree && cp -a pristine tree
chmod 0555 "tree/$ro_dir"
before=$(listing tree)
apply_tree
refused "read-only $ro_dir" "$(lines "$note" "$ro_dir_errors")"
chmod 0755 "tree/$ro_dir"
ok "apply with read-only directory $ro_dir -> 2, one error per target in it, tree untouched, no temp files"

# --- a read-only file that needs no rewrite does not matter ---------------------------------
rm -rf tree && cp -a pristine tree
chmod 0444 tree/vllm/attention/backends/ipex_attn.py
apply_tree
[[ $code -eq 0 ]] || { printf '%s\n' "$err" >&2; fail "apply with read-only non-target exited $code, expected 0"; }
[[ $(stat -c %a tree/vllm/attention/backends/ipex_attn.py) == 444 ]] || fail "ipex_attn.py mode changed"
no_temp_files tree "read-only non-target"
ok "apply with read-only non-target ipex_attn.py -> 0"

# --- a good tree ----------------------------------------------------------------------------------
rm -rf tree && cp -a pristine tree
before=$(listing tree)
apply_tree
[[ $code -eq 0 ]] || { printf '%s\n' "$err" >&2; fail "apply on a good tree exited $code, expected 0"; }
[[ -z $out ]] || fail "apply on a good tree wrote to stdout"
[[ $err == "$note" ]] || { printf '%s\n' "$err" >&2; fail "apply on a good tree: unexpected stderr"; }
no_temp_files tree "good apply"
[[ $(listing tree) == "$before" ]] ||
  { diff -u <(printf '%s\n' "$before") <(listing tree) >&2 || true; fail "good apply added/removed files or changed modes"; }
for f in "${targets[@]}"; do
  cmp -s "pristine/$f" "tree/$f" && fail "good apply did not rewrite $f"
done
ok "apply on a good tree -> 0, rewrites all targets, same files and modes, no temp files"

# ... and once more, already patched: nothing to do, still no temp files.
cp -a tree patched
apply_tree
[[ $code -eq 0 ]] || fail "second apply exited $code, expected 0"
diff -r patched tree >/dev/null || fail "second apply changed the tree"
no_temp_files tree "second apply"
[[ $(listing tree) == "$before" ]] || fail "second apply added/removed files or changed modes"
ok "second apply -> 0, no change, no temp files"

# ... and with a target read-only but already patched: nothing to write, so fine.
chmod 0444 "tree/${targets[0]}"
apply_tree
[[ $code -eq 0 ]] || { printf '%s\n' "$err" >&2; fail "apply on a patched tree with a read-only target exited $code, expected 0"; }
diff -r patched tree >/dev/null || fail "apply on a patched tree with a read-only target changed it"
no_temp_files tree "patched, read-only target"
ok "apply on a patched tree with a read-only target -> 0 (nothing to write)"
