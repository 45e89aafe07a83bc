#!/usr/bin/env python3
"""Prints measure.py's spec for one tree. Called by run.sh, which passes
everything in the environment (lists one item per line):

  SPEC_DIR SPEC_ROUNDS SPEC_PHASES(0|1: enginex phases|2: real-tree phases) SPEC_THREADS(0|1: muhpatch has --threads)
  SPEC_MUHPATCH SPEC_FLOOR (bench/floor.cc) SPEC_RULES SPEC_PATCH SPEC_KNOBS SPEC_KNOBS_PATCH
  SPEC_AG (the ast-grep scan command) SPEC_AG_SCOPED SPEC_AG_WHOLE
  SPEC_GLOBS (the rules' files) SPEC_LITERALS (sites.py literals)

Pairs that do the same job: `muhpatch verify` <-> ast-grep whole-tree rules
(every query over every file); `muhpatch diff` <-> ast-grep scoped rules
with --globs (the rules' files only). Every command runs in the tree root.
"""
import json
import os
import shlex


def env_list(name):
    return [x for x in os.environ[name].split("\n") if x]


e = os.environ
mp, rules, patch, knobs = e["SPEC_MUHPATCH"], e["SPEC_RULES"], e["SPEC_PATCH"], e["SPEC_KNOBS"]
ag = env_list("SPEC_AG")
short = ["--report-style", "short", "."]
globs = [x for f in env_list("SPEC_GLOBS") for x in ("--globs", f)]
grep = "grep -rlF --include='*.py' " + " ".join(
    "-e " + shlex.quote(lit) for lit in env_list("SPEC_LITERALS")) + " . > /dev/null"

cmds = [{"name": "muhpatch verify --patch", "cmd": [mp, "verify", rules, ".", "--patch", patch]}]
if e["SPEC_THREADS"] == "1":
    cmds.append({"name": "muhpatch verify --patch --threads 1",
                 "cmd": [mp, "verify", rules, ".", "--patch", patch, "--threads", "1"]})
cmds += [
    {"name": "muhpatch diff", "cmd": [mp, "diff", rules, "."]},
    {"name": "ast-grep, whole-tree rules", "cmd": ag + ["-r", e["SPEC_AG_WHOLE"]] + short},
    {"name": "ast-grep, whole-tree rules, -j1", "cmd": ag + ["-j", "1", "-r", e["SPEC_AG_WHOLE"]] + short},
    {"name": "ast-grep, scoped rules", "cmd": ag + ["-r", e["SPEC_AG_SCOPED"]] + short},
    {"name": "ast-grep, scoped rules + --globs", "cmd": ag + globs + ["-r", e["SPEC_AG_SCOPED"]] + short},
    {"name": "floor: find *.py", "cmd": "find . -name '*.py' -type f > /dev/null"},
    {"name": "floor: cat every .py", "cmd": "find . -name '*.py' -type f -print0 | xargs -0 cat > /dev/null"},
    {"name": "floor: grep -rlF literals", "cmd": grep, "ok": [0, 1]},
    # The floor of issue #5: every .py byte read once, the knob files parsed
    # once (one thread, no queries).
    {"name": "floor: read every .py, parse the knob files",
     "cmd": [e["SPEC_FLOOR"], "."] + env_list("SPEC_GLOBS")},
]
if e["SPEC_PHASES"] == "1":
    cmds += [
        {"name": "phase: muhpatch model (load rules, model; no tree)", "cmd": [mp, "model", rules]},
        {"name": "phase: muhpatch diff, knob files only", "cmd": [mp, "diff", rules, knobs]},
        {"name": "phase: muhpatch verify --patch, knob files only",
         "cmd": [mp, "verify", rules, knobs, "--patch", e["SPEC_KNOBS_PATCH"]]},
    ]
if e["SPEC_PHASES"] == "2":
    # The real tree: where verify's time goes, by what each command leaves
    # out. verify without --patch skips the idempotence re-plan (undo the
    # committed patch, liveness and plan again); status plans and runs the
    # liveness analysis but does not search the tree.
    cmds += [
        {"name": "phase: muhpatch model (load rules, model; no tree)", "cmd": [mp, "model", rules]},
        {"name": "phase: muhpatch status (plan + liveness; no search)", "cmd": [mp, "status", rules, "."]},
        {"name": "phase: muhpatch verify, no --patch (no re-plan)", "cmd": [mp, "verify", rules, "."],
         "ok": [1]},
    ]
for c in cmds:
    c.setdefault("cwd", e["SPEC_DIR"])
    if c["name"].startswith("ast-grep"):
        c["sort_stdout"] = True
    c.setdefault("ok", [0])
print(json.dumps({"rounds": int(e["SPEC_ROUNDS"]), "warmup": 1, "commands": cmds}, indent=1))
