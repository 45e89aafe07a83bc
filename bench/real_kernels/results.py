#!/usr/bin/env python3
"""The committed results of run_kernels.py, and their replay (no GPU).

  results.py merge RUN_DIR... --dest bench/real_kernels/h200.json
      rows from the GPU runs -> the compact committed file
  results.py check --staged DIR [--results FILE]
      the values the shipped rules write (read from stage.sh's folders, with
      ast: nothing is imported or run) against the committed results (a MoE
      config no variant chose counts when it is the search's checked best). Fails
      when a value failed validation, when an H200-profile value is slower
      than the shipped value it replaces by more than the recorded spread, or
      when a value was never run. Prints the per-L and per-M tables.

Standard library only.
"""
import argparse
import ast
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ATTN = "vllm/attention/ops/triton_flash_attention.py"
MOE = "vllm/model_executor/layers/fused_moe/fused_moe.py"
ATTN_L = [512, 2048, 8192]
MOE_M = [16, 64, 256, 1024, 4096, 16384]
MOE_E, MOE_TOPK, MOE_H, MOE_I = 128, 8, 2048, 192
PREFIX = "vllm/attention/ops/prefix_prefill.py"
PREFIX_CAPS = [(7, 0), (9, 0)]
PREFIX_SEQ_SETS = 2
# The profile whose values must not be slower than the shipped ones (the
# measurements were taken on its card); the others are checked for
# correctness only.
TIMED_PROFILE = "h200"
# The least share of the search's best that its MoE config must reach.
MOE_SHARE = 0.90


def attn_key(e):
    return "BM%d BN%d PLV%d w%d s%d" % (e["BLOCK_M"], e["BLOCK_N"], bool(e.get("PRE_LOAD_V")),
                                       e["num_warps"], e["num_stages"])


def moe_key(c):
    return "BM%d BN%d BK%d G%d" % (c["BLOCK_SIZE_M"], c["BLOCK_SIZE_N"], c["BLOCK_SIZE_K"],
                                   c["GROUP_SIZE_M"])


# --------------------------------------------------------------------------
# Reading the staged files without running them.

def _literal(node):
    return ast.literal_eval(node)


def autotune_entries(path):
    """The triton.Config(...) entries of the @triton.autotune list of attn_fwd."""
    tree = ast.parse(open(path).read())
    for fn in ast.walk(tree):
        if isinstance(fn, ast.FunctionDef) and fn.name == "attn_fwd":
            for d in fn.decorator_list:
                if isinstance(d, ast.Call) and getattr(d.func, "attr", "") == "autotune":
                    configs = next(k.value for k in d.keywords if k.arg == "configs")
                    out = []
                    for c in configs.elts:
                        e = dict(_literal(c.args[0]))
                        for k in c.keywords:
                            e[k.arg] = _literal(k.value)
                        out.append(e)
                    return out
    raise KeyError("%s: no autotuned attn_fwd" % path)


def load_default_config(path):
    """The file's get_default_config, compiled alone (pure Python: dicts and
    comparisons) with no imports and its annotations dropped."""
    tree = ast.parse(open(path).read())
    fn = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)
              and n.name == "get_default_config")
    fn.decorator_list = []
    for a in fn.args.args:
        a.annotation = None
    fn.returns = None
    ns = {}
    exec(compile(ast.Module(body=[fn], type_ignores=[]), path, "exec"), ns)
    return ns["get_default_config"]


def default_configs(path):
    """get_default_config's result at each M of the calibrated shape."""
    f = load_default_config(path)
    return {M: f(M, MOE_E, MOE_I, MOE_H, MOE_TOPK, None, False) for M in MOE_M}


def prefix_tiles(path):
    """The (BLOCK, NUM_WARPS) context_attention_fwd launches with, for a device
    below SM80 and for the H200 (cc 9.0): its top-level assignments to them,
    evaluated with the device check answered (bfloat16: no float32 halving)."""
    tree = ast.parse(open(path).read())
    fn = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)
              and n.name == "context_attention_fwd")
    out = {}
    for cap in PREFIX_CAPS:
        class Platform:
            def has_device_capability(self, want, cap=cap):
                return cap >= (want // 10, want % 10)
        ns = {"current_platform": Platform()}
        values = {}
        for st in fn.body:
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and \
                    isinstance(st.targets[0], ast.Name) and st.targets[0].id in ("BLOCK", "NUM_WARPS"):
                values[st.targets[0].id] = eval(compile(ast.Expression(st.value), path, "eval"), ns)
        out["%d.%d" % cap] = (values.get("BLOCK"), values.get("NUM_WARPS"))
    return out


# --------------------------------------------------------------------------
# merge

def combine(old, row, err_key):
    """One committed entry from every run's row of the same value: the worst
    status and error, and the median and spread (max - min over median) of
    all rounds of all runs."""
    import statistics
    out = dict(old or {"status": "ok", "runs": 0, "rounds": []})
    out["runs"] += 1
    if row["status"] not in ("ok", "unchecked"):
        out["status"] = row["status"]
        out["reason"] = row.get("reason", out.get("reason"))
    elif row["status"] == "unchecked" and out["status"] == "ok" and out["runs"] == 1:
        out["status"] = "unchecked"
    err = row.get(err_key)
    if err is not None:
        worst = max(err) if isinstance(err, list) else err
        out[err_key] = max(out.get(err_key, 0), worst)
    out["rounds"] = out["rounds"] + row.get("rounds", [])
    if out["rounds"]:
        med = statistics.median(out["rounds"])
        out["us"] = round(med, 2)
        out["spread"] = round((max(out["rounds"]) - min(out["rounds"])) / med, 4)
    return out

def merge(args):
    rows = []
    for d in args.runs:
        for part in ("attention", "moe", "prefix"):
            p = os.path.join(d, part + ".jsonl")
            if os.path.exists(p):
                rows += [json.loads(line) for line in open(p) if line.strip()]
    meta = {}
    for d in args.runs:
        p = os.path.join(d, "versions.json")
        if os.path.exists(p):
            meta = json.load(open(p))
    attention = {}
    for r in (r for r in rows if r["part"] == "attention"):
        key = "L%d %s" % (r["L"], attn_key(r["entry"]))
        attention[key] = combine(attention.get(key), r, "max_abs_err")
    prefix = {}
    for r in (r for r in rows if r["part"] == "prefix" and "BLOCK" in r):
        key = "cap%s BLOCK%d w%d" % (r["capability"], r["BLOCK"], r["NUM_WARPS"])
        slim = prefix.setdefault(key, {"status": "ok", "runs": 0, "max_abs_err": 0.0})
        slim["runs"] += 1
        slim["max_abs_err"] = max(slim["max_abs_err"], r.get("max_abs_err", 0))
        if r["status"] != "ok":
            slim["status"] = r["status"]
    moe, search, searched = {}, {}, {}
    for r in (r for r in rows if r["part"] == "moe"):
        key = "M%d %s" % (r["M"], moe_key(r["config"]))
        if r.get("chosen_by"):
            moe[key] = combine(moe.get(key), r, "rel_err")
        if r.get("status") in ("ok", "unchecked"):
            s = search.setdefault(str(r["M"]), {"searched": 0})
            seen = searched.setdefault(r["M"], set())
            if moe_key(r["config"]) not in seen:
                seen.add(moe_key(r["config"]))
                s["searched"] += 1
            if "us" not in s or r["us"] < s["us"]:
                s.update(best=moe_key(r["config"]), us=r["us"], spread=r["spread"],
                         checked=r["status"] == "ok")
    out = {"format": "muhpatch-real-kernels/1", "device": meta.get("device", ""),
           "versions": meta.get("versions", {}), "attention": dict(sorted(attention.items())),
           "moe": dict(sorted(moe.items())), "moe_search": search,
           "prefix": dict(sorted(prefix.items()))}
    with open(args.dest, "w") as f:
        json.dump(out, f, indent=1, sort_keys=False)
        f.write("\n")
    print("wrote %s: %d attention rows, %d moe rows, search at %d M" %
          (args.dest, len(attention), len(moe), len(search)))


# --------------------------------------------------------------------------
# check

def check(args):
    res = json.load(open(args.results))
    variants = sorted(d for d in os.listdir(args.staged)
                      if os.path.isdir(os.path.join(args.staged, d)))
    failed, unrun, notes = [], [], set()
    lists = {v: autotune_entries(os.path.join(args.staged, v, ATTN)) for v in variants}
    shipped_keys = {attn_key(e) for e in lists["shipped"]}
    print("attn_fwd (D 128, 8 query heads / 1 KV head, causal): best of each list, us")
    print("  %-6s %s" % ("L", " ".join("%-24s" % v for v in variants)))
    for L in ATTN_L:
        best = {}
        for v in variants:
            times = []
            for e in lists[v]:
                r = res["attention"].get("L%d %s" % (L, attn_key(e)))
                if r is None:
                    unrun.append("%s: attn_fwd entry %s at L %d" % (v, attn_key(e), L))
                elif r["status"] != "ok" and attn_key(e) in shipped_keys:
                    notes.add("the shipped entry %s is %s at L %d (not muhpatch's)" % (
                        attn_key(e), r["status"], L))
                elif r["status"] != "ok":
                    failed.append("%s: attn_fwd entry %s at L %d: %s (max error %s)" % (
                        v, attn_key(e), L, r["status"], r.get("max_abs_err", r.get("reason"))))
                if r and "us" in r:
                    times.append((r["us"], r.get("spread", 0), attn_key(e)))
            best[v] = min(times) if times else None
        cells = []
        for v in variants:
            b = best[v]
            cells.append("%-24s" % ("-" if b is None else "%.1f (%s)" % (b[0], b[2])))
        print("  %-6d %s" % (L, " ".join(cells)))
        if TIMED_PROFILE in best and best[TIMED_PROFILE] and best["shipped"]:
            mine, ship = best[TIMED_PROFILE], best["shipped"]
            if mine[0] > ship[0] * (1 + max(mine[1], ship[1])):
                failed.append("%s: attn_fwd list at L %d takes %.1f us, slower than the shipped "
                              "list's %.1f us beyond the spread" % (TIMED_PROFILE, L, mine[0],
                                                                    ship[0]))
    configs = {v: default_configs(os.path.join(args.staged, v, MOE)) for v in variants}
    print("fused_moe_kernel (E 128, top 8, hidden 2048, 192 per GPU), both GEMMs, us")
    print("  %-6s %s %s" % ("M", " ".join("%-30s" % (v + " (% of best)") for v in variants), "search best"))
    for M in MOE_M:
        t = {}
        cells = []
        for v in variants:
            key = "M%d %s" % (M, moe_key(configs[v][M]))
            r = res["moe"].get(key)
            s = res.get("moe_search", {}).get(str(M))
            if r is None and s and s["best"] == moe_key(configs[v][M]) and s.get("checked"):
                # No variant chose this config when the GPU ran, but the search
                # ran it there and checked it: its committed time and spread.
                r = {"status": "ok", "us": s["us"], "spread": s.get("spread", 0)}
                notes.add("%s at M %d: %s is the search's own run (checked against torch), "
                          "the best of %d" % (v, M, s["best"], s["searched"]))
            if r is None:
                unrun.append("%s: get_default_config at M %d (%s)" % (v, M, moe_key(configs[v][M])))
                cells.append("%-30s" % "-")
                continue
            if r["status"] != "ok":
                failed.append("%s: MoE config %s at M %d: %s" % (v, moe_key(configs[v][M]), M,
                                                                 r["status"]))
            t[v] = (r.get("us"), r.get("spread", 0))
            s = res.get("moe_search", {}).get(str(M))
            of_best = " (%.0f%%)" % (100 * s["us"] / r["us"]) if s and r.get("us") else ""
            cells.append("%-30s" % ("%s %.1f%s" % (moe_key(configs[v][M]), r["us"], of_best)
                                    if "us" in r else r["status"]))
        s = res.get("moe_search", {}).get(str(M))
        cells.append("%s %.1f of %d" % (s["best"], s["us"], s["searched"]) if s else "-")
        print("  %-6d %s" % (M, " ".join(cells)))
        if TIMED_PROFILE in t and "shipped" in t and t[TIMED_PROFILE][0] and t["shipped"][0]:
            (mine, ms), (ship, ss) = t[TIMED_PROFILE], t["shipped"]
            if mine > ship * (1 + max(ms, ss)):
                failed.append("%s: MoE config at M %d takes %.1f us, slower than the shipped "
                              "default's %.1f us beyond the spread" % (TIMED_PROFILE, M, mine,
                                                                       ship))
        # Issue 27's target: the timed profile's config reaches MOE_SHARE of
        # the search's best at every M (the share is best / mine, so a config
        # timed within the search's own spread of the best counts as 100%).
        if TIMED_PROFILE in t and s and t[TIMED_PROFILE][0]:
            mine, ms = t[TIMED_PROFILE]
            share = s["us"] / mine * (1 + max(ms, s.get("spread", 0)))
            if share < MOE_SHARE:
                failed.append("%s: MoE config at M %d reaches %.0f%% of the search's best "
                              "(%s, %.1f us), under %.0f%%" % (TIMED_PROFILE, M, 100 * s["us"] / mine,
                                                             s["best"], s["us"], 100 * MOE_SHARE))
    print("context_attention_fwd (prefix prefill; D 128, 8 / 1 heads, bf16)")
    for v in variants:
        for cap, (block, warps) in sorted(prefix_tiles(os.path.join(args.staged, v, PREFIX)).items()):
            key = "cap%s BLOCK%s w%s" % (cap, block, warps)
            r = res.get("prefix", {}).get(key)
            print("  %-8s device %s: BLOCK %s, NUM_WARPS %s: %s" % (
                v, cap, block, warps, "not run" if r is None else "%s (max error %s, %d runs)" % (
                    r["status"], r["max_abs_err"], r["runs"])))
            if r is None:
                unrun.append("%s: prefix prefill %s" % (v, key))
            elif r["status"] != "ok":
                failed.append("%s: prefix prefill %s: %s" % (v, key, r["status"]))
    for line in sorted(notes):
        print("note: " + line)
    for line in unrun:
        print("not yet run on the kernel: " + line)
    for line in failed:
        print("FAILED: " + line)
    print("real kernels: %d failed, %d not yet run" % (len(failed), len(unrun)))
    return 1 if failed or unrun else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("merge")
    m.add_argument("runs", nargs="+")
    m.add_argument("--dest", required=True)
    c = sub.add_parser("check")
    c.add_argument("--staged", required=True)
    c.add_argument("--results", default=os.path.join(HERE, "h200.json"))
    args = ap.parse_args()
    return merge(args) if args.cmd == "merge" else check(args)


if __name__ == "__main__":
    sys.exit(main())
