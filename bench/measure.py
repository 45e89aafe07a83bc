#!/usr/bin/env python3
"""Times commands side by side: wall clock, CPU and peak RSS per run.

  measure.py SPEC.json OUT.json

SPEC is {"rounds": N, "warmup": W, "commands": [{"name", "cmd", "cwd",
"ok": [exit codes], "env": {NAME: VALUE}}, ...]}; `cmd` is an argv list, or
a string run by `sh -c` (for pipelines); `env`, when given, is added to
this process's environment for that command alone. Every round runs each
command once, in order, so slow drift in machine load hits all commands
alike (interleaved, not one command's runs back to back). Warm-up rounds are discarded; they also warm
the page cache, so every number is for a warm cache.

Per run: wall time (time.perf_counter around posix_spawn+wait), user and
system CPU and peak RSS from wait4(2)'s rusage (the same numbers GNU
`/usr/bin/time -v` prints; for `sh -c` pipelines ru_maxrss is the largest
single process, not the sum). Commands start with posix_spawn, whose child
runs in this process's memory until it execs, and the kernel counts that
memory in the child's peak: a peak RSS at or below this harness's own
(about 18 MB) is the harness's, not the command's. stdout goes to OUTDIR/NAME.stdout, and its
SHA-256 is recorded per run, to check that output is byte-identical across
runs (with "sort_stdout": true, of its lines sorted: ast-grep prints matches
in the order its threads finish). An exit code outside `ok` aborts the whole measurement.
"""
import hashlib
import json
import os
import statistics
import sys
import time


def run_once(cmd, cwd, stdout_path, stderr_path, sort_stdout=False, env=None):
    argv = ["sh", "-c", cmd] if isinstance(cmd, str) else cmd
    environ = dict(os.environ, **env) if env else os.environ
    with open(stdout_path, "wb") as out, open(stderr_path, "wb") as err:
        # posix_spawn (glibc: clone with CLONE_VM | CLONE_VFORK), not
        # os.fork: forking this Python process copies its page tables,
        # which cost about 10 ms a run on the 2-core VM, more than some of
        # the commands measured. posix_spawn has no working-directory
        # action in Python, so the parent changes directory around it.
        here = os.getcwd()
        os.chdir(cwd)
        try:
            t0 = time.perf_counter()
            pid = os.posix_spawnp(argv[0], argv, environ, file_actions=[
                (os.POSIX_SPAWN_DUP2, out.fileno(), 1),
                (os.POSIX_SPAWN_DUP2, err.fileno(), 2)])
            _, status, ru = os.wait4(pid, 0)
            wall = time.perf_counter() - t0
        finally:
            os.chdir(here)
    code = os.waitstatus_to_exitcode(status)
    with open(stdout_path, "rb") as f:
        data = f.read()
    if sort_stdout:  # for tools whose output order depends on thread timing
        data = b"\n".join(sorted(data.split(b"\n")))
    digest = hashlib.sha256(data).hexdigest()
    return {"wall": wall, "user": ru.ru_utime, "sys": ru.ru_stime,
            "maxrss_kb": ru.ru_maxrss, "exit": code, "stdout_sha256": digest}


def main():
    spec_path, out_path = sys.argv[1], sys.argv[2]
    with open(spec_path) as f:
        spec = json.load(f)
    outdir = os.path.join(os.path.dirname(os.path.abspath(out_path)), "stdout")
    os.makedirs(outdir, exist_ok=True)
    cmds = spec["commands"]
    runs = {c["name"]: [] for c in cmds}
    total = spec.get("warmup", 1) + spec["rounds"]
    load_before = os.getloadavg()
    for r in range(total):
        for c in cmds:
            base = os.path.join(outdir, c["name"])
            res = run_once(c["cmd"], c.get("cwd", "."), base + ".stdout", base + ".stderr",
                           c.get("sort_stdout", False), c.get("env"))
            if res["exit"] not in c.get("ok", [0]):
                with open(base + ".stderr", errors="replace") as f:
                    tail = f.read()[-2000:]
                sys.exit(f"measure: '{c['name']}' exited {res['exit']} (expected {c.get('ok', [0])})\n"
                         f"  cmd: {c['cmd']}\n  cwd: {c.get('cwd', '.')}\n{tail}")
            if r >= spec.get("warmup", 1):
                runs[c["name"]].append(res)
        print(f"  round {r + 1}/{total} done", file=sys.stderr, flush=True)
    result = {"load_before": load_before, "commands": []}
    for c in cmds:
        rs = runs[c["name"]]
        walls = [x["wall"] for x in rs]
        cpus = [x["user"] + x["sys"] for x in rs]
        result["commands"].append({
            "name": c["name"], "cmd": c["cmd"], "cwd": c.get("cwd", "."),
            "runs": rs,
            "wall_median": statistics.median(walls), "wall_min": min(walls), "wall_max": max(walls),
            "cpu_median": statistics.median(cpus),
            "maxrss_kb_max": max(x["maxrss_kb"] for x in rs),
            "distinct_stdout": len({x["stdout_sha256"] for x in rs}),
        })
    result["load_after"] = os.getloadavg()
    with open(out_path, "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
