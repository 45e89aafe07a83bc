#!/usr/bin/env bash
# `cmake --install` of the build folder MUHPATCH sits in, into a scratch
# prefix: bin/muhpatch (which runs and prints its version), the man pages
# muhpatch(1) and muhpatch-rules(5), bash completion and the rule files.
# The completion must offer every subcommand `muhpatch --help` lists and
# every option `muhpatch help COMMAND` shows, and --format's values.
#
# Usage: install.sh MUHPATCH
set -euo pipefail
muhpatch=$(realpath "$1")
build=$(dirname "$muhpatch")
repo=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "FAIL: install: $*" >&2; exit 1; }
ok() { echo "ok $*"; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
prefix=$scratch/prefix
cmake --install "$build" --prefix "$prefix" >"$scratch/install.log" || { cat "$scratch/install.log" >&2; fail "cmake --install failed"; }

[[ -x $prefix/bin/muhpatch ]] || fail "no bin/muhpatch"
[[ $("$prefix/bin/muhpatch" --version) == "$("$muhpatch" --version)" ]] || fail "the installed binary's version differs"
cmp -s "$prefix/share/muhpatch/rules/bi100.yaml" "$repo/rules/bi100.yaml" || fail "no share/muhpatch/rules/bi100.yaml"
for f in "$repo"/rules/examples/*; do
  cmp -s "$prefix/share/muhpatch/rules/examples/$(basename "$f")" "$f" || fail "rules/examples/$(basename "$f") not installed"
done
completion=$prefix/share/bash-completion/completions/muhpatch
[[ -f $completion ]] || fail "no bash completion"
for man in man1/muhpatch.1 man5/muhpatch-rules.5; do
  cmp -s "$prefix/share/man/$man" "$repo/dist/$(basename "$man")" || fail "share/man/$man is not dist/$(basename "$man")"
done
ok "man pages installed: share/man/man1/muhpatch.1, share/man/man5/muhpatch-rules.5"
ok "cmake --install: bin/muhpatch, completion, rules/bi100.yaml and rules/examples/"

# The owner's probe: installed with the layout it imports from, and its
# command line parses without the card's torch (it imports torch only to run).
probe=$prefix/share/muhpatch/probe/real_kernels/run_kernels.py
for f in real_kernels/run_kernels.py real_kernels/tree_kernels.py probe/probe.py probe/kernels.py; do
  cmp -s "$prefix/share/muhpatch/probe/$f" "$repo/bench/$f" || fail "share/muhpatch/probe/$f is not bench/$f"
done
python3 "$probe" --help | grep -q -- '--backend {triton,tree}' || fail "the installed probe's --help"
probe_err=$(python3 "$probe" probe --out "$scratch/p" 2>&1) && fail "probe without --tree ran"
[[ $probe_err == *"--tree is required, except for probe --backend tree"* ]] || fail "probe without --tree: $probe_err"
ok "the owner's probe: share/muhpatch/probe/real_kernels/run_kernels.py probe --backend tree"

# complete WORDS...: what the completion offers for the last word.
complete_words() {
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _muhpatch; printf "%s\n" "${COMPREPLY[@]}"' \
    _ "$completion" "$@"
}
mapfile -t commands < <("$muhpatch" --help | sed -n '/^Subcommands:/,$p' | awk 'NR > 1 && NF {print $1}')
[[ ${#commands[@]} -ge 6 ]] || fail "could not read the subcommands from --help"
offered=$(complete_words muhpatch "")
for c in "${commands[@]}"; do
  grep -qx "$c" <<<"$offered" || fail "completion does not offer the command '$c'"
done
for c in "${commands[@]}"; do
  [[ $c == help ]] && continue
  offered=$(complete_words muhpatch "$c" --)
  for o in $("$muhpatch" help "$c" | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
    grep -qx -- "$o" <<<"$offered" || fail "completion of '$c --' does not offer $o"
  done
done
offered=$(complete_words muhpatch verify rules.yaml tree --format "")
[[ $(sort <<<"$offered" | tr '\n' ' ') == "github json sarif text " ]] || fail "verify --format offers: $offered"
offered=$(complete_words muhpatch --color = al)
[[ $offered == always ]] || fail "--color=al offers: $offered"
ok "bash completion offers every command, every option of each, --format's and --color's values"
