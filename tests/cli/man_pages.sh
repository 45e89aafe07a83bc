#!/usr/bin/env bash
# The hand-written man pages: both render with `groff -ww -z -man` (every
# warning enabled) without a single warning, and they document what exists.
# muhpatch(1) has the sections a man page needs and names every command
# `muhpatch --help` lists and every option `--help` and `muhpatch help
# COMMAND` show; muhpatch-rules(5) names every key the rule loader accepts
# (the key lists of engine/rules/raw_*.cc), every hardware fact,
# workload entry and quantity `muhpatch model` prints, and every model
# function.
#
# Usage: man_pages.sh MUHPATCH
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "FAIL: man_pages: $*" >&2; exit 1; }
ok() { echo "ok $*"; }
command -v groff >/dev/null || fail "groff is not installed (apt-get install groff-base; .ci/setup does)"
page1=$repo/dist/muhpatch.1
page5=$repo/dist/muhpatch-rules.5

for page in "$page1" "$page5"; do
  warnings=$(groff -ww -z -man "$page" 2>&1) || fail "groff failed on $(basename "$page"): $warnings"
  [[ -z $warnings ]] || fail "groff warns on $(basename "$page"):"$'\n'"$warnings"
done
ok "groff -ww -z -man renders muhpatch.1 and muhpatch-rules.5 without a warning"

# The text as a reader sees it, hyphens plain (roff writes options as \-\-).
text() { sed -e 's/\\-/-/g' -e 's/\\(aq/'"'"'/g' "$1"; }
t1=$(text "$page1")
t5=$(text "$page5")

for section in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS "EXIT STATUS" ENVIRONMENT FILES EXAMPLES "SEE ALSO"; do
  grep -qx "\.SH \"\?$section\"\?" <<<"$t1" || fail "muhpatch.1 has no $section section"
done
ok "muhpatch.1 has NAME, SYNOPSIS, DESCRIPTION, COMMANDS, OPTIONS, EXIT STATUS, ENVIRONMENT, FILES, EXAMPLES, SEE ALSO"

mapfile -t commands < <("$muhpatch" --help | sed -n '/^Subcommands:/,$p' | awk 'NR > 1 && NF {print $1}')
[[ ${#commands[@]} -ge 6 ]] || fail "could not read the subcommands from --help"
options=$("$muhpatch" --help | grep -oE -- '(^|[ ,])--?[a-zA-Z][a-zA-Z-]*' | tr -d ' ,' | sort -u)
for c in "${commands[@]}"; do
  grep -qE "^\.(TP|B|BI|BR) .*\b$c\b" <<<"$t1" || fail "muhpatch.1 does not describe the command '$c'"
  [[ $c == help ]] && continue
  options+=$'\n'$("$muhpatch" help "$c" | grep -oE -- '(^|[ ,])--?[a-zA-Z][a-zA-Z-]*' | tr -d ' ,' | sort -u)
done
count=0
for o in $(sort -u <<<"$options"); do
  grep -qF -- "$o" <<<"$t1" || fail "muhpatch.1 does not document $o"
  count=$((count + 1))
done
ok "muhpatch.1 describes ${#commands[@]} commands and documents all $count options"

# Every exit code of engine/base/exit_codes.h has its entry.
for code in $(grep -oE 'kExit[A-Za-z]+ = [0-9]+' "$repo/engine/base/exit_codes.h" | awk '{print $3}'); do
  sed -n '/^\.SH "\?EXIT STATUS"\?$/,/^\.SH [A-Z]/p' "$page1" | grep -qx "\.B $code" || fail "EXIT STATUS lacks $code"
done
ok "EXIT STATUS lists every code of exit_codes.h"

# The rule loader's keys, read from its source: step 1's files
# (engine/rules/raw_*.cc, and the finders' of the kinds of site with keys
# of their own, engine/rules/finder_*.cc), their kXxxKeys lists, the lists
# given to CheckKeys inline and the key each kind is named by.
keys=$({
  sed -n '/^const std::vector<std::string> k[A-Za-z]*Keys = {/,/};/p' "$repo"/engine/rules/raw_*.cc \
    "$repo/engine/rules/tier_rule.cc" "$repo"/engine/rules/finder_*.cc
  grep -ohE 'CheckKeys\([^,]*, \{[^}]*\}' "$repo"/engine/rules/raw_*.cc "$repo/engine/rules/tier_rule.cc"
  grep -ohE 'FinderKind [A-Za-z]*Kind\(\) \{ return \{"[^"]*", \{[^}]*\}' "$repo"/engine/rules/finder_*.cc
} | grep -oE '"[a-z_-]+"' | tr -d '"' | sort -u)
[[ $(wc -l <<<"$keys") -ge 25 ]] || fail "could not read the rule loader's keys"
for k in $keys; do
  grep -qE -- "(^|[^a-z_-])$k([^a-z_-]|$)" <<<"$t5" || fail "muhpatch-rules.5 does not name '$k'"
done
ok "muhpatch-rules.5 names all $(wc -l <<<"$keys") keys of the rule loader"

# What the model prints: facts, workload entries, quantities.
model=$("$muhpatch" model "$repo/rules/bi100.yaml")
names=$(awk '/^(profile|workload|values)/ {s = $1; next} /^autotune/ {s = ""} s && /^  [a-z_0-9]+ = / {print $1}' <<<"$model" |
  grep -vx dtype_bytes; echo dtype)
[[ $(wc -l <<<"$names") -ge 40 ]] || fail "could not read the model's names ($(wc -l <<<"$names"))"
for n in $names; do
  grep -qE -- "(^|[^a-z_0-9])$n([^a-z_0-9]|$)" <<<"$t5" || fail "muhpatch-rules.5 does not name '$n' (muhpatch model prints it)"
done
ok "muhpatch-rules.5 names all $(wc -l <<<"$names") facts, workload entries and quantities muhpatch model prints"
for f in $(sed -n '/Functions() const {/,/^}/p' "$repo/engine/model/model_values.cc" | grep -oE '"[a-z_]+"' | tr -d '"'); do
  grep -qF "$f" <<<"$t5" || fail "muhpatch-rules.5 does not document the function $f"
done
ok "muhpatch-rules.5 documents the model's functions"
