#!/usr/bin/env python3
"""The H200's fused-MoE timings as measurements of get_default_config's tier
family (muhpatch-probe/1 knobs rows of `moe_block_m_tier`, one per measured
BLOCK_SIZE_M at each point numel = M * topk).

  tier_measurements.py [--results h200.json] [--dest FILE]

A row is written only for a configuration that ran and is exactly what
get_default_config would launch at that M with that BLOCK_SIZE_M: the rest of
the config (BLOCK_SIZE_N, BLOCK_SIZE_K, GROUP_SIZE_M) as the H200 profile's
dicts give it (the M <= E dict below, the default dict above; `muhpatch model
rules/bi100.yaml --hw bench/probe/h200/profile.yaml` derives N and K, the
fork's dicts fix GROUP_SIZE_M). Both sections of h200.json count: `moe` (the
configs the variants chose) and `moe_search` (each M's best of the search,
which holds only that best). Nothing is estimated: a BLOCK_SIZE_M not run
with the dict's N, K and GROUP_SIZE_M at an M has no row there.

Standard library only.
"""
import argparse
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
MOE_E, MOE_TOPK = 128, 8
# The H200 profile's dicts: M <= E, and the default.
SMALL = {"BLOCK_SIZE_N": 32, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 1}
DEFAULT = {"BLOCK_SIZE_N": 128, "BLOCK_SIZE_K": 64, "GROUP_SIZE_M": 8}
# The workload the timings were taken at (Qwen3-30B-A3B at tp 4), as
# rules/bi100.yaml's workload names it.
POINT = {"num_experts": MOE_E, "topk": MOE_TOPK, "hidden_size": 2048,
         "moe_intermediate_size": 768, "tensor_parallel_size": 4, "dtype": "bfloat16"}
KEY = re.compile(r"^(?:M(\d+) )?BM(\d+) BN(\d+) BK(\d+) G(\d+)$")


def rows_from(results):
    found = {}  # (M, BM) -> (us, source)

    def add(M, key, us, source):
        m = KEY.match(key)
        bm, bn, bk, g = (int(x) for x in m.group(2, 3, 4, 5))
        want = SMALL if M <= MOE_E else DEFAULT
        if (bn, bk, g) != (want["BLOCK_SIZE_N"], want["BLOCK_SIZE_K"], want["GROUP_SIZE_M"]):
            return
        if (M, bm) not in found or us < found[(M, bm)][0]:
            found[(M, bm)] = (us, source)

    for key, row in results["moe"].items():
        if row.get("status") == "ok":
            add(int(KEY.match(key).group(1)), key, row["us"], "h200.json moe '%s'" % key)
    for M, row in results["moe_search"].items():
        add(int(M), row["best"], row["us"],
            "h200.json moe_search M%s: the best of %d searched" % (M, row["searched"]))
    rows = []
    for (M, bm), (us, source) in sorted(found.items()):
        rows.append(["moe_block_m_tier", dict(POINT, numel=M * MOE_TOPK), bm, "ok", us,
                     "M %d: %s" % (M, source)])
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--results", default=os.path.join(HERE, "h200.json"))
    ap.add_argument("--dest", default=os.path.join(HERE, "..", "probe", "h200", "moe-tiers.json"))
    args = ap.parse_args()
    with open(args.results) as f:
        results = json.load(f)
    doc = {"format": "muhpatch-probe/1", "device": results.get("device", ""),
           "columns": {"knobs": ["knob", "point", "value", "status", "us", "reason"]},
           "knobs": rows_from(results)}
    with open(args.dest, "w") as f:
        json.dump(doc, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
