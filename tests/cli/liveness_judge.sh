#!/usr/bin/env bash
# The CPython judge of the liveness analysis (tests/judge/judge.py): the
# kept seeds (each a program that once ran a site muhpatch called dead; one
# marked "known" is reported, not gated), then MUHPATCH_JUDGE_SEEDS
# generated programs (default 180: about 6 sites a construct) of 6 sites
# each, every site reached or not through one of the generator's
# constructs, each under declared assumptions its seed varies (the
# platform, which a stub vllm/platforms.py answers for; the
# VLLM_ATTENTION_BACKEND value given to CPython and declared in the rule
# file; the plugins declared or not); then --sweep, the constructs that
# rest on assumptions under every one of them. Fails on any site whose
# value CPython delivered but that muhpatch calls dead. Last, --decoys: a
# comment, a docstring or a message naming a dead site, which reach
# nothing, must leave it dead.
set -euo pipefail
muhpatch=$(realpath "$1")
judge=$(cd "$(dirname "$0")/../judge" && pwd)
python3 "$judge/judge.py" "$muhpatch" --replay "$judge"/seeds/*.json
python3 "$judge/judge.py" "$muhpatch" --seeds "${MUHPATCH_JUDGE_SEEDS:-180}" --sites 6
python3 "$judge/judge.py" "$muhpatch" --sweep
python3 "$judge/judge.py" "$muhpatch" --decoys
