#!/usr/bin/env bash
# Command-line usage errors and help. Every usage error exits 2, prints
# nothing on stdout, writes nothing, and prints exactly the message recorded
# here (today's messages, judged sensible). Runs from a scratch dir holding
# rules.yaml (a copy of rules/bi100.yaml) and tree/ (the enginex fixture), so
# messages carry those relative names.
#
# Usage: usage.sh MUHPATCH
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: usage: $*" >&2; exit 1; }
ok() { echo "ok $*"; }

cp -a "$repo/fixtures/enginex-vllm" "$scratch/tree"
cp -a "$scratch/tree" "$scratch/pristine"
cp "$repo/rules/bi100.yaml" "$scratch/rules.yaml"
cd "$scratch"

# mp ARGS...: runs muhpatch; sets $code, $out, $err.
mp() {
  code=0
  "$muhpatch" "$@" >mp.out 2>mp.err || code=$?
  out=$(cat mp.out)
  err=$(cat mp.err)
}
# usage_error STDERR ARGS...: exit 2, empty stdout, stderr exactly STDERR.
usage_error() {
  local want=$1
  shift
  mp "$@"
  [[ $code -eq 2 ]] || { printf '%s\n' "$err" >&2; fail "muhpatch $*: exit $code, expected 2"; }
  [[ -z $out ]] || fail "muhpatch $*: wrote to stdout: $out"
  [[ $err == "$want" ]] ||
    { diff -u <(printf '%s\n' "$want") <(printf '%s\n' "$err") >&2 || true; fail "muhpatch $*: stderr differs"; }
  ok "muhpatch $* -> 2: $want"
}

# --- commands ----------------------------------------------------------------------
usage_error "muhpatch: error: unknown command 'aply' (did you mean 'apply'?)" aply rules.yaml tree
usage_error "muhpatch: error: unknown command 'aply' (did you mean 'apply'?)" aply
usage_error "muhpatch: error: unknown command 'dif' (did you mean 'diff'?)" dif rules.yaml tree
usage_error "muhpatch: error: unknown command 'verfy' (did you mean 'verify'?)" verfy rules.yaml tree
usage_error "muhpatch: error: unknown command 'frobnicate'" frobnicate rules.yaml tree
usage_error "muhpatch: error: A subcommand is required"
usage_error "muhpatch: error: The following argument was not expected: --bogus" diff --bogus rules.yaml tree

# An empty argument (an unset variable in CI) is an error, never "not given"
# (a helper probe of 3cee5a3: `verify RULES ''` said clean, checking nothing).
usage_error "muhpatch: error: TREE: an empty argument names nothing" verify rules.yaml ''
usage_error "muhpatch: error: RULES: an empty argument names nothing" verify '' tree
usage_error "muhpatch: error: --patch: an empty argument names nothing" verify --patch '' rules.yaml tree
usage_error "muhpatch: error: -o: an empty argument names nothing" diff -o '' rules.yaml tree
usage_error "muhpatch: error: --hw: an empty argument names nothing" model --hw ''

# --- help ----------------------------------------------------------------------------
for h in --help -h; do
  mp "$h"
  [[ $code -eq 0 ]] || fail "muhpatch $h: exit $code, expected 0"
  [[ -z $err ]] || fail "muhpatch $h: wrote to stderr: $err"
  mapfile -t lines <mp.out
  [[ ${lines[0]} == "muhpatch: rewrite the tuning knobs of enginex-vllm from declared rules" ]] ||
    fail "muhpatch $h: first line is '${lines[0]}'"
  [[ ${lines[1]} =~ ^Usage:\ .*muhpatch\ \[OPTIONS\]\ SUBCOMMAND$ ]] || fail "muhpatch $h: usage line is '${lines[1]}'"
  for want in \
    "  diff                        print the unified diff the rules produce; modify nothing" \
    "  apply                       rewrite the tree in place: all files or none" \
    "  verify                      fail (exit 1) when the tree or the committed patch has drifted"; do
    grep -qxF -- "$want" mp.out || { cat mp.out >&2; fail "muhpatch $h does not list: $want"; }
  done
  ok "muhpatch $h -> 0, lists diff, apply, verify on stdout"
done
for c in diff apply verify; do
  mp "$c" --help
  [[ $code -eq 0 && -z $err ]] || fail "muhpatch $c --help: exit $code, stderr '$err'"
  [[ $out =~ Usage:\ .*muhpatch\ $c\ \[OPTIONS\]\ RULES\ TREE ]] || { echo "$out" >&2; fail "muhpatch $c --help: no usage line"; }
  grep -q -- '--rule' mp.out || fail "muhpatch $c --help does not mention --rule"
  if [[ $c == verify ]]; then grep -q -- '--patch' mp.out || fail "muhpatch verify --help does not mention --patch"; fi
  ok "muhpatch $c --help -> 0"
done

# --- positional arguments --------------------------------------------------------------
for c in diff apply verify; do
  usage_error "muhpatch: error: RULES is required" "$c"
  usage_error "muhpatch: error: TREE is required" "$c" rules.yaml
  usage_error "nosuchtree: error: no such directory" "$c" rules.yaml nosuchtree
  usage_error "$scratch/nosuchtree: error: no such directory" "$c" rules.yaml "$scratch/nosuchtree"
  usage_error "nosuch.yaml: error: cannot open (No such file or directory)" "$c" nosuch.yaml tree
  usage_error "muhpatch: error: The following argument was not expected: extra" "$c" rules.yaml tree extra
done
usage_error "tree/vllm/utils.py: error: not a directory" diff rules.yaml tree/vllm/utils.py
usage_error "tree: error: is a directory, not a file" diff tree tree
usage_error "muhpatch: error: --patch: 1 required TEXT missing" verify rules.yaml tree --patch
# diff, apply and status take --patch too (the patch muhpatch wrote before,
# issue 25): a missing one is bad input, named.
mp diff rules.yaml tree --patch x.diff
[[ $code -eq 2 && -z $out && $err == "x.diff: error: cannot open (No such file or directory)" ]] ||
  fail "diff --patch x.diff: exit $code, stderr '$err'"
ok "muhpatch diff ... --patch x.diff (missing) -> 2"

# --- --rule -------------------------------------------------------------------------------
for c in diff apply verify; do
  usage_error "rules.yaml: error: --rule 'paged-attn-partition-siz': no such rule (did you mean 'paged-attn-partition-size'?)" \
    "$c" --rule paged-attn-partition-siz rules.yaml tree
  usage_error "rules.yaml: error: --rule 'paged-attn-partition-siz': no such rule (did you mean 'paged-attn-partition-size'?)" \
    "$c" rules.yaml tree --rule paged-attn-partition-siz
  usage_error "rules.yaml: error: --rule 'no-such-rule': no such rule" "$c" --rule no-such-rule rules.yaml tree
done
usage_error "rules.yaml: error: --rule 'custom-ops-smem-limt': no such rule (did you mean 'custom-ops-smem-limit'?)" \
  diff --rule paged-attn-partition-size --rule custom-ops-smem-limt rules.yaml tree

# A good --rule runs just that rule: the diff is that rule's file section of
# the full diff, under a preamble that names that rule alone.
# (The limit changes only from a measured fact: --set gives one.)
mp diff --set smem_per_block=49152 --rule custom-ops-smem-limit rules.yaml tree
# No note: the fixture's entry module reaches the site, so it runs.
[[ $code -eq 0 && -z $err ]] ||
  fail "diff --rule custom-ops-smem-limit: exit $code, stderr '$err'"
want="muhpatch: rule custom-ops-smem-limit: rewrites"$'\n'$(awk '/^diff --git /{keep = ($3 == "a/vllm/_custom_ops.py")} keep' \
  "$repo/fixtures/cases/enginex_vllm/expected.diff")
[[ -n $want && $out == "$want" ]] ||
  { diff -u <(printf '%s\n' "$want") <(printf '%s\n' "$out") >&2 || true; fail "diff --rule custom-ops-smem-limit: wrong diff"; }
ok "muhpatch diff --rule custom-ops-smem-limit -> only the shared-memory hunk, and no note: its site runs"

diff -r pristine tree >/dev/null || fail "a usage error modified the tree"
ok "no usage error wrote to the tree"
