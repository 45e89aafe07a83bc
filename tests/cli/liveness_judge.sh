#!/usr/bin/env bash
# The CPython judge of the liveness analysis (tests/judge/judge.py): the
# kept seeds (each a program that once ran a site muhpatch called dead),
# then MUHPATCH_JUDGE_SEEDS generated programs (default 120) of 6 sites
# each, every site reached or not through one of the generator's
# constructs. Fails on any site whose value CPython delivered but that
# muhpatch calls dead.
set -euo pipefail
muhpatch=$(realpath "$1")
judge=$(cd "$(dirname "$0")/../judge" && pwd)
python3 "$judge/judge.py" "$muhpatch" --replay "$judge"/seeds/*.json
python3 "$judge/judge.py" "$muhpatch" --seeds "${MUHPATCH_JUDGE_SEEDS:-120}" --sites 6
