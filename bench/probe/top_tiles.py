#!/usr/bin/env python3
"""The fastest measured attention tiles per group, with what the compiler gave
them (registers, spills, shared memory) and the warps resident per SM that
follow: what distinguishes the best tiles from the model's picks.

  python3 bench/probe/top_tiles.py [measurements.json] [--top N] [--all-tiles]

By default only tiles of rules/bi100.yaml's flash_attn_fwd space are listed.
"""
import argparse
import json

ap = argparse.ArgumentParser()
ap.add_argument("path", nargs="?", default="bench/probe/h200/measurements.json")
ap.add_argument("--top", type=int, default=10)
ap.add_argument("--all-tiles", action="store_true", help="the probe's whole space")
a = ap.parse_args()
doc = json.load(open(a.path))
dev = doc["facts_raw"]["torch"]
space = doc["setup"]["attention"]["rules_space"]
rows = [dict(zip(doc["columns"]["attention"], r)) for r in doc["attention"]]


def in_space(r):
    return a.all_tiles or (r["BM"] in space["BLOCK_M"] and r["BN"] in space["BLOCK_N"]
                           and r["w"] in space["num_warps"] and r["s"] in space["num_stages"])


def resident_warps(r):
    threads = r["w"] * dev["warp_size"]
    per_warp = -(-max(r["regs"], 1) * dev["warp_size"] // 256) * 256  # allocated in 256s
    blocks = min(dev["shared_memory_per_multiprocessor"] // max(r["shared"], 1),
                 dev["regs_per_multiprocessor"] // (per_warp * r["w"]),
                 dev["max_threads_per_multi_processor"] // threads)
    return blocks * r["w"]


groups = sorted({(r["D"], r["L"]) for r in rows})
for d, l in groups:
    ok = [r for r in rows if r["D"] == d and r["L"] == l and r["status"] == "ok"]
    for r in ok:
        r["t"] = min(r["us"], r["us_rep"] or r["us"])
    best = min(r["t"] for r in ok)
    print(f"D{d} L{l}: best {best:.1f} us")
    for r in sorted((r for r in ok if in_space(r)), key=lambda r: r["t"])[:a.top]:
        print(f"  {r['BM']:>3}x{r['BN']:<3} w{r['w']:<2} s{r['s']} plv={int(r['plv'])}"
              f"  {best / r['t']:.3f}  regs {r['regs']:>3} spills {r['spills']:>3}"
              f"  shared {r['shared']:>6}  resident warps {resident_warps(r)}")
