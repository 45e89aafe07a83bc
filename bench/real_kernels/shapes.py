#!/usr/bin/env python3
"""The MoE BLOCK_SIZE_M that muhpatch chooses, judged on more model shapes
(no GPU: the GPU passes are committed).

  shapes.py merge DIR --dest bench/real_kernels/h100-shapes.json
      shapes.sh's unpacked passes (DIR/passN-NAME/moe-block-m.json)
      -> the compact committed file
  shapes.py check MUHPATCH TREE [--results FILE]
      for each shape: pass 1, written back as a muhpatch-probe/1 file, is the
      measurement (`--measurements`), the shape is the workload
      (`--hf-config`, `--serve-args -tp N`); muhpatch's diff of the tier
      rule is applied to a copy of the tree's fused_moe.py, whose
      get_default_config is run (CPython, no imports) at every timed M; the
      BLOCK_SIZE_M it returns is judged on the later passes alone. Fails
      when, at any M from 16 to 16384, it reaches less than MIN_SHARE of the
      best candidate, or is slower than the shipped default's by more than
      the recorded spread. Prints each shape's table.

Standard library only.
"""
import argparse
import glob
import itertools
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import results  # noqa: E402

ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
RULE = "fused-moe-tier-block-m"
BLOCK_M = [16, 32, 64, 128, 256]
MIN_SHARE = 0.95
# Slower than the shipped default beyond the passes' spread is reported; by
# more than this it fails. A chain of TIERS tiers cannot always serve both
# neighbours of a bound (no_regression_split prints what never losing costs).
REGRESSION_ALLOWANCE = 1 - MIN_SHARE
TIERS = 3  # the fork's chain: numel <= B1, <= B2, else
NO_REGRESSION = 0.005
JUDGED_M = (16, 16384)  # the range of M the goal covers, inclusive
RESULTS = os.path.join(HERE, "h100-shapes.json")
H200_PROFILE = os.path.join(ROOT, "bench", "probe", "h200", "profile.yaml")


def merge(args):
    shapes, device, versions = {}, None, None
    for path in sorted(glob.glob(os.path.join(args.dir, "pass*-*", "moe-block-m.json"))):
        run = os.path.basename(os.path.dirname(path))
        pass_no, name = run[4:].split("-", 1)
        doc = json.load(open(path))
        with open(os.path.join(os.path.dirname(path), "versions.json")) as fh:
            v = json.load(fh)
        if device not in (None, doc["device"]):
            raise SystemExit("%s: device %s, the others %s" % (path, doc["device"], device))
        device, versions = doc["device"], v["versions"]
        s = shapes.setdefault(name, {"name": name, "passes": {}})
        times = {}
        for knob, point, value, status, us, _reason in doc["knobs"]:
            s["shape"] = [point[k] for k in ("num_experts", "topk", "hidden_size",
                                              "moe_intermediate_size", "tensor_parallel_size")]
            M = point["numel"] // point["topk"]
            times.setdefault(str(M), [None] * len(BLOCK_M))[BLOCK_M.index(value)] = (
                us if status == "ok" else status)
        s["passes"][int(pass_no)] = times
    out = {"format": "muhpatch-shapes/1", "device": device, "versions": versions,
           "block_m": BLOCK_M,
           "columns": "shapes[].passes[i][M][j]: pass i+1's median us of BLOCK_SIZE_M "
                      "block_m[j] at M tokens (both GEMMs), or why it did not run",
           "shapes": [dict(s, passes=[s["passes"][k] for k in sorted(s["passes"])])
                      for _, s in sorted(shapes.items())]}
    with open(args.dest, "w") as fh:
        json.dump(out, fh, indent=None, separators=(",", ":"))
        fh.write("\n")
    print("%s: %d shapes, %d passes each" % (args.dest, len(out["shapes"]),
                                            len(out["shapes"][0]["passes"])))


def measurement_file(shape, times, device, path):
    """Pass 1 written back as the probe writes it (run_kernels.py probe)."""
    e, topk, hidden, inter, tp = shape
    point = {"num_experts": e, "topk": topk, "hidden_size": hidden,
             "moe_intermediate_size": inter, "tensor_parallel_size": tp, "dtype": "bfloat16"}
    rows = []
    for M in sorted(times, key=int):
        for bm, us in zip(BLOCK_M, times[M]):
            ok = isinstance(us, (int, float))
            rows.append(["moe_block_m_tier", dict(point, numel=int(M) * topk), bm,
                         "ok" if ok else us, us if ok else 0, "pass 1, M %s" % M])
    with open(path, "w") as fh:
        json.dump({"format": "muhpatch-probe/1", "device": device,
                   "columns": {"knobs": ["knob", "point", "value", "status", "us", "reason"]},
                   "knobs": rows}, fh)


def chosen_config(muhpatch, tree, scratch, name, extra):
    """get_default_config as muhpatch's tier rule writes it for this run."""
    rules = os.path.join(ROOT, "rules", "bi100.yaml")
    proc = subprocess.run([muhpatch, "-q", "diff", rules, tree, "--include-dead", "--rule", RULE]
                          + extra, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit("%s: muhpatch diff exited %d:\n%s" % (name, proc.returncode,
                                                               proc.stderr))
    work = os.path.join(scratch, name)
    dest = os.path.join(work, results.MOE)
    os.makedirs(os.path.dirname(dest))
    shutil.copy(os.path.join(tree, results.MOE), dest)
    os.chmod(dest, 0o644)
    if proc.stdout:
        subprocess.run(["patch", "-s", "-p1", "-d", work], input=proc.stdout, text=True,
                       check=True)
    return results.load_default_config(dest)


def judged(times_by_pass):
    """Per M: (median us of each candidate over the judging passes, spread)."""
    out = {}
    for M in times_by_pass[0]:
        runs = [p[M] for p in times_by_pass]
        med, spread = [], []
        for j in range(len(BLOCK_M)):
            ts = [r[j] for r in runs]
            if all(isinstance(t, (int, float)) for t in ts):
                m = statistics.median(ts)
                med.append(m)
                spread.append((max(ts) - min(ts)) / m)
            else:
                med.append(None)
                spread.append(None)
        out[int(M)] = (med, spread)
    return out


def no_regression_split(times, topk, e, n, k, shipped):
    """Over every contiguous split of the measured M into TIERS tiers, each
    with one BLOCK_SIZE_M nowhere slower than the shipped default's by more
    than NO_REGRESSION (the split may not exist): the largest worst share of
    the best. Shows what the regression guard costs on this shape."""
    Ms = sorted(times, key=int)
    ship = {M: BLOCK_M.index(shipped(int(M), e, n, k, topk, None, False)["BLOCK_SIZE_M"])
            for M in Ms}

    def tier_share(tier):
        best = 0.0
        for j in range(len(BLOCK_M)):
            ts = [times[M][j] for M in tier]
            if not all(isinstance(t, (int, float)) for t in ts):
                continue
            if any(times[M][j] > times[M][ship[M]] * (1 + NO_REGRESSION) for M in tier):
                continue
            best = max(best, min(min(x for x in times[M] if isinstance(x, (int, float)))
                                 / times[M][j] for M in tier))
        return best

    result = 0.0
    for cut in itertools.combinations(range(1, len(Ms)), TIERS - 1):
        edges = (0,) + cut + (len(Ms),)
        result = max(result, min(tier_share(Ms[a:b]) for a, b in zip(edges, edges[1:])))
    return result


def check(args):
    data = json.load(open(args.results))
    scratch = tempfile.mkdtemp()
    failures, summary = [], []
    try:
        shipped = results.load_default_config(os.path.join(args.tree, results.MOE))
        for s in data["shapes"]:
            name, shape = s["name"], s["shape"]
            e, topk, hidden, inter, tp = shape
            meas = os.path.join(scratch, name + ".json")
            measurement_file(shape, s["passes"][0], data["device"], meas)
            hf = os.path.join(scratch, name + ".config.json")
            with open(hf, "w") as fh:
                # Attention's heads do not reach the tier rule; any that tp divides.
                json.dump({"num_attention_heads": 32, "num_key_value_heads": 8, "head_dim": 128,
                           "hidden_size": hidden, "num_experts": e, "num_experts_per_tok": topk,
                           "moe_intermediate_size": inter, "torch_dtype": "bfloat16"}, fh)
            serve = os.path.join(scratch, name + ".serve.txt")
            with open(serve, "w") as fh:
                fh.write("-tp %d\n" % tp)
            workload = ["--hf-config", hf, "--serve-args", serve]
            measured = chosen_config(args.muhpatch, args.tree, scratch, name,
                                     workload + ["--measurements", meas])
            model = chosen_config(args.muhpatch, args.tree, scratch, name + "-model",
                                  workload + ["--hw", H200_PROFILE])
            table = judged(s["passes"][1:])
            print("\n%s: E %d, top %d, hidden %d, intermediate %d at tp %d "
                  "(pass 1 chooses, passes 2..%d judge)" % (name, e, topk, hidden, inter, tp,
                                                            len(s["passes"])))
            print("%6s  %-14s %-14s %-14s %s" % ("M", "shipped", "muhpatch", "model alone",
                                                 "best"))
            shares, below = [], []
            for M in sorted(table):
                if not JUDGED_M[0] <= M <= JUDGED_M[1]:
                    continue
                med, spread = table[M]
                best = min(t for t in med if t is not None)
                cell = {}
                for who, f in (("shipped", shipped), ("muhpatch", measured), ("model", model)):
                    bm = f(M, e, inter // tp, hidden, topk, None, False)["BLOCK_SIZE_M"]
                    j = BLOCK_M.index(bm)
                    if med[j] is None:
                        failures.append("%s M %d: %s's BLOCK_SIZE_M %d did not run" %
                                        (name, M, who, bm))
                        cell[who] = (bm, 0.0, j)
                    else:
                        cell[who] = (bm, best / med[j], j)
                bm, share, j = cell["muhpatch"]
                shares.append(share)
                if share < MIN_SHARE:
                    failures.append("%s M %d: BLOCK_SIZE_M %d reaches %.1f%% of the best" %
                                    (name, M, bm, 100 * share))
                sj = cell["shipped"][2]
                if med[j] and med[sj] and med[j] > med[sj] * (1 + max(spread[j], spread[sj])):
                    loss = med[j] / med[sj] - 1
                    below.append(loss)
                    if loss > REGRESSION_ALLOWANCE:
                        failures.append("%s M %d: BLOCK_SIZE_M %d (%.1f us) is slower than the "
                                        "shipped %d (%.1f us) by %.1f%%" %
                                        (name, M, bm, med[j], cell["shipped"][0], med[sj],
                                         100 * loss))
                fmt = lambda c: "%3d %5.1f%%" % (c[0], 100 * c[1])  # noqa: E731
                print("%6d  %-14s %-14s %-14s %d (%.1f us)" % (
                    M, fmt(cell["shipped"]), fmt(cell["muhpatch"]), fmt(cell["model"]),
                    BLOCK_M[med.index(best)], best))
            geo = math.exp(sum(math.log(x) for x in shares) / len(shares))
            summary.append((name, geo, min(shares), below))
            print("muhpatch: geomean %.1f%%, minimum %.1f%% of the best; below the shipped "
                  "default beyond the spread at %d M%s" % (
                      100 * geo, 100 * min(shares), len(below),
                      " (by %.1f%% at most)" % (100 * max(below)) if below else ""))
            print("the best %d-tier split nowhere below the shipped default (pass 1, every "
                  "M): %.1f%% of the best at its worst" % (
                      TIERS, 100 * no_regression_split(s["passes"][0], topk, e, inter // tp,
                                                       hidden, shipped)))
    finally:
        shutil.rmtree(scratch)
    print()
    for name, geo, low, below in summary:
        print("%-20s geomean %.1f%%  minimum %.1f%%  below shipped at %d M" % (
            name, 100 * geo, 100 * low, len(below)))
    for f in failures:
        print("FAIL: " + f)
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("merge")
    m.add_argument("dir")
    m.add_argument("--dest", default=RESULTS)
    c = sub.add_parser("check")
    c.add_argument("muhpatch")
    c.add_argument("tree")
    c.add_argument("--results", default=RESULTS)
    args = ap.parse_args()
    if args.cmd == "merge":
        merge(args)
        return 0
    return check(args)


if __name__ == "__main__":
    sys.exit(main())
