#!/usr/bin/env python3
"""Calibration probe for muhpatch's tuning model (issue 12, item 5).

Subcommands:
  plan   count the tiles a run would compile and time (no GPU, no torch)
  run    on a GPU: device facts, compiled resources and timings, written as
         raw files (facts.json, rows.jsonl, run_meta.json) under --out
  merge  (no GPU) combine raw directories into the committed compact files
         profile.yaml and measurements.json, and print a summary

See bench/probe/README.md for the method.
"""
import argparse
import itertools
import json
import math
import os
import statistics
import sys
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))

# ---------------------------------------------------------------------------
# Shapes and search spaces (pure Python: shared by plan, run and merge).

ATTN_D = [64, 128, 256]
ATTN_L = [512, 2048, 8192]
ATTN_SPACES = {
    # rules/bi100.yaml search_spaces.flash_attn_fwd (waves_per_eu ignored)
    "rules": dict(BLOCK_M=[32, 64, 128, 256], BLOCK_N=[16, 32, 64, 128], num_warps=[1, 2, 4, 8],
                  num_stages=[1, 2, 3], PRE_LOAD_V=[False, True]),
    # the wider space
    "full": dict(BLOCK_M=[16, 32, 64, 128, 256], BLOCK_N=[16, 32, 64, 128],
                 num_warps=[1, 2, 4, 8, 16], num_stages=[1, 2, 3, 4], PRE_LOAD_V=[False, True]),
}
# Qwen3-30B-A3B-like MoE at tp 4: hidden 2048, moe_intermediate 768, 128 experts, top-8.
MOE_E = 128
MOE_TOPK = 8
MOE_GEMMS = {
    "w1": dict(N=2 * 768 // 4, K=2048, A_DIV=MOE_TOPK),  # gate+up, reads hidden states
    "w2": dict(N=2048, K=768 // 4, A_DIV=1),              # down, reads routed intermediates
}
MOE_M = [16, 256, 4096]
MOE_SPACE = dict(BLOCK_SIZE_M=[16, 32, 64, 128, 256], BLOCK_SIZE_N=[32, 64, 128, 256],
                 BLOCK_SIZE_K=[32, 64, 128], num_warps=[4, 8], num_stages=[1, 2, 3, 4])
MOE_GROUP_M = 8
DTYPE_BYTES = 2  # fp16
# Pre-compile pruning (recorded as status "prepruned" with the reason).
MAX_ACC_REGS = 256          # fp32 accumulator elements per thread: the register file per thread is 255
SMEM_PRUNE_FACTOR = 1.5     # GEMM tiles whose formula exceeds 1.5x the limit are not compiled
H100_SMEM_OPTIN = 232448    # used by `plan` only; `run` reads the device

ATTN_COLS = ["kind", "D", "L", "B", "BM", "BN", "w", "s", "plv", "status", "reason", "shared",
             "formula_smem", "regs", "spills", "us", "us_min", "reps", "method", "rel_err",
             "compile_s"]
MOE_COLS = ["kind", "gemm", "M", "N", "K", "BM", "BN", "BK", "w", "s", "status", "reason",
            "shared", "formula_smem", "regs", "spills", "us", "us_min", "reps", "method",
            "rel_err", "compile_s"]


def attn_formula_smem(D, BM, BN, s, nbytes=DTYPE_BYTES):
    return nbytes * D * (BM + 2 * BN * s)


def gemm_formula_smem(BM, BN, BK, s, nbytes=DTYPE_BYTES):
    return max((BM * BK + BK * BN) * nbytes * s, BM * BN * nbytes)


def attn_configs(space):
    sp = ATTN_SPACES[space]
    out = []
    for BM, BN, w, s, plv in itertools.product(sp["BLOCK_M"], sp["BLOCK_N"], sp["num_warps"],
                                               sp["num_stages"], sp["PRE_LOAD_V"]):
        out.append(dict(BM=BM, BN=BN, w=w, s=s, plv=plv))
    return out


def moe_configs():
    sp = MOE_SPACE
    out = []
    for BM, BN, BK, w, s in itertools.product(sp["BLOCK_SIZE_M"], sp["BLOCK_SIZE_N"],
                                              sp["BLOCK_SIZE_K"], sp["num_warps"],
                                              sp["num_stages"]):
        out.append(dict(BM=BM, BN=BN, BK=BK, w=w, s=s))
    return out


def attn_preprune(D, c, warp=32):
    acc = c["BM"] * D // (warp * c["w"])
    if acc > MAX_ACC_REGS:
        return "acc_regs=%d>%d" % (acc, MAX_ACC_REGS)
    return ""


def moe_preprune(c, smem_limit, warp=32):
    acc = c["BM"] * c["BN"] // (warp * c["w"])
    if acc > MAX_ACC_REGS:
        return "acc_regs=%d>%d" % (acc, MAX_ACC_REGS)
    f = gemm_formula_smem(c["BM"], c["BN"], c["BK"], c["s"])
    if f > SMEM_PRUNE_FACTOR * smem_limit:
        return "formula_smem=%d>%.1fx%d" % (f, SMEM_PRUNE_FACTOR, smem_limit)
    return ""


def attn_key(D, L, c):
    return ("attention", D, L, c["BM"], c["BN"], c["w"], c["s"], bool(c["plv"]))


def moe_key(gemm, M, c):
    return ("moe", gemm, M, c["BM"], c["BN"], c["BK"], c["w"], c["s"])


def row_key(r):
    if r["kind"] == "attention":
        return ("attention", r["D"], r["L"], r["BM"], r["BN"], r["w"], r["s"], bool(r["plv"]))
    return ("moe", r["gemm"], r["M"], r["BM"], r["BN"], r["BK"], r["w"], r["s"])


def subset(items, limit):
    """A deterministic spread of `limit` items (for smoke runs)."""
    if not limit or limit >= len(items):
        return list(items)
    step = len(items) / float(limit)
    return [items[int(i * step)] for i in range(limit)]


def build_tasks(args, smem_limit, warp=32):
    """Compile tasks: one per (kernel, compile-time shape, tile); each names the
    timing rows (shapes that differ only at run time) it serves."""
    tasks = []
    kinds = args.only.split(",")
    if "attention" in kinds:
        for D in args.D:
            for c in subset(attn_configs(args.space), args.limit):
                rows = [attn_key(D, L, c) for L in args.L]
                tasks.append(dict(kind="attention", D=D, cfg=c, rows=rows,
                                  preprune=attn_preprune(D, c, warp)))
    if "moe" in kinds:
        for g in args.gemm:
            for c in subset(moe_configs(), args.limit):
                rows = [moe_key(g, M, c) for M in args.M]
                tasks.append(dict(kind="moe", gemm=g, cfg=c, rows=rows,
                                  preprune=moe_preprune(c, smem_limit, warp)))
    # Order of work, so that a run stopped by its budget has the most useful
    # part: the rule file's attention space first, then MoE, then the rest.
    rs = ATTN_SPACES["rules"]

    def prio(t):
        if t["kind"] == "moe":
            return 1
        c = t["cfg"]
        inside = (c["BM"] in rs["BLOCK_M"] and c["BN"] in rs["BLOCK_N"] and
                  c["w"] in rs["num_warps"] and c["s"] in rs["num_stages"])
        return 0 if inside else 2
    tasks.sort(key=prio)
    return tasks


# ---------------------------------------------------------------------------
# Compile pool: worker processes fill Triton's on-disk cache (warmup compiles
# without launching); the main process then loads each kernel from the cache
# and times it. A compile that runs past --compile-timeout is killed.

def _dummy_args(kind, task, torch):
    dev = "cuda"
    t16 = torch.empty(64, dtype=torch.float16, device=dev)
    if kind == "attention":
        D = task["D"]
        L, B, HQ, HKV = 2048, 4, 32, 8  # ints with the same specialisation as every real shape
        return [t16, t16, t16, t16, 1.0 / math.sqrt(D), L, HQ, HQ // HKV, L * HQ * D, HQ * D,
                L * HKV * D, HKV * D]
    g = MOE_GEMMS[task["gemm"]]
    i32 = torch.empty(64, dtype=torch.int32, device=dev)
    N, K = g["N"], g["K"]
    num_valid = 256 * MOE_TOPK
    EM = num_valid + MOE_E * (task["cfg"]["BM"] - 1)
    return [t16, t16, t16, i32, i32, i32, num_valid, EM, N, K, K, N * K, K, N]


def _meta(kind, task):
    c = task["cfg"]
    if kind == "attention":
        return dict(D=task["D"], BLOCK_M=c["BM"], BLOCK_N=c["BN"], CAUSAL=True,
                    PRE_LOAD_V=bool(c["plv"]), num_warps=c["w"], num_stages=c["s"])
    return dict(A_DIV=MOE_GEMMS[task["gemm"]]["A_DIV"], BLOCK_M=c["BM"], BLOCK_N=c["BN"],
                BLOCK_K=c["BK"], GROUP_M=MOE_GROUP_M, num_warps=c["w"], num_stages=c["s"])


def _kernel(kind):
    sys.path.insert(0, HERE)
    import kernels
    return kernels.probe_attn_fwd if kind == "attention" else kernels.probe_moe_gemm


def _worker_main(wid, task_q, res_q):
    try:
        os.setpgid(0, 0)  # own process group, so a timed-out compile's ptxas dies with it
    except OSError:
        pass
    import torch
    torch.cuda.set_device(0)
    while True:
        item = task_q.get()
        if item is None:
            break
        idx, task = item
        res_q.put(("start", wid, idx, time.time()))
        t0 = time.time()
        try:
            k = _kernel(task["kind"])
            k.warmup(*_dummy_args(task["kind"], task, torch), grid=(1,),
                     **_meta(task["kind"], task))
            res_q.put(("done", wid, idx, "ok", "", time.time() - t0))
        except Exception as ex:  # noqa: BLE001 - recorded per tile
            res_q.put(("done", wid, idx, "compile_error", short_exc(ex), time.time() - t0))


def short_exc(ex, n=160):
    lines = [ln.strip() for ln in str(ex).strip().splitlines() if ln.strip()]
    pick = [ln for ln in lines if "ptxas fatal" in ln or "error:" in ln.lower()]
    text = pick[0] if pick else (lines[-1] if lines else "")
    return ("%s: %s" % (type(ex).__name__, text))[:n]


class CompilePool:
    def __init__(self, tasks, jobs, timeout, log):
        import multiprocessing as mp
        self.ctx = mp.get_context("spawn")
        self.tasks = tasks
        self.jobs = max(1, min(jobs, len(tasks)))
        self.timeout = timeout
        self.log = log
        self.task_q = self.ctx.Queue()
        self.res_q = self.ctx.Queue()
        self.procs = {}
        self.current = {}
        self.next_wid = 0
        for i, t in enumerate(tasks):
            self.task_q.put((i, {k: t[k] for k in ("kind", "D", "gemm", "cfg") if k in t}))
        for _ in range(self.jobs):
            self.task_q.put(None)
        for _ in range(self.jobs):
            self._spawn()

    def _spawn(self):
        wid = self.next_wid
        self.next_wid += 1
        p = self.ctx.Process(target=_worker_main, args=(wid, self.task_q, self.res_q), daemon=True)
        p.start()
        self.procs[wid] = p

    def _kill(self, wid):
        p = self.procs.pop(wid, None)
        if p is None:
            return
        try:
            os.killpg(p.pid, 9)
        except OSError:
            p.kill()
        p.join(5)

    def results(self):
        """Yields (task index, status, message, seconds) as compiles finish."""
        import queue
        done = 0
        while done < len(self.tasks):
            try:
                msg = self.res_q.get(timeout=0.5)
            except queue.Empty:
                msg = None
            if msg is not None:
                if msg[0] == "start":
                    self.current[msg[1]] = (msg[2], msg[3])
                else:
                    _, wid, idx, status, text, secs = msg
                    self.current.pop(wid, None)
                    done += 1
                    yield idx, status, text, secs
                    continue
            now = time.time()
            for wid, (idx, t0) in list(self.current.items()):
                p = self.procs.get(wid)
                dead = p is None or not p.is_alive()
                if now - t0 > self.timeout or dead:
                    self.current.pop(wid, None)
                    self._kill(wid)
                    self._spawn()
                    done += 1
                    why = "compile_timeout" if not dead else "compile_crash"
                    self.log("  %s task %d after %.0fs" % (why, idx, now - t0))
                    yield idx, why, "%s after %.0fs" % (why, now - t0), now - t0

    def close(self):
        for wid in list(self.procs):
            self._kill(wid)


# ---------------------------------------------------------------------------
# Timing

def bench(fn, torch, target_ms=15.0, graph_below_ms=0.2, max_reps=30, rotate=1):
    """Median (and min) time of one call of fn(i) in microseconds. Warm call,
    one-call estimate, then either plain back-to-back calls timed one by one
    with events, or (short kernels) a CUDA graph of n calls whose replays are
    timed, so launch overhead stays out."""
    fn(0)
    torch.cuda.synchronize()
    ev = lambda: torch.cuda.Event(enable_timing=True)  # noqa: E731
    s, e = ev(), ev()
    s.record()
    fn(1 % rotate)
    e.record()
    e.synchronize()
    est = s.elapsed_time(e)
    if est < graph_below_ms:
        try:
            n_inner = int(min(200, max(4, math.ceil(0.5 / max(est, 1e-3)))))
            g = torch.cuda.CUDAGraph()
            stream = torch.cuda.Stream()
            stream.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(stream):
                fn(0)  # warm on the side stream before capture
            torch.cuda.current_stream().wait_stream(stream)
            torch.cuda.synchronize()
            with torch.cuda.graph(g):
                for i in range(n_inner):
                    fn(i % rotate)
            g.replay()
            torch.cuda.synchronize()
            reps = int(min(20, max(5, target_ms / max(est * n_inner, 1e-3))))
            pairs = [(ev(), ev()) for _ in range(reps)]
            for a, b in pairs:
                a.record()
                g.replay()
                b.record()
            torch.cuda.synchronize()
            ts = [a.elapsed_time(b) / n_inner for a, b in pairs]
            del g
            return statistics.median(ts) * 1e3, min(ts) * 1e3, reps, "graph%d" % n_inner
        except Exception:  # noqa: BLE001 - fall back to plain timing
            torch.cuda.synchronize()
    if est > 200:
        reps = 1
    else:
        reps = int(min(max_reps, max(3, target_ms / max(est, 1e-3))))
    pairs = [(ev(), ev()) for _ in range(reps)]
    for i, (a, b) in enumerate(pairs):
        a.record()
        fn(i % rotate)
        b.record()
    torch.cuda.synchronize()
    ts = [a.elapsed_time(b) for a, b in pairs]
    if est > 200:
        ts.append(est)
    return statistics.median(ts) * 1e3, min(ts) * 1e3, len(ts), "events"


def rel_err(out, ref):
    d = (out.float() - ref).norm().item()
    r = ref.norm().item()
    return d / r if r else float("inf")


# ---------------------------------------------------------------------------
# Device facts

def device_facts(torch, triton, log, quick=False):
    f = {"versions": {}, "torch_props": {}, "triton_props": {}, "cupy_props": {}, "nvidia_smi": {},
         "measured": {}}
    f["versions"] = dict(python=sys.version.split()[0], torch=torch.__version__,
                         torch_cuda=torch.version.cuda, triton=triton.__version__)
    p = torch.cuda.get_device_properties(0)
    for k in dir(p):
        if k.startswith("_"):
            continue
        try:
            v = getattr(p, k)
        except Exception:  # noqa: BLE001
            continue
        if callable(v):
            continue
        f["torch_props"][k] = v if isinstance(v, (int, float, str, bool)) else str(v)
    try:
        dev = torch.cuda.current_device()
        tp = triton.runtime.driver.active.utils.get_device_properties(dev)
        f["triton_props"] = {k: (v if isinstance(v, (int, float, str)) else str(v))
                             for k, v in dict(tp).items()}
    except Exception as ex:  # noqa: BLE001
        f["triton_props"] = {"error": short_exc(ex)}
    try:
        import cupy
        cp = cupy.cuda.runtime.getDeviceProperties(0)
        keep = ["maxThreadsPerBlock", "maxThreadsPerMultiProcessor", "regsPerBlock",
                "regsPerMultiprocessor", "sharedMemPerBlock", "sharedMemPerBlockOptin",
                "sharedMemPerMultiprocessor", "warpSize", "multiProcessorCount", "clockRate",
                "memoryClockRate", "memoryBusWidth", "l2CacheSize", "major", "minor",
                "maxBlocksPerMultiProcessor", "reservedSharedMemPerBlock"]
        f["cupy_props"] = {k: (cp[k] if not isinstance(cp[k], bytes) else cp[k].decode())
                           for k in keep if k in cp}
        f["versions"]["cuda_driver"] = cupy.cuda.runtime.driverGetVersion()
        f["versions"]["cuda_runtime"] = cupy.cuda.runtime.runtimeGetVersion()
    except Exception as ex:  # noqa: BLE001
        f["cupy_props"] = {"error": short_exc(ex)}
    f["nvidia_smi"] = nvidia_smi()
    if "driver_version" in f["nvidia_smi"]:
        f["versions"]["driver"] = f["nvidia_smi"]["driver_version"]
    if quick:
        return f
    # HBM: a 4 GiB device-to-device copy, bytes read plus written.
    try:
        n = 1 << 31
        x = torch.randn(n, dtype=torch.float16, device="cuda")
        y = torch.empty_like(x)
        us, us_min, reps, _ = bench(lambda i: y.copy_(x), torch, target_ms=100)
        f["measured"]["hbm_copy_GBps"] = round(2 * 2 * n / (us * 1e-6) / 1e9, 1)
        f["measured"]["hbm_copy_GBps_best"] = round(2 * 2 * n / (us_min * 1e-6) / 1e9, 1)
        del x, y
    except Exception as ex:  # noqa: BLE001
        f["measured"]["hbm_error"] = short_exc(ex)
    # fp16 dense matmul (cuBLAS through torch), random data.
    try:
        n = 8192
        a = torch.randn(n, n, dtype=torch.float16, device="cuda")
        b = torch.randn(n, n, dtype=torch.float16, device="cuda")
        us, us_min, reps, _ = bench(lambda i: a @ b, torch, target_ms=100)
        f["measured"]["fp16_matmul_tflops"] = round(2 * n ** 3 / (us * 1e-6) / 1e12, 1)
        f["measured"]["fp16_matmul_tflops_best"] = round(2 * n ** 3 / (us_min * 1e-6) / 1e12, 1)
        del a, b
    except Exception as ex:  # noqa: BLE001
        f["measured"]["matmul_error"] = short_exc(ex)
    f["nvidia_smi_after"] = nvidia_smi()
    torch.cuda.empty_cache()
    return f


def nvidia_smi():
    import subprocess
    q = ["name", "driver_version", "clocks.sm", "clocks.max.sm", "clocks.mem", "clocks.max.mem",
         "power.draw", "power.limit", "temperature.gpu", "pstate", "compute_cap"]
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=" + ",".join(q), "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=20).stdout.strip()
        vals = [v.strip() for v in out.splitlines()[0].split(",")]
        return dict(zip(q, vals))
    except Exception as ex:  # noqa: BLE001
        return {"error": short_exc(ex)}


# ---------------------------------------------------------------------------
# The run

class Shapes:
    """Device tensors and references for every timing group."""

    def __init__(self, args, torch, log):
        self.torch = torch
        self.args = args
        self.log = log
        self.attn = {}
        self.moe = {}
        self.moe_align_cache = {}

    def attention(self, D, L):
        key = (D, L)
        if key in self.attn:
            return self.attn[key]
        torch = self.torch
        a = self.args
        B = max(1, a.tokens // L)
        HQ, HKV = a.hq, a.hkv
        g = torch.Generator(device="cuda").manual_seed(1000 + D + L)
        q = torch.randn(B, L, HQ, D, dtype=torch.float16, device="cuda", generator=g)
        k = torch.randn(B, L, HKV, D, dtype=torch.float16, device="cuda", generator=g)
        v = torch.randn(B, L, HKV, D, dtype=torch.float16, device="cuda", generator=g)
        o = torch.empty_like(q)
        sm = 1.0 / math.sqrt(D)
        kk = k.transpose(1, 2).repeat_interleave(HQ // HKV, dim=1)
        vv = v.transpose(1, 2).repeat_interleave(HQ // HKV, dim=1)
        ref = torch.nn.functional.scaled_dot_product_attention(
            q.transpose(1, 2), kk, vv, is_causal=True, scale=sm).transpose(1, 2).float()
        del kk, vv
        ent = dict(B=B, q=q, k=k, v=v, o=o, ref=ref, sm=sm, HQ=HQ, GQA=HQ // HKV,
                   strides=(L * HQ * D, HQ * D, L * HKV * D, HKV * D))
        self.attn[key] = ent
        return ent

    def moe_data(self, gemm, M):
        key = (gemm, M)
        if key in self.moe:
            return self.moe[key]
        torch = self.torch
        gd = MOE_GEMMS[gemm]
        N, K = gd["N"], gd["K"]
        g = torch.Generator(device="cuda").manual_seed(77 + M)
        # routing: top-8 of random logits per token (distinct experts)
        topk_ids = torch.rand(M, MOE_E, device="cuda", generator=g).topk(MOE_TOPK, dim=1).indices
        flat = topk_ids.flatten().to(torch.int32)
        numel = M * MOE_TOPK
        rows_a = M if gd["A_DIV"] > 1 else numel
        copies = self.args.rotate
        A = [torch.randn(rows_a, K, dtype=torch.float16, device="cuda", generator=g) * 0.1
             for _ in range(copies)]
        W = [torch.randn(MOE_E, N, K, dtype=torch.float16, device="cuda", generator=g) * 0.1
             for _ in range(copies)]
        C = torch.empty(numel, N, dtype=torch.float16, device="cuda")
        ref = torch.empty(numel, N, dtype=torch.float32, device="cuda")
        idx_all = torch.arange(numel, device="cuda")
        for e in range(MOE_E):
            sel = idx_all[flat == e]
            if sel.numel() == 0:
                continue
            ref[sel] = A[0][sel // gd["A_DIV"]].float() @ W[0][e].float().t()
        ent = dict(N=N, K=K, flat=flat, A=A, W=W, C=C, ref=ref, numel=numel)
        self.moe[key] = ent
        return ent

    def moe_align(self, gemm, M, BM):
        """Tokens sorted by expert, each expert padded to a multiple of BM."""
        key = (M, BM)
        if key in self.moe_align_cache:
            return self.moe_align_cache[key]
        torch = self.torch
        d = self.moe_data(gemm, M)
        flat = d["flat"].long()
        numel = d["numel"]
        order = torch.argsort(flat, stable=True)
        counts = torch.bincount(flat, minlength=MOE_E)
        padded = (counts + BM - 1) // BM * BM
        pad_end = torch.cumsum(padded, 0)
        pad_start = pad_end - padded
        cnt_start = torch.cumsum(counts, 0) - counts
        sorted_experts = flat[order]
        rank = torch.arange(numel, device="cuda") - cnt_start[sorted_experts]
        dest = pad_start[sorted_experts] + rank
        EM = numel + MOE_E * (BM - 1)  # the fork sizes the grid by this upper bound
        sorted_ids = torch.full((EM,), numel, dtype=torch.int32, device="cuda")
        sorted_ids[dest] = order.to(torch.int32)
        total = int(pad_end[-1].item())
        nblk = EM // BM + 1
        blk_start = torch.arange(nblk, device="cuda") * BM
        expert_ids = torch.searchsorted(pad_end, blk_start, right=True).clamp(max=MOE_E - 1)
        expert_ids = expert_ids.to(torch.int32)
        num_post = torch.tensor([total], dtype=torch.int32, device="cuda")
        ent = dict(sorted_ids=sorted_ids, expert_ids=expert_ids, num_post=num_post, EM=EM,
                   total=total)
        self.moe_align_cache[key] = ent
        return ent


def compiled_info(ck):
    md = getattr(ck, "metadata", None)
    shared = None
    if md is not None:
        shared = getattr(md, "shared", None)
        if shared is None and isinstance(md, dict):
            shared = md.get("shared")
    if shared is None:
        shared = getattr(ck, "shared", None)
    return shared


def load_handles(ck):
    """(status, reason, regs, spills) after loading the cubin on the device."""
    try:
        if hasattr(ck, "_init_handles"):
            ck._init_handles()
    except Exception as ex:  # noqa: BLE001
        name = type(ex).__name__
        text = str(ex)
        if name == "OutOfResources" or "out of resource" in text.lower():
            if "shared" in text.lower():
                return "oom_smem", short_exc(ex), None, None
            return "oom_other", short_exc(ex), None, None
        return "load_error", short_exc(ex), None, None
    regs = getattr(ck, "n_regs", None)
    spills = getattr(ck, "n_spills", None)
    return "ok", "", regs, spills


def run_probe(args):
    os.makedirs(args.out, exist_ok=True)
    os.environ.setdefault("TRITON_CACHE_DIR", "/tmp/probe_triton_cache")
    t_start = time.time()
    logf = open(os.path.join(args.out, "probe_log.txt"), "a")

    def log(msg):
        line = "[%6.1fs] %s" % (time.time() - t_start, msg)
        print(line, flush=True)
        logf.write(line + "\n")
        logf.flush()

    import torch
    import triton
    torch.backends.cuda.matmul.allow_tf32 = False
    log("torch %s (cuda %s), triton %s, device %s" % (
        torch.__version__, torch.version.cuda, triton.__version__, torch.cuda.get_device_name(0)))
    facts_path = os.path.join(args.out, "facts.json")
    if "facts" in args.only.split(","):
        facts = device_facts(torch, triton, log)
    else:
        facts = device_facts(torch, triton, log, quick=True)
    with open(facts_path, "w") as fh:
        json.dump(facts, fh, indent=1, sort_keys=True)
    log("facts: " + json.dumps(facts.get("measured", {})) + " triton_props=" +
        json.dumps(facts.get("triton_props", {})))
    smem_limit = int(facts.get("triton_props", {}).get("max_shared_mem", H100_SMEM_OPTIN))
    warp = int(facts.get("triton_props", {}).get("warpSize") or
               facts.get("torch_props", {}).get("warp_size") or 32)

    done = set()
    for path in args.skip or []:
        if os.path.exists(path):
            with open(path) as fh:
                for line in fh:
                    line = line.strip()
                    if line:
                        r = json.loads(line)
                        if r.get("status") != "skipped_budget":
                            done.add(row_key(r))
    tasks = build_tasks(args, smem_limit, warp)
    tasks = [t for t in tasks if any(k not in done for k in t["rows"])]
    rows_path = os.path.join(args.out, "rows.jsonl")
    rows_f = open(rows_path, "a")
    n_rows = [0]

    def emit(r):
        rows_f.write(json.dumps(r, separators=(",", ":")) + "\n")
        rows_f.flush()
        n_rows[0] += 1

    pre = [t for t in tasks if t["preprune"]]
    todo = [t for t in tasks if not t["preprune"]]
    log("tasks: %d compile (%d prepruned), rows to fill %d" % (
        len(todo), len(pre), sum(len(t["rows"]) for t in tasks)))
    for t in pre:
        for key in t["rows"]:
            if key not in done:
                emit(make_row(t, key, status="prepruned", reason=t["preprune"]))

    shapes = Shapes(args, torch, log)
    # allocate every group's tensors (and references) before the compile storm
    for t in todo:
        for key in t["rows"]:
            if key[0] == "attention":
                shapes.attention(key[1], key[2])
            else:
                shapes.moe_data(key[1], key[2])
    torch.cuda.synchronize()
    log("shapes ready")

    pool = CompilePool(todo, args.jobs, args.compile_timeout, log) if todo else None
    n_done = 0
    stopped = False
    t_compile_first = None
    try:
        for idx, status, text, secs in (pool.results() if pool else []):
            t = todo[idx]
            n_done += 1
            if t_compile_first is None:
                t_compile_first = time.time() - t_start
            if time.time() - t_start > args.budget_s:
                stopped = True
                break
            try:
                measure_task(t, status, text, secs, shapes, torch, emit, done, args, log)
            except Exception as ex:  # noqa: BLE001
                log("  task error %s: %s" % (t["cfg"], traceback.format_exc()[-600:]))
                for key in t["rows"]:
                    if key not in done:
                        emit(make_row(t, key, status="probe_error", reason=short_exc(ex)))
            if n_done % 25 == 0 or n_done == len(todo):
                log("  %d/%d tasks, %d rows" % (n_done, len(todo), n_rows[0]))
    finally:
        if pool:
            pool.close()
    meta = dict(args=vars(args), seconds=round(time.time() - t_start, 1), tasks=len(tasks),
                compiled_tasks_done=n_done, stopped_for_budget=stopped, rows=n_rows[0],
                first_compile_at_s=t_compile_first, tokens=args.tokens, hq=args.hq, hkv=args.hkv,
                versions=facts["versions"])
    with open(os.path.join(args.out, "run_meta.json"), "w") as fh:
        json.dump(meta, fh, indent=1, sort_keys=True, default=str)
    log("finished: %s" % json.dumps({k: meta[k] for k in ("seconds", "tasks",
                                                           "compiled_tasks_done", "rows",
                                                           "stopped_for_budget")}))
    rows_f.close()


def make_row(t, key, **kw):
    c = t["cfg"]
    if t["kind"] == "attention":
        D, L = key[1], key[2]
        r = dict(kind="attention", D=D, L=L, B=None, BM=c["BM"], BN=c["BN"], w=c["w"], s=c["s"],
                 plv=bool(c["plv"]), formula_smem=attn_formula_smem(D, c["BM"], c["BN"], c["s"]))
    else:
        g, M = key[1], key[2]
        gd = MOE_GEMMS[g]
        r = dict(kind="moe", gemm=g, M=M, N=gd["N"], K=gd["K"], BM=c["BM"], BN=c["BN"],
                 BK=c["BK"], w=c["w"], s=c["s"],
                 formula_smem=gemm_formula_smem(c["BM"], c["BN"], c["BK"], c["s"]))
    for k in ("status", "reason", "shared", "regs", "spills", "us", "us_min", "reps", "method",
              "rel_err", "compile_s"):
        r[k] = None
    r.update(kw)
    return r


def measure_task(t, status, text, secs, shapes, torch, emit, done, args, log):
    kind = t["kind"]
    c = t["cfg"]
    kern = _kernel(kind)
    meta = _meta(kind, t)
    if status != "ok":
        for key in t["rows"]:
            if key not in done:
                emit(make_row(t, key, status=status, reason=text, compile_s=round(secs, 2)))
        return
    base = dict(compile_s=round(secs, 2))
    ck = None
    info = None
    for key in t["rows"]:
        if key in done:
            continue
        if kind == "attention":
            D, L = key[1], key[2]
            d = shapes.attention(D, L)
            sqb, sql, skb, skl = d["strides"]
            grid = (L // c["BM"], d["B"] * d["HQ"])
            kargs = [d["q"], d["k"], d["v"], d["o"], d["sm"], L, d["HQ"], d["GQA"], sqb, sql, skb,
                     skl]
            out, ref = d["o"], d["ref"]
            extra = dict(B=d["B"])

            def fn(i, kargs=kargs, grid=grid):
                kern[grid](*kargs, **meta)
        else:
            g, M = key[1], key[2]
            d = shapes.moe_data(g, M)
            al = shapes.moe_align(g, M, c["BM"])
            num_pid_m = (al["EM"] + c["BM"] - 1) // c["BM"]
            grid = (num_pid_m * ((d["N"] + c["BN"] - 1) // c["BN"]),)
            per_copy = [[d["A"][j], d["W"][j], d["C"], al["sorted_ids"], al["expert_ids"],
                         al["num_post"], d["numel"], al["EM"], d["N"], d["K"], d["K"],
                         d["N"] * d["K"], d["K"], d["N"]] for j in range(len(d["A"]))]
            kargs = per_copy[0]
            out, ref = d["C"], d["ref"]
            extra = {}

            def fn(i, per_copy=per_copy, grid=grid):
                kern[grid](*per_copy[i % len(per_copy)], **meta)
        if ck is None:
            t0 = time.time()
            try:
                ck = kern.warmup(*kargs, grid=grid, **meta)
            except Exception as ex:  # noqa: BLE001
                for k2 in t["rows"]:
                    if k2 not in done:
                        emit(make_row(t, k2, status="compile_error_main", reason=short_exc(ex),
                                      **base))
                return
            load_s = time.time() - t0
            if load_s > 2.0:
                log("  note: main-process compile of %s took %.1fs (cache miss?)" % (c, load_s))
            shared = compiled_info(ck)
            st, reason, regs, spills = load_handles(ck)
            info = dict(shared=shared, regs=regs, spills=spills)
            if st != "ok":
                for k2 in t["rows"]:
                    if k2 not in done:
                        emit(make_row(t, k2, status=st, reason=reason, **info, **base))
                return
        row_extra = dict(info, **base)
        try:
            out.fill_(float("nan"))
            fn(0)
            torch.cuda.synchronize()
            err = rel_err(out, ref)
            us, us_min, reps, method = bench(fn, torch, target_ms=args.target_ms,
                                             rotate=args.rotate if kind == "moe" else 1)
            st = "ok" if err < 2e-2 else "wrong"
            r = make_row(t, key, status=st, reason="" if st == "ok" else "rel_err",
                         us=round(us, 2), us_min=round(us_min, 2), reps=reps, method=method,
                         rel_err=float("%.3g" % err), **row_extra)
            r.update(extra)
            emit(r)
        except Exception as ex:  # noqa: BLE001
            torch.cuda.synchronize()
            emit(make_row(t, key, status="run_error", reason=short_exc(ex), **row_extra))


# ---------------------------------------------------------------------------
# Merge: raw run directories -> committed compact files

def load_raw(dirs):
    rows = {}
    facts = None
    metas = []
    for d in dirs:
        fp = os.path.join(d, "facts.json")
        if os.path.exists(fp):
            with open(fp) as fh:
                f = json.load(fh)
            if facts is None or (f.get("measured") and not facts.get("measured")):
                facts = f
        mp = os.path.join(d, "run_meta.json")
        if os.path.exists(mp):
            with open(mp) as fh:
                metas.append(json.load(fh))
        rp = os.path.join(d, "rows.jsonl")
        if os.path.exists(rp):
            with open(rp) as fh:
                for line in fh:
                    line = line.strip()
                    if not line:
                        continue
                    r = json.loads(line)
                    k = row_key(r)
                    old = rows.get(k)
                    if old is None or (old["status"] != "ok" and r["status"] == "ok") or \
                            r["status"] == old["status"]:
                        rows[k] = r
    return facts or {}, rows, metas


def _num(v):
    try:
        return int(v)
    except (TypeError, ValueError):
        try:
            return float(v)
        except (TypeError, ValueError):
            return None


def build_profile(facts, name, src, max_stages=(4, "declared: Triton on Hopper pipelines with "
                                                "num_stages up to 4 (the probe compiled and "
                                                "timed stages 1..4)")):
    tp = facts.get("torch_props", {})
    tr = facts.get("triton_props", {})
    cu = facts.get("cupy_props", {})
    sm = facts.get("nvidia_smi", {})
    me = facts.get("measured", {})
    out = {}

    def put(key, value, source):
        if value is not None:
            out[key] = (value, source)

    put("warp_size", _num(tr.get("warpSize")) or _num(tp.get("warp_size")),
        "%s: triton driver get_device_properties warpSize" % src)
    put("compute_units", _num(tr.get("multiprocessor_count")) or _num(tp.get("multi_processor_count")),
        "%s: multiprocessor_count (triton driver / torch)" % src)
    put("smem_per_block", _num(tr.get("max_shared_mem")) or _num(cu.get("sharedMemPerBlockOptin")),
        "%s: triton max_shared_mem = cudaDevAttrMaxSharedMemoryPerBlockOptin; tiles above it "
        "fail to load (measurements.json)" % src)
    if tp.get("major") is not None:
        put("compute_capability", float("%s.%s" % (tp.get("major"), tp.get("minor"))),
            "%s: torch get_device_properties major.minor" % src)
    put("max_stages", max_stages[0], max_stages[1])
    put("regs_per_cu", _num(tp.get("regs_per_multiprocessor")) or _num(cu.get("regsPerMultiprocessor")),
        "%s: regs_per_multiprocessor (torch / cudaGetDeviceProperties)" % src)
    put("max_threads_per_cu", _num(tp.get("max_threads_per_multi_processor")) or
        _num(cu.get("maxThreadsPerMultiProcessor")), "%s: maxThreadsPerMultiProcessor" % src)
    put("max_threads_per_block", _num(cu.get("maxThreadsPerBlock")) or
        _num(tp.get("max_threads_per_block")), "%s: maxThreadsPerBlock (cudaGetDeviceProperties"
        " / torch)" % src)
    put("max_regs_per_thread", 255, "CUDA limit for cc >= 3.5; the probe's largest compiled "
        "n_regs (summary.regs.max in measurements.json) bears it out")
    if me.get("hbm_copy_GBps"):
        put("hbm_bandwidth", round(me["hbm_copy_GBps"]),
            "%s: 4 GiB device-to-device copy, bytes read + written, median" % src)
    clk = None
    if cu.get("clockRate"):
        clk = round(_num(cu["clockRate"]) / 1000)
        csrc = "%s: cudaDevAttrClockRate (max SM clock)" % src
    elif tp.get("clock_rate"):
        clk = round(_num(tp["clock_rate"]) / 1000)
        csrc = "%s: torch clock_rate (max SM clock)" % src
    elif sm.get("clocks.max.sm"):
        clk = _num(sm["clocks.max.sm"].split()[0])
        csrc = "%s: nvidia-smi clocks.max.sm" % src
    if clk:
        put("clock_mhz", clk, csrc)
    if me.get("fp16_matmul_tflops"):
        put("fp16_tflops", me["fp16_matmul_tflops"],
            "%s: torch fp16 8192^3 matmul on random data, median" % src)
    return out


def write_profile(path, name, prof, versions):
    lines = ["# Measured by bench/probe/probe.py; see bench/probe/README.md.",
             "# versions: " + ", ".join("%s %s" % kv for kv in sorted(versions.items())),
             "profile: %s" % name, "facts:"]
    order = ["warp_size", "compute_units", "smem_per_block", "compute_capability", "max_stages",
             "regs_per_cu", "max_threads_per_cu", "max_threads_per_block", "max_regs_per_thread",
             "hbm_bandwidth", "clock_mhz", "fp16_tflops"]
    for k in order:
        if k in prof:
            v, s = prof[k]
            vs = ('"%s"' % v) if isinstance(v, str) else str(v)
            lines.append("  %s: {value: %s, source: %s}" % (k, vs, json.dumps(s)))
    with open(path, "w") as fh:
        fh.write("\n".join(lines) + "\n")


def sig(v, n=4):
    """v rounded to n significant digits (compact JSON)."""
    if v is None:
        return None
    return float("%.*g" % (n, v))


def compact_reason(r):
    st, reason = r["status"], r.get("reason") or ""
    if st == "ok":
        return ""
    if st == "oom_smem":
        return "smem>limit"
    if "Insufficient registers" in reason:
        i = reason.find("Insufficient registers")
        return "ptxas: " + reason[i:i + 28].strip()
    return reason[:80]


def spearman(xs, ys):
    def ranks(v):
        order = sorted(range(len(v)), key=lambda i: v[i])
        rk = [0.0] * len(v)
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
                j += 1
            for k in range(i, j + 1):
                rk[order[k]] = (i + j) / 2.0
            i = j + 1
        return rk
    if len(xs) < 3:
        return None
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    num = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    den = math.sqrt(sum((a - mx) ** 2 for a in rx) * sum((b - my) ** 2 for b in ry))
    return num / den if den else None


def tile_of(r):
    keys = ["BM", "BN", "w", "s", "plv"] if r["kind"] == "attention" else ["BM", "BN", "BK", "w", "s"]
    return {k: r[k] for k in keys}


def summarize(rows, tokens=8192, hq=32):
    s = {"attention": {}, "moe": {}, "smem_formula": {}, "regs": {}, "status_counts": {},
         "repeat": {}}
    by_group = {}
    for r in rows:
        g = ("attention", r["D"], r["L"]) if r["kind"] == "attention" else \
            ("moe", r["gemm"], r["M"])
        by_group.setdefault(g, []).append(r)
        s["status_counts"][r["status"]] = s["status_counts"].get(r["status"], 0) + 1
    all_dev = []
    for g, rs in sorted(by_group.items(), key=lambda kv: (kv[0][0], str(kv[0][1]), kv[0][2])):
        ok = [r for r in rs if r["status"] == "ok" and r["us"] is not None]
        counts = {}
        for r in rs:
            counts[r["status"]] = counts.get(r["status"], 0) + 1
        ent = dict(rows=len(rs), counts=counts)
        if ok:
            best = min(ok, key=lambda r: r["us"])
            ent["best"] = tile_of(best)
            ent["best_us"] = best["us"]
            ent["worst_ok_us"] = max(r["us"] for r in ok)
            ent["within_10pct_of_best"] = sum(1 for r in ok if r["us"] <= best["us"] / 0.9)
            if g[0] == "attention":
                D, L = g[1], g[2]
                B = max(1, tokens // L)
                flops = 2.0 * B * hq * L * L * D  # causal: half of 4*L*L*D per head
                ent["best_tflops"] = round(flops / (best["us"] * 1e-6) / 1e12, 1)
            rep = [r for r in ok if r.get("us_rep") is not None]
            if rep:
                best_rep = min(rep, key=lambda r: r["us_rep"])
                ent["best_in_repeat"] = tile_of(best_rep)
                ent["best_of_run1_in_repeat_vs_best"] = round(
                    best_rep["us_rep"] / best["us_rep"], 3) if best.get("us_rep") else None
                ent["spearman_run1_vs_repeat"] = round(
                    spearman([r["us"] for r in rep], [r["us_rep"] for r in rep]), 4)
                devs = [abs(r["us_rep"] / r["us"] - 1) for r in rep]
                all_dev += devs
                ent["repeat_abs_dev_median"] = round(statistics.median(devs), 4)
        name = "%s/M%d" % (g[1], g[2]) if g[0] == "moe" else "D%d/L%d" % (g[1], g[2])
        s[g[0]][name] = ent
    if all_dev:
        all_dev.sort()
        s["repeat"] = dict(rows=len(all_dev), abs_dev_median=round(statistics.median(all_dev), 4),
                           abs_dev_p90=round(all_dev[int(0.9 * (len(all_dev) - 1))], 4),
                           abs_dev_p99=round(all_dev[int(0.99 * (len(all_dev) - 1))], 4),
                           abs_dev_max=round(all_dev[-1], 4))
    # shared-memory formulas as upper bounds
    for kind in ("attention", "moe"):
        rs = [r for r in rows if r["kind"] == kind and r.get("shared") is not None]
        seen = {}
        for r in rs:  # one compiled kernel serves several shapes: count it once
            ck = (r.get("D"), r.get("gemm"), r["BM"], r["BN"], r.get("BK"), r["w"], r["s"],
                  r.get("plv"))
            seen[ck] = r
        rs = list(seen.values())
        over = [r for r in rs if r["shared"] > r["formula_smem"]]
        exact = [r for r in rs if r["shared"] == r["formula_smem"]]
        ratios = [r["shared"] / float(r["formula_smem"]) for r in rs if r["formula_smem"]]
        s["smem_formula"][kind] = dict(
            compiled=len(rs), held=len(rs) - len(over), exact=len(exact),
            violations=[{k: r.get(k) for k in ("D", "gemm", "BM", "BN", "BK", "w", "s", "plv",
                                               "shared", "formula_smem")} for r in over[:20]],
            ratio_min=round(min(ratios), 3) if ratios else None,
            ratio_max=round(max(ratios), 3) if ratios else None,
            loaded_max_shared=max([r["shared"] for r in rs if r["status"] != "oom_smem"] or [0]),
            refused_min_shared=min([r["shared"] for r in rs if r["status"] == "oom_smem"] or [0]))
        regs = [r["regs"] for r in rs if r.get("regs") is not None]
        spills = [r for r in rs if (r.get("spills") or 0) > 0]
        s["regs"][kind] = dict(min=min(regs) if regs else None, max=max(regs) if regs else None,
                               kernels=len(regs), with_spills=len(spills))
    errs = [r["rel_err"] for r in rows if r.get("rel_err") is not None]
    s["rel_err_max"] = max(errs) if errs else None
    return s


OUT_COLS = {
    "attention": ["D", "L", "BM", "BN", "w", "s", "plv", "status", "reason", "shared", "regs",
                  "spills", "us", "us_rep"],
    "moe": ["gemm", "M", "BM", "BN", "BK", "w", "s", "status", "reason", "shared", "regs",
            "spills", "us", "us_rep"],
}


def merge(args):
    facts, rows, metas = load_raw(args.raw)
    rep_facts, rep_rows, rep_metas = load_raw(args.repeat) if args.repeat else ({}, {}, [])
    for k, r in rows.items():
        r2 = rep_rows.get(k)
        r["us_rep"] = r2["us"] if r2 and r2["status"] == "ok" and r["status"] == "ok" else None
        if r2 and r2["status"] == r["status"] and "Repro command" in (r.get("reason") or ""):
            r["reason"] = r2["reason"]
        if r2 and r2["status"] != r["status"]:
            print("status differs between runs: %s %s / %s" % (k, r["status"], r2["status"]))
    rows = sorted(rows.values(), key=lambda r: tuple(
        (x if isinstance(x, (int, bool)) else str(x)) for x in row_key(r)))
    tokens = metas[0]["tokens"] if metas else 8192
    hq = metas[0]["hq"] if metas else 32
    versions = dict(facts.get("versions", {}))
    ms = (args.max_stages, args.max_stages_source) if args.max_stages else None
    prof = build_profile(facts, args.name, args.source, *([ms] if ms else []))
    os.makedirs(args.dest, exist_ok=True)
    write_profile(os.path.join(args.dest, "profile.yaml"), args.name, prof, versions)
    summary = summarize(rows, tokens, hq)
    doc = dict(
        format="muhpatch-probe/1",
        device=facts.get("torch_props", {}).get("name"),
        versions=versions,
        facts_raw=dict(torch={k: v for k, v in (facts.get("torch_props") or {}).items()
                              if k not in ("uuid", "pci_bus_id", "pci_device_id", "pci_domain_id")}, triton=facts.get("triton_props"),
                       cuda=facts.get("cupy_props"), nvidia_smi=facts.get("nvidia_smi"),
                       nvidia_smi_after=facts.get("nvidia_smi_after"),
                       measured=facts.get("measured"),
                       measured_repeat=rep_facts.get("measured")),
        setup=dict(
            dtype="float16",
            attention=dict(kernel="bench/probe/kernels.py probe_attn_fwd", causal=True,
                           num_q_heads=hq, num_kv_heads=metas[0]["hkv"] if metas else 8,
                           tokens_per_group=tokens, B="max(1, tokens_per_group // L)",
                           D=ATTN_D, L=ATTN_L, grid="(L/BM, B*num_q_heads)",
                           space=ATTN_SPACES["full"], rules_space=ATTN_SPACES["rules"]),
            moe=dict(kernel="bench/probe/kernels.py probe_moe_gemm", E=MOE_E, topk=MOE_TOPK,
                     gemms=MOE_GEMMS, M=MOE_M, group_m=MOE_GROUP_M, space=MOE_SPACE,
                     routing="top-8 of uniform random logits per token",
                     grid="cdiv(M*topk + E*(BM-1), BM) * cdiv(N, BN); blocks past the padded "
                          "count exit at once (as fused_moe)"),
            timing="us: median of CUDA-event timings of one launch after a warm call, about "
                   "15 ms of kernel work per tile (3..30 launches); tiles under 0.2 ms as "
                   "CUDA-graph replays of n launches (launch overhead excluded); MoE rotates 4 "
                   "input/weight copies. us_rep: the same, from an independent second run on "
                   "a fresh machine",
            validity="status ok: compiled, loaded and the output matched a torch reference "
                     "(rel. error < 2e-2; summary.rel_err_max); oom_smem: Triton refused to "
                     "load it (compiled shared > smem_per_block), shared is what it needed; "
                     "compile_error: Triton/ptxas failed; prepruned: not compiled because the "
                     "fp32 accumulator alone needs > 256 registers per thread (BM*D or BM*BN "
                     "over 32*num_warps), or a GEMM formula smem > 1.5x the limit",
            runs=[{k: m.get(k) for k in ("seconds", "rows", "stopped_for_budget")}
                  for m in metas + rep_metas]),
        summary=summary,
        columns=OUT_COLS,
    )
    tables = {}
    for kind in ("attention", "moe"):
        out = []
        for r in rows:
            if r["kind"] != kind:
                continue
            r = dict(r, reason=compact_reason(r), us=sig(r.get("us")), us_rep=sig(r.get("us_rep")))
            out.append([r.get(c) for c in OUT_COLS[kind]])
        tables[kind] = out
    path = os.path.join(args.dest, "measurements.json")
    with open(path, "w") as fh:
        head = json.dumps(doc, indent=1, sort_keys=False)
        fh.write(head[:-2] + ',\n "attention": [\n')
        fh.write(",\n".join("  " + json.dumps(r, separators=(",", ":")) for r in tables["attention"]))
        fh.write('\n ],\n "moe": [\n')
        fh.write(",\n".join("  " + json.dumps(r, separators=(",", ":")) for r in tables["moe"]))
        fh.write("\n ]\n}\n")
    with open(path) as fh:
        json.load(fh)  # the file must parse
    print(json.dumps(summary, indent=1))
    print("wrote %s (%d attention rows, %d moe rows, %d bytes) and profile.yaml" % (
        path, len(tables["attention"]), len(tables["moe"]), os.path.getsize(path)))


def plan(args):
    tasks = build_tasks(args, args.smem_limit, args.warp)
    pre = sum(1 for t in tasks if t["preprune"])
    rows = sum(len(t["rows"]) for t in tasks if not t["preprune"])
    by = {}
    for t in tasks:
        k = t["kind"] + ("/D%d" % t["D"] if t["kind"] == "attention" else "/" + t["gemm"])
        a = by.setdefault(k, [0, 0])
        a[0 if not t["preprune"] else 1] += 1
    print("compile tasks: %d, prepruned: %d, timed rows: %d" % (len(tasks) - pre, pre, rows))
    for k, (n, p) in sorted(by.items()):
        print("  %-16s compile %4d  prepruned %4d" % (k, n, p))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)

    def shape_args(p):
        p.add_argument("--only", default="facts,attention,moe",
                       help="comma list of facts, attention, moe")
        p.add_argument("--space", default="full", choices=sorted(ATTN_SPACES))
        p.add_argument("--D", type=int, nargs="+", default=ATTN_D)
        p.add_argument("--L", type=int, nargs="+", default=ATTN_L)
        p.add_argument("--M", type=int, nargs="+", default=MOE_M)
        p.add_argument("--gemm", nargs="+", default=sorted(MOE_GEMMS), choices=sorted(MOE_GEMMS))
        p.add_argument("--limit", type=int, default=0,
                       help="at most this many tiles per compile group (smoke runs)")

    p = sub.add_parser("plan")
    shape_args(p)
    p.add_argument("--smem-limit", type=int, default=H100_SMEM_OPTIN)
    p.add_argument("--warp", type=int, default=32)
    p = sub.add_parser("run")
    shape_args(p)
    p.add_argument("--out", default=os.environ.get("OUT", "probe_out"))
    p.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 4) - 2))
    p.add_argument("--compile-timeout", type=float, default=90.0)
    p.add_argument("--budget-s", type=float, default=480.0,
                   help="stop taking new tiles after this many seconds")
    p.add_argument("--target-ms", type=float, default=15.0,
                   help="about this much timed kernel work per tile")
    p.add_argument("--tokens", type=int, default=8192, help="attention tokens per group (B*L)")
    p.add_argument("--hq", type=int, default=32)
    p.add_argument("--hkv", type=int, default=8)
    p.add_argument("--rotate", type=int, default=4, help="MoE input copies rotated while timing")
    p.add_argument("--skip", nargs="*", help="rows.jsonl files whose tiles are already measured")
    p = sub.add_parser("merge")
    p.add_argument("raw", nargs="+", help="raw run directories (facts.json, rows.jsonl)")
    p.add_argument("--repeat", nargs="*", help="raw directories of an independent repeat run")
    p.add_argument("--dest", default=os.path.join(HERE, "h200"))
    p.add_argument("--name", default="h200-probe")
    p.add_argument("--source", default="probe on a lent NVIDIA H200")
    p.add_argument("--max-stages", type=int, default=0,
                   help="override the declared max_stages fact (default 4, Hopper)")
    p.add_argument("--max-stages-source", default="declared by whoever ran the probe")
    args = ap.parse_args(argv)
    if args.cmd == "plan":
        plan(args)
    elif args.cmd == "run":
        run_probe(args)
    else:
        merge(args)


if __name__ == "__main__":
    main()
