#!/usr/bin/env bash
# The outputs made for the tools teams already use (issue 14):
#   - `diff --color=always` and a drifting `verify --color=always` against the
#     goldens in tests/cli/ci_outputs/ (MUHPATCH_UPDATE_GOLDENS=1 rewrites
#     them); no escape byte when piped without --color, nor with NO_COLOR;
#   - `diff --format markdown` (the pull-request summary) against its golden;
#   - `verify --format github`: a stale patch and every drift finding are
#     `::error`, notes stay out unless -v, and a tree path holding ',' and ':'
#     is escaped in file= (%2C, %3A);
#   - -q: no notes and no clean verdict on stderr, errors and a failing
#     verdict still; the verdict line on stderr, never on stdout;
#   - --version, `help`, `help COMMAND`, an option typo's suggestion.
# SARIF's schema validation is sarif.sh.
#
# Usage: ci_outputs.sh MUHPATCH
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
goldens=$repo/tests/cli/ci_outputs
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: ci_outputs: $*" >&2; exit 1; }
ok() { echo "ok $*"; }
cp "$repo/fixtures/cases/enginex_vllm/measured-card.yaml" "$scratch/card.yaml"
card=card.yaml
cp -a "$repo/fixtures/enginex-vllm" "$scratch/tree"
cp "$repo/rules/bi100.yaml" "$scratch/rules.yaml"
cd "$scratch"
unset NO_COLOR

# golden NAME FILE: FILE against tests/cli/ci_outputs/NAME.
golden() {
  [[ ${MUHPATCH_UPDATE_GOLDENS:-} == 1 ]] && cp "$2" "$goldens/$1"
  cmp -s "$goldens/$1" "$2" || { diff -u "$goldens/$1" "$2" | cat -v >&2 || true; fail "$2 differs from $goldens/$1"; }
  ok "$1 matches its golden"
}
esc=$'\x1b'

# --- colour ------------------------------------------------------------------------
"$muhpatch" --color=always diff --hw "$card" rules.yaml tree >diff.colour 2>notes.colour
golden diff.colour diff.colour
golden diff-notes.colour notes.colour
"$muhpatch" diff --hw "$card" rules.yaml tree >diff.plain 2>notes.plain
! grep -q "$esc" diff.plain notes.plain || fail "colour without --color, piped"
NO_COLOR=1 "$muhpatch" diff --hw "$card" rules.yaml tree >diff.nc 2>&1
! grep -q "$esc" diff.nc || fail "colour with NO_COLOR"
"$muhpatch" diff --color=never --hw "$card" rules.yaml tree >diff.never 2>/dev/null
cmp -s diff.plain diff.never || fail "--color=never differs from the piped output"
sed "s/$esc\[[0-9;]*m//g" diff.colour | cmp -s - diff.plain || fail "the coloured diff is not the plain one plus colour"
ok "no colour when piped or under NO_COLOR; --color=always adds only escapes"
set +e
"$muhpatch" verify --color=always --hw "$card" rules.yaml tree >verify.out 2>verify.colour
code=$?
set -e
[[ $code -eq 1 ]] || fail "verify on the pristine tree: exit $code, expected 1"
golden verify-drift.colour verify.colour

# --- the pull-request summary ------------------------------------------------------
"$muhpatch" diff --format markdown --hw "$card" rules.yaml tree >summary.md 2>/dev/null
golden summary.md summary.md

# --- GitHub annotations --------------------------------------------------------------
"$muhpatch" diff --hw "$card" rules.yaml tree >committed.diff 2>/dev/null
sed -i '0,/^+    return 48 \* 1024/s//+    return 64 * 1024/' committed.diff
set +e
"$muhpatch" verify --hw "$card" rules.yaml tree --patch committed.diff --format github >gh.out 2>gh.err
code=$?
set -e
[[ $code -eq 1 ]] || fail "a stale patch: exit $code, expected 1"
grep -q '^::error file=committed.diff,title=muhpatch stale::drift: committed.diff is stale' gh.out ||
  { cat gh.out >&2; fail "no ::error for the stale patch"; }
! grep -q '^::notice' gh.out || fail "notes annotated without -v"
grep -qx "muhpatch: [0-9]* rules: .* (-v lists the [0-9]* left alone; \`muhpatch status\` says why)" gh.err ||
  { cat gh.err >&2; fail "no summary line counting the rules left alone"; }
[[ $(wc -l <gh.err) -eq 2 ]] || { cat gh.err >&2; fail "stderr is more than the summary line and the verdict"; }
[[ $(tail -n 1 gh.err) == "verify: drift: committed.diff is stale: "* ]] || fail "the verdict is not stderr's last line"
set +e
"$muhpatch" -v verify --hw "$card" rules.yaml tree --patch committed.diff --format github >ghv.out 2>/dev/null
set -e
grep -q '^::notice file=tree/vllm/_custom_ops.py,line=' ghv.out || fail "-v does not annotate the notes"
ok "verify --format github: a stale patch is an ::error, notes only at -v"
# Every drift finding of a pristine tree without --patch is an ::error, and a
# tree path holding ',' and ':' is escaped.
mkdir odd && cp -a tree "odd/a,b:c"
set +e
"$muhpatch" verify --hw "$card" rules.yaml "odd/a,b:c" --format github >odd.out 2>/dev/null
code=$?
set -e
[[ $code -eq 1 ]] || fail "pristine odd tree: exit $code, expected 1"
n_err=$(grep -c '^::error file=odd/a%2Cb%3Ac/vllm/[^,:]*,line=[0-9]*,col=[0-9]*,title=muhpatch site%3A rule [a-z0-9-]*::drift: ' odd.out)
[[ $n_err -gt 0 && $n_err -eq $(grep -c . odd.out) ]] || { cat odd.out >&2; fail "not every line is an escaped ::error"; }
# Each annotation is one line: no derivation travels as %0A.
! grep -q '%0A' odd.out gh.out || { grep '%0A' odd.out gh.out >&2; fail "an annotation embeds more lines"; }
ok "verify --format github: $n_err drift findings, each an ::error with file= escaped"

# --- -q and the verdict on stderr --------------------------------------------------
cp -a tree patched && "$muhpatch" apply --hw "$card" rules.yaml patched 2>/dev/null
"$muhpatch" verify --hw "$card" rules.yaml patched >v.out 2>v.err
[[ ! -s v.out && $(tail -n 1 v.err) == "verify: clean: nothing left to change ("* ]] || fail "the clean verdict is not on stderr"
"$muhpatch" -q verify --hw "$card" rules.yaml patched >q.out 2>q.err
[[ ! -s q.out && ! -s q.err ]] || { cat q.out q.err >&2; fail "-q verify on a clean tree printed something"; }
"$muhpatch" diff -q --hw "$card" rules.yaml tree >q.diff 2>q.err
[[ ! -s q.err ]] && cmp -s q.diff diff.plain || fail "-q diff: notes on stderr or another diff"
set +e
"$muhpatch" verify -q --hw "$card" rules.yaml tree >/dev/null 2>q.err
set -e
! grep -q ': note: ' q.err && grep -q ': error: drift: ' q.err && ! grep -q '^    ' q.err &&
  [[ $(tail -n 1 q.err) == "verify: drift: "* ]] || { cat q.err >&2; fail "-q verify on drift: notes or derivations shown, or errors or the verdict missing"; }
ok "-q: no notes and no clean verdict; drift errors with their derivations and the verdict stay"

# --- --version, help, typos ---------------------------------------------------------
version=$(sed -n 's/^project(muhpatch VERSION \([0-9.]*\) .*/\1/p' "$repo/CMakeLists.txt")
[[ $("$muhpatch" --version) == "muhpatch $version" ]] || fail "--version is not 'muhpatch $version'"
"$muhpatch" help >help.out && "$muhpatch" --help >help2.out && cmp -s help.out help2.out || fail "help differs from --help"
"$muhpatch" help verify >hv.out && "$muhpatch" verify --help >hv2.out && cmp -s hv.out hv2.out || fail "help verify differs from verify --help"
grep -q 'sarif' hv.out || fail "verify's help does not list sarif"
set +e
"$muhpatch" help verfy >/dev/null 2>typo.err; c1=$?
"$muhpatch" verify rules.yaml tree --pach committed.diff >typo.out 2>typo2.err; c2=$?
set -e
[[ $c1 -eq 2 && $(cat typo.err) == "muhpatch: error: unknown command 'verfy' (did you mean 'verify'?)" ]] || fail "help verfy"
[[ $c2 -eq 2 && ! -s typo.out && $(cat typo2.err) == "muhpatch: error: unknown option '--pach' (did you mean '--patch'?)" ]] ||
  { cat typo2.err >&2; fail "--pach"; }
ok "--version, help, help COMMAND, typos answered with suggestions"
