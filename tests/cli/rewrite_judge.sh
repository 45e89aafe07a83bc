#!/usr/bin/env bash
# The CPython judge of the rewrites (tests/judge/rewrite_judge.py): the kept
# seeds (tests/judge/rewrite_seeds/, each a program that once broke a
# rewrite; one marked "known" is reported, not gated), then
# MUHPATCH_REWRITE_JUDGE_PROGRAMS generated programs (default 60) of 6 cases
# each, every case one knob shape muhpatch rewrites (value-of, tiers) and a
# rule with a fixed value. CPython runs every case before and after the
# rewrite on every answer of the stub platform; fails on a wrong value on
# the rule's path, any change off it, or a new exception.
set -euo pipefail
muhpatch=$(realpath "$1")
judge=$(cd "$(dirname "$0")/../judge" && pwd)
# A muhpatch that rewrites nothing refuses no case wrongly, so each run also
# needs its rewrites (a helper audit): the seeds' 8 (at 73e21ef), and at
# least 2 cases in 5 of the generated ones (164 of 360 at 73e21ef; 148 since
# the clamp shapes, which must be refused).
programs=${MUHPATCH_REWRITE_JUDGE_PROGRAMS:-60}
python3 "$judge/rewrite_judge.py" "$muhpatch" --replay "$judge"/rewrite_seeds/*.json --min-rewrites 8
python3 "$judge/rewrite_judge.py" "$muhpatch" --programs "$programs" --cases 6 \
  --min-rewrites $((programs * 6 * 2 / 5))
