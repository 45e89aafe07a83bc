#!/usr/bin/env bash
# Writes muhpatch's man page from its own help with help2man: the NAME and
# SYNOPSIS from `muhpatch --help` and `--version`, then a COMMANDS section
# holding `muhpatch help COMMAND` for each subcommand `--help` lists.
#
# Usage: man.sh MUHPATCH OUT.1
set -euo pipefail
muhpatch=$1
out=$2
include=$(mktemp)
trap 'rm -f "$include"' EXIT
{
  echo "[COMMANDS]"
  "$muhpatch" --help | sed -n '/^Subcommands:/,$p' | awk 'NR > 1 && NF {print $1}' |
    while read -r cmd; do
      [[ $cmd == help ]] && continue
      echo ".SS $cmd"
      echo ".nf"
      # roff: a leading '.' or "'" starts a request; backslashes escape.
      "$muhpatch" help "$cmd" | sed -e 's/\\/\\e/g' -e "s/^\\([.']\\)/\\\\\\&\\1/"
      echo ".fi"
    done
  echo "[EXIT STATUS]"
  echo "0 success (verify: no drift); 1 verify found drift; 2 bad input or usage;"
  echo "3 apply could not roll back; 4 internal or system error; 5 the tree is locked"
  echo "by another run; 6 some rules failed to plan."
} >"$include"
help2man --no-info --name "rewrite the tuning knobs of enginex-vllm from declared rules" \
  --section 1 --include "$include" --output "$out" "$muhpatch"
