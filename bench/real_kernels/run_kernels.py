#!/usr/bin/env python3
"""Runs the real tree's own Triton kernels with the shipped values and with
muhpatch's, checks each against a torch reference and times it (GPU only).

  run_kernels.py attention --tree STAGED --out DIR
  run_kernels.py moe       --tree STAGED --out DIR [--search]

STAGED is what stage.sh wrote: one folder per variant (shipped, and one per
muhpatch profile), each holding the kernel files as that variant has them.
Rows go to DIR/<part>.jsonl; summarize.py turns them into the committed file.
See README.md beside this file for the method.
"""
import argparse
import itertools
import json
import math
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "probe"))

import tree_kernels  # noqa: E402

ATTN = "vllm/attention/ops/triton_flash_attention.py"
MOE = "vllm/model_executor/layers/fused_moe/fused_moe.py"
PREFIX = "vllm/attention/ops/prefix_prefill.py"
# context_attention_fwd: prompts whose first tokens are in the paged KV cache
# (prefix caching), the rest new; (cached, new) tokens per prompt. Block size
# 16 and x = 8 (16 bytes of bf16) as vLLM lays the cache out.
PREFIX_SEQS = [[(0, 2048)], [(1024, 512), (300, 77), (4096, 1)]]
PREFIX_BLOCK_SIZE, PREFIX_X = 16, 8
# The device check answered both ways: below SM80 (the BI-V100's branch) and
# the H200's own.
PREFIX_CAPS = [(7, 0), (9, 0)]
# attn_fwd as the fork serves Qwen3-MoE at tp 4: D 128, 8 query heads and 1 KV
# head per GPU, causal prefill of one prompt, bfloat16.
ATTN_D, ATTN_HQ, ATTN_HK = 128, 8, 1
ATTN_L = [512, 2048, 8192]
# fused_moe_kernel: Qwen3-30B-A3B at tp 4 (E 128, top 8, hidden 2048, 192
# intermediate per GPU); both GEMMs with one config, as fused_experts runs them.
MOE_E, MOE_TOPK, MOE_H, MOE_I = 128, 8, 2048, 192
MOE_M = [16, 64, 256, 1024, 4096, 16384]
MOE_SEARCH = dict(BLOCK_SIZE_M=[16, 32, 64, 128, 256], BLOCK_SIZE_N=[32, 64, 128, 256],
                  BLOCK_SIZE_K=[32, 64, 128, 256], GROUP_SIZE_M=[1, 8, 16, 32])
ROUNDS = 5
ATTN_TOL = 3e-2  # max |out - ref| (bf16 output; the wrong entries err by ~3)
MOE_TOL = 2e-2   # relative Frobenius error


def variants(tree):
    return sorted(d for d in os.listdir(tree) if os.path.isdir(os.path.join(tree, d)))


def log(msg):
    print(msg, flush=True)


def bench_rounds(fn, torch):
    from probe import bench
    return [bench(fn, torch)[0] for _ in range(ROUNDS)]


def spread(ts):
    med = statistics.median(ts)
    return med, (max(ts) - min(ts)) / med if med else 0.0


# --------------------------------------------------------------------------
# attn_fwd

def attn_key(e):
    return (e["BLOCK_M"], e["BLOCK_N"], bool(e.get("PRE_LOAD_V", False)), e["num_warps"],
            e["num_stages"])


def attn_inputs(torch, L, reference=True):
    g = torch.Generator(device="cuda").manual_seed(L)
    q = torch.randn(L, ATTN_HQ, ATTN_D, device="cuda", dtype=torch.bfloat16, generator=g)
    k = torch.randn(L, ATTN_HK, ATTN_D, device="cuda", dtype=torch.bfloat16, generator=g)
    v = torch.randn(L, ATTN_HK, ATTN_D, device="cuda", dtype=torch.bfloat16, generator=g)
    cu = torch.tensor([0, L], dtype=torch.int32, device="cuda")
    if not reference:
        return q, k, v, cu, None
    qf = q.float().transpose(0, 1)[None]
    kf = k.float().transpose(0, 1)[None].expand(1, ATTN_HQ, L, ATTN_D)
    vf = v.float().transpose(0, 1)[None].expand(1, ATTN_HQ, L, ATTN_D)
    ref = torch.nn.functional.scaled_dot_product_attention(qf, kf, vf, is_causal=True,
                                                           scale=1.0 / math.sqrt(ATTN_D))
    return q, k, v, cu, ref[0].transpose(0, 1)


def attn_launch(mod, e, q, k, v, cu, o, L):
    """Our own launch of the tree's attn_fwd JIT function, with the arguments
    _attention.forward passes (varlen layout, no bias, no dropout)."""
    grid = (math.ceil(L / e["BLOCK_M"]), ATTN_HQ, 1)
    strides = lambda t: (0, t.stride(1), t.stride(0), t.stride(2))  # noqa: E731
    mod.attn_fwd.fn[grid](
        q, k, v, None, 1.0 / math.sqrt(ATTN_D), None, o,
        *strides(q), *strides(k), *strides(v), *strides(o), 0, 0, 0, 0, cu, cu,
        dropout_p=0.0, philox_seed=0x1BF52, philox_offset_base=0x1D4B42, encoded_softmax=None,
        HQ=ATTN_HQ, HK=ATTN_HK, ACTUAL_BLOCK_DMODEL=ATTN_D, MAX_SEQLENS_Q=L, MAX_SEQLENS_K=L,
        IS_CAUSAL=True, VARLEN=True, BLOCK_DMODEL=ATTN_D, BIAS_TYPE=0, ENABLE_DROPOUT=False,
        RETURN_ENCODED_SOFTMAX=False, BLOCK_M=e["BLOCK_M"], BLOCK_N=e["BLOCK_N"],
        PRE_LOAD_V=bool(e.get("PRE_LOAD_V", False)), num_warps=e["num_warps"],
        num_stages=e["num_stages"])


def _attn_compile_worker(args):
    path, e, L = args
    import torch
    mod = tree_kernels.import_file(path, "attn_%d" % os.getpid())
    q, k, v, cu, _ = attn_inputs(torch, L, reference=False)
    try:
        attn_launch(mod, e, q, k, v, cu, torch.empty_like(q), L)
        torch.cuda.synchronize()
        return ""
    except Exception as ex:  # noqa: BLE001 - recorded per entry
        return "%s: %s" % (type(ex).__name__, str(ex).strip().splitlines()[-1][:160])


def parallel_compile(worker, tasks, jobs):
    import multiprocessing as mp
    with mp.get_context("spawn").Pool(jobs) as pool:
        return pool.map(worker, tasks)


def run_attention(args, out):
    import torch
    lists, mods = {}, {}
    for var in variants(args.tree):
        path = os.path.join(args.tree, var, ATTN)
        mods[var] = tree_kernels.import_file(path, "attn_" + var)
        lists[var] = tree_kernels.autotune_list(mods[var].attn_fwd)
    entries = {}
    for var, lst in lists.items():
        for e in lst:
            entries.setdefault(attn_key(e), e)
    # Controls: entries no list holds, run to show what a constraint keeps out.
    controls = json.loads(args.controls) if args.controls else []
    for e in controls:
        entries.setdefault(attn_key(e), e)
    lists["control"] = controls
    path = os.path.join(args.tree, "shipped", ATTN)
    tasks = [(path, e, L) for e in entries.values() for L in ATTN_L]
    t0 = time.time()
    errors = parallel_compile(_attn_compile_worker, tasks, args.jobs)
    log("attention: %d compiles in %.0f s" % (len(tasks), time.time() - t0))
    compile_error = {(attn_key(t[1]), t[2]): err for t, err in zip(tasks, errors)}
    mod = mods["shipped"]
    for L in ATTN_L:
        q, k, v, cu, ref = attn_inputs(torch, L)
        for key, e in entries.items():
            row = dict(part="attention", L=L, D=ATTN_D, HQ=ATTN_HQ, HK=ATTN_HK, entry=e,
                       lists=[var for var, lst in lists.items() if key in map(attn_key, lst)])
            if compile_error[(key, L)]:
                row.update(status="error", reason=compile_error[(key, L)])
            else:
                o = torch.full_like(q, float("nan"))
                attn_launch(mod, e, q, k, v, cu, o, L)
                torch.cuda.synchronize()
                err = (o.float() - ref).abs().max().item()
                ok = err == err and err < ATTN_TOL
                ts = bench_rounds(lambda i: attn_launch(mod, e, q, k, v, cu, o, L), torch)
                med, sp = spread(ts)
                row.update(status="ok" if ok else "wrong", max_abs_err=round(err, 5),
                           us=round(med, 2), spread=round(sp, 4), rounds=[round(t, 2) for t in ts])
            out.write(json.dumps(row) + "\n")
            out.flush()
            log("attention L%d %s: %s" % (L, key, row.get("status")))


# --------------------------------------------------------------------------
# fused_moe_kernel

def moe_key(c):
    return tuple(c[k] for k in ("BLOCK_SIZE_M", "BLOCK_SIZE_N", "BLOCK_SIZE_K", "GROUP_SIZE_M"))


def moe_data(torch, M):
    g = torch.Generator(device="cuda").manual_seed(M)
    x = torch.randn(M, MOE_H, device="cuda", dtype=torch.bfloat16, generator=g) * 0.1
    logits = torch.randn(M, MOE_E, device="cuda", generator=g)
    w, ids = torch.topk(torch.softmax(logits, -1), MOE_TOPK, dim=-1)
    return dict(x=x, topk_w=w.float(), topk_ids=ids.to(torch.int32))


def moe_weights(torch):
    g = torch.Generator(device="cuda").manual_seed(0)
    w1 = torch.randn(MOE_E, 2 * MOE_I, MOE_H, device="cuda", dtype=torch.bfloat16, generator=g)
    w2 = torch.randn(MOE_E, MOE_H, MOE_I, device="cuda", dtype=torch.bfloat16, generator=g)
    return w1 * 0.05, w2 * 0.05


def moe_align(torch, topk_ids, BM):
    """Our own token alignment: the routed (token, expert) pairs sorted by
    expert, each expert's run padded to a multiple of BM with the sentinel
    numel; one expert id per BM block; the padded count. (In the fork this is
    an ixformer op.)"""
    flat = topk_ids.flatten().long()
    numel = flat.numel()
    order = torch.argsort(flat, stable=True)
    counts = torch.bincount(flat, minlength=MOE_E)
    padded = (counts + BM - 1) // BM * BM
    pad_end = torch.cumsum(padded, 0)
    cnt_start = torch.cumsum(counts, 0) - counts
    experts = flat[order]
    dest = (pad_end - padded)[experts] + torch.arange(numel, device="cuda") - cnt_start[experts]
    EM = numel + MOE_E * (BM - 1)
    sorted_ids = torch.full((EM,), numel, dtype=torch.int32, device="cuda")
    sorted_ids[dest] = order.to(torch.int32)
    starts = torch.arange(EM // BM + 1, device="cuda") * BM
    expert_ids = torch.searchsorted(pad_end, starts, right=True).clamp(max=MOE_E - 1)
    num_post = pad_end[-1:].to(torch.int32)
    return sorted_ids, expert_ids.to(torch.int32), num_post


def moe_launch(ns, cfg, A, B, C, topk_w, topk_ids, aligned, mul_weight, top_k):
    """Our own launch of the tree's fused_moe_kernel, with the arguments the
    fork's (dead) Triton path of invoke_fused_moe_kernel passes."""
    import triton
    import triton.language as tl
    sorted_ids, expert_ids, num_post = aligned
    grid = (triton.cdiv(sorted_ids.shape[0], cfg["BLOCK_SIZE_M"]) *
            triton.cdiv(B.shape[1], cfg["BLOCK_SIZE_N"]),)
    ns["fused_moe_kernel"][grid](
        A, B, C, None, None, topk_w, sorted_ids, expert_ids, num_post,
        B.shape[1], B.shape[2], sorted_ids.shape[0], topk_ids.numel(),
        A.stride(0), A.stride(1), B.stride(0), B.stride(2), B.stride(1), C.stride(1), C.stride(2),
        0, 0, MUL_ROUTED_WEIGHT=mul_weight, top_k=top_k, compute_type=tl.bfloat16,
        use_fp8_w8a8=False, use_int8_w8a16=False,
        **{k: cfg[k] for k in ("BLOCK_SIZE_M", "BLOCK_SIZE_N", "BLOCK_SIZE_K", "GROUP_SIZE_M")},
        **{k: cfg[k] for k in ("num_warps", "num_stages") if k in cfg})


class Moe:
    def __init__(self, torch, ns):
        self.torch, self.ns = torch, ns
        self.w1, self.w2 = moe_weights(torch)
        self.data, self.ref = {}, {}

    def inputs(self, M):
        torch = self.torch
        if M not in self.data:
            d = moe_data(torch, M)
            flat = d["topk_ids"].flatten().long()
            x_rows = d["x"].float()[torch.arange(M * MOE_TOPK, device="cuda") // MOE_TOPK]
            h = torch.empty(M * MOE_TOPK, 2 * MOE_I, device="cuda")
            for e in torch.unique(flat).tolist():
                idx = (flat == e).nonzero().squeeze(1)
                h[idx] = x_rows[idx] @ self.w1[e].float().t()
            act = (torch.nn.functional.silu(h[:, :MOE_I]) * h[:, MOE_I:]).to(torch.bfloat16)
            y = torch.empty(M * MOE_TOPK, MOE_H, device="cuda")
            for e in torch.unique(flat).tolist():
                idx = (flat == e).nonzero().squeeze(1)
                y[idx] = act[idx].float() @ self.w2[e].float().t()
            y *= d["topk_w"].flatten()[:, None]
            d["act"] = act
            self.data[M] = d
            self.ref[M] = (h, y)
        return self.data[M], self.ref[M]

    def run(self, cfg, M, check):
        """Both GEMMs with one config; returns (relative errors, timings)."""
        torch = self.torch
        d, (h_ref, y_ref) = self.inputs(M)
        aligned = moe_align(torch, d["topk_ids"], cfg["BLOCK_SIZE_M"])
        c1 = torch.full((M, MOE_TOPK, 2 * MOE_I), float("nan"), device="cuda",
                        dtype=torch.bfloat16)
        c2 = torch.full((M, MOE_TOPK, MOE_H), float("nan"), device="cuda", dtype=torch.bfloat16)
        act = d["act"]

        run = self.ns.get("launch") or (lambda *a: moe_launch(self.ns, *a))

        def both(i):
            run(cfg, d["x"], self.w1, c1, d["topk_w"], d["topk_ids"], aligned, False, MOE_TOPK)
            run(cfg, act, self.w2, c2, d["topk_w"], d["topk_ids"], aligned, True, 1)

        both(0)
        torch.cuda.synchronize()
        errs = None
        if check:
            rel = lambda o, r: ((o.float().reshape(r.shape) - r).norm() / r.norm()).item()  # noqa
            errs = (rel(c1, h_ref), rel(c2, y_ref))
        return errs, bench_rounds(both, torch)


def _moe_compile_worker(args):
    path, cfg = args
    import torch
    ns = tree_kernels.load_functions(path, ["fused_moe_kernel"])
    moe = Moe(torch, ns)
    try:
        d, _ = moe.inputs(16)
        aligned = moe_align(torch, d["topk_ids"], cfg["BLOCK_SIZE_M"])
        c1 = torch.empty(16, MOE_TOPK, 2 * MOE_I, device="cuda", dtype=torch.bfloat16)
        c2 = torch.empty(16, MOE_TOPK, MOE_H, device="cuda", dtype=torch.bfloat16)
        moe_launch(ns, cfg, d["x"], moe.w1, c1, d["topk_w"], d["topk_ids"], aligned, False,
                   MOE_TOPK)
        moe_launch(ns, cfg, d["act"], moe.w2, c2, d["topk_w"], d["topk_ids"], aligned, True, 1)
        torch.cuda.synchronize()
        return ""
    except Exception as ex:  # noqa: BLE001 - recorded per config
        return "%s: %s" % (type(ex).__name__, str(ex).strip().splitlines()[-1][:160])


def run_moe(args, out):
    import torch
    shipped = os.path.join(args.tree, "shipped", MOE)
    ns = tree_kernels.load_functions(shipped, ["fused_moe_kernel"])
    choices = {}  # (M, variant) -> config dict
    for var in variants(args.tree):
        f = tree_kernels.load_functions(os.path.join(args.tree, var, MOE), ["get_default_config"])
        for M in MOE_M:
            choices[(M, var)] = f["get_default_config"](M, MOE_E, MOE_I, MOE_H, MOE_TOPK, None,
                                                        False)
    configs = {moe_key(c): c for c in choices.values()}
    if args.search:
        for vals in itertools.product(*MOE_SEARCH.values()):
            c = dict(zip(MOE_SEARCH, vals))
            configs.setdefault(moe_key(c), c)
    t0 = time.time()
    tasks = [(shipped, c) for c in configs.values()]
    errors = dict(zip(configs, parallel_compile(_moe_compile_worker, tasks, args.jobs)))
    log("moe: %d configs compiled in %.0f s" % (len(tasks), time.time() - t0))
    moe = Moe(torch, ns)
    for M in MOE_M:
        for key, cfg in configs.items():
            chosen_by = sorted(v for (m, v), c in choices.items() if m == M and moe_key(c) == key)
            row = dict(part="moe", M=M, E=MOE_E, topk=MOE_TOPK, hidden=MOE_H,
                       intermediate=MOE_I, config=cfg, chosen_by=chosen_by)
            if errors[key]:
                row.update(status="error", reason=errors[key])
            else:
                errs, ts = moe.run(cfg, M, check=bool(chosen_by) or args.check_all)
                med, sp = spread(ts)
                ok = errs is None or all(e == e and e < MOE_TOL for e in errs)
                row.update(status=("ok" if errs else "unchecked") if ok else "wrong",
                           rel_err=[round(e, 5) for e in errs] if errs else None,
                           us=round(med, 2), spread=round(sp, 4), rounds=[round(t, 2) for t in ts])
            out.write(json.dumps(row) + "\n")
            out.flush()
        log("moe M%d done (%.0f s)" % (M, time.time() - t0))


# --------------------------------------------------------------------------
# context_attention_fwd (prefix prefill)

def prefix_inputs(torch, seqs, seed):
    g = torch.Generator(device="cuda").manual_seed(seed)
    D, HQ, HK, bs, x = ATTN_D, ATTN_HQ, ATTN_HK, PREFIX_BLOCK_SIZE, PREFIX_X
    rnd = lambda *shape: torch.randn(*shape, device="cuda", dtype=torch.bfloat16, generator=g)  # noqa
    new = [n for _, n in seqs]
    total = sum(new)
    q, k, v = rnd(total, HQ, D), rnd(total, HK, D), rnd(total, HK, D)
    blocks = [-(-c // bs) for c, _ in seqs]
    nblk = max(1, sum(blocks))
    k_cache = torch.zeros(nblk, HK, D // x, bs, x, device="cuda", dtype=torch.bfloat16)
    v_cache = torch.zeros(nblk, HK, D, bs, device="cuda", dtype=torch.bfloat16)
    # Blocks handed out in a shuffled order, as a real allocator would.
    perm = torch.randperm(nblk, generator=torch.Generator().manual_seed(seed)).tolist()
    b_loc = torch.zeros(len(seqs), max(1, max(blocks)), dtype=torch.int32, device="cuda")
    ctx_k, ctx_v, at = [], [], 0
    for i, (c, _) in enumerate(seqs):
        kc, vc = rnd(c, HK, D), rnd(c, HK, D)
        ctx_k.append(kc)
        ctx_v.append(vc)
        for j in range(blocks[i]):
            blk = perm[at]
            at += 1
            b_loc[i, j] = blk
            lo, hi = j * bs, min(c, (j + 1) * bs)
            kk = kc[lo:hi].permute(1, 2, 0).reshape(HK, D // x, x, hi - lo).permute(0, 1, 3, 2)
            k_cache[blk, :, :, : hi - lo, :] = kk
            v_cache[blk, :, :, : hi - lo] = vc[lo:hi].permute(1, 2, 0)
    starts = [0]
    for n in new:
        starts.append(starts[-1] + n)
    args = dict(q=q, k=k, v=v, k_cache=k_cache, v_cache=v_cache, b_loc=b_loc,
                b_start_loc=torch.tensor(starts, dtype=torch.int32, device="cuda"),
                b_seq_len=torch.tensor([c + n for c, n in seqs], dtype=torch.int32, device="cuda"),
                b_ctx_len=torch.tensor([c for c, _ in seqs], dtype=torch.int32, device="cuda"),
                max_input_len=max(new))
    # Reference: each new token attends to the cached tokens and to the new
    # tokens up to itself.
    ref = torch.empty(total, HQ, D, device="cuda")
    for i, (c, n) in enumerate(seqs):
        qi = q[starts[i]:starts[i + 1]].float().transpose(0, 1)
        ki = torch.cat([ctx_k[i], k[starts[i]:starts[i + 1]]]).float().transpose(0, 1)
        vi = torch.cat([ctx_v[i], v[starts[i]:starts[i + 1]]]).float().transpose(0, 1)
        ki = ki.repeat_interleave(HQ // HK, 0)
        vi = vi.repeat_interleave(HQ // HK, 0)
        allowed = torch.arange(c + n, device="cuda")[None, :] <= (c + torch.arange(n, device="cuda"))[:, None]
        ref[starts[i]:starts[i + 1]] = torch.nn.functional.scaled_dot_product_attention(
            qi, ki, vi, attn_mask=allowed, scale=1.0 / math.sqrt(D)).transpose(0, 1)
    return args, ref


def run_prefix(args, out):
    import torch
    for var in variants(args.tree):
        path = os.path.join(args.tree, var, PREFIX)
        for cap in PREFIX_CAPS:
            ns = tree_kernels.load_functions(path, ["_fwd_kernel", "context_attention_fwd"],
                                             capability=cap)
            seen = {}

            class Recorder:
                """Notes the tile the function launches the kernel with."""

                def __init__(self, kernel):
                    self.kernel = kernel

                def __getitem__(self, grid):
                    launch = self.kernel[grid]

                    def recorded(*a, **kw):
                        seen.update(BLOCK=kw["BLOCK_M"], NUM_WARPS=kw["num_warps"])
                        return launch(*a, **kw)
                    return recorded

            ns["_fwd_kernel"] = Recorder(ns["_fwd_kernel"])
            for n, seqs in enumerate(PREFIX_SEQS):
                a, ref = prefix_inputs(torch, seqs, seed=n)
                o = torch.full_like(a["q"], float("nan"))

                def call(i):
                    ns["context_attention_fwd"](a["q"], a["k"], a["v"], o, "auto", a["k_cache"],
                                                a["v_cache"], a["b_loc"], a["b_start_loc"],
                                                a["b_seq_len"], a["b_ctx_len"], a["max_input_len"])

                row = dict(part="prefix", variant=var, capability="%d.%d" % cap, seqs=seqs)
                try:
                    call(0)
                    torch.cuda.synchronize()
                    err = (o.float() - ref).abs().max().item()
                    med, sp = spread(bench_rounds(call, torch))
                    row.update(seen)
                    row.update(status="ok" if err == err and err < ATTN_TOL else "wrong",
                               max_abs_err=round(err, 5), us=round(med, 2), spread=round(sp, 4))
                except Exception as ex:  # noqa: BLE001 - recorded
                    row.update(status="error", reason="%s: %s" % (type(ex).__name__, str(ex)[:200]))
                out.write(json.dumps(row) + "\n")
                out.flush()
                log("prefix %s cap %s seqs %d: %s" % (var, row["capability"], n, row["status"]))


# --------------------------------------------------------------------------
# The owner's probe: get_default_config's BLOCK_SIZE_M tiers, measured

# The token counts M the probe times: each is a point numel = M * top 8 of
# rules/bi100.yaml's tier family (`moe_block_m_tier`), whose rows let the
# measurements choose the tier bounds as well as the values.
PROBE_M = [1, 4, 8, 16, 64, 128, 256, 1024, 4096, 16384]
PROBE_BLOCK_M = [16, 32, 64, 128, 256]
# The workload the probe's shape is, as rules/bi100.yaml's workload names it.
def set_probe_shape(shape):
    """--shape E,TOPK,HIDDEN,INTERMEDIATE,TP: the served model's MoE layer
    (INTERMEDIATE is the model's moe_intermediate_size, split over TP GPUs).
    Returns the measurement point the rows carry."""
    global MOE_E, MOE_TOPK, MOE_H, MOE_I
    e, topk, hidden, inter, tp = (int(x) for x in shape.split(","))
    if min(e, topk, hidden, inter, tp) <= 0 or inter % tp != 0 or topk > e:
        raise SystemExit("--shape %s: E,TOPK,HIDDEN,INTERMEDIATE,TP must be positive, "
                         "TOPK <= E and TP dividing INTERMEDIATE" % shape)
    MOE_E, MOE_TOPK, MOE_H, MOE_I = e, topk, hidden, inter // tp
    return {"num_experts": e, "topk": topk, "hidden_size": hidden,
            "moe_intermediate_size": inter, "tensor_parallel_size": tp, "dtype": "bfloat16"}


def run_probe(args, out):
    """Times each candidate BLOCK_SIZE_M of each tier with the rest of the
    config as get_default_config gives it, and writes a muhpatch-probe/1
    measurement file (knobs rows) that `--measurements` reads.
    --backend triton runs the staged tree's Triton kernel (any NVIDIA GPU),
    with the --variant's get_default_config. --backend tree needs no staged
    tree: it takes get_default_config from the installed vllm and launches
    through its invoke_fused_moe_kernel, which on the BI-V100 is the
    ixformer op the fork dispatches to (the owner's probe)."""
    import torch
    point = set_probe_shape(args.shape)
    if args.backend == "tree":
        from vllm.model_executor.layers.fused_moe import fused_moe as fm  # the card's vllm
        import triton.language as tl

        def launch(cfg, A, B, C, topk_w, topk_ids, aligned, mul_weight, top_k):
            fm.invoke_fused_moe_kernel(A, B, C, None, None, topk_w, topk_ids, *aligned,
                                       mul_weight, top_k, cfg, compute_type=tl.bfloat16,
                                       use_fp8_w8a8=False, use_int8_w8a16=False)
        ns = {"launch": launch}
        f = {"get_default_config": fm.get_default_config}
    else:
        if not args.tree:
            raise SystemExit("probe --backend triton needs --tree STAGED")
        ns = tree_kernels.load_functions(os.path.join(args.tree, "shipped", MOE),
                                         ["fused_moe_kernel"])
        f = tree_kernels.load_functions(os.path.join(args.tree, args.variant, MOE),
                                        ["get_default_config"])
    moe = Moe(torch, ns)
    rows = []
    for M in (sorted(int(m) for m in args.m.split(",")) if args.m else PROBE_M):
        for bm in PROBE_BLOCK_M:
            cfg = dict(f["get_default_config"](M, MOE_E, MOE_I, MOE_H, MOE_TOPK, None, False))
            cfg["BLOCK_SIZE_M"] = bm
            status, reason, us = "ok", "", 0
            try:
                errs, ts = moe.run(cfg, M, check=True)
                if not all(e == e and e < MOE_TOL for e in errs):
                    status, reason = "wrong", "relative error %.3g" % max(errs)
                else:
                    us = round(statistics.median(ts), 2)
            except Exception as ex:  # noqa: BLE001 - recorded per candidate
                status, reason = "error", "%s: %s" % (type(ex).__name__, str(ex)[:120])
            row = ["moe_block_m_tier", dict(point, numel=M * MOE_TOPK), bm, status, us,
                   reason or "M %d: %s" % (M, moe_key(cfg))]
            rows.append(row)
            out.write(json.dumps({"part": "probe", "row": row}) + "\n")
            out.flush()
            log("probe M%d BM%d: %s %.1f" % (M, bm, status, us))
    doc = {"format": "muhpatch-probe/1", "device": torch.cuda.get_device_name(0),
           "columns": {"knobs": ["knob", "point", "value", "status", "us", "reason"]},
           "knobs": rows}
    with open(os.path.join(args.out, "moe-block-m.json"), "w") as fh:
        json.dump(doc, fh, indent=1)
        fh.write("\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("part", choices=["attention", "moe", "prefix", "probe"])
    ap.add_argument("--backend", choices=["triton", "tree"], default="triton",
                    help="probe: the tree's Triton kernel, or the installed vllm's launch")
    ap.add_argument("--variant", default="h200", help="probe: whose get_default_config")
    ap.add_argument("--tree", help="the staged trees (stage.sh); probe --backend tree needs none")
    ap.add_argument("--shape", default="128,8,2048,768,4",
                    help="probe: the served MoE layer as E,TOPK,HIDDEN,INTERMEDIATE,TP "
                         "(default: Qwen3-30B-A3B at tp 4)")
    ap.add_argument("--m", help="probe: the token counts M to time, comma-separated "
                    "(default: %s)" % ",".join(map(str, PROBE_M)))
    ap.add_argument("--out", required=True)
    ap.add_argument("--jobs", type=int, default=max(1, (os.cpu_count() or 4) - 2))
    ap.add_argument("--search", action="store_true", help="moe: also time the search grid")
    ap.add_argument("--check-all", action="store_true", help="moe: check every searched config")
    ap.add_argument("--controls", help="attention: JSON list of extra entries to run")
    args = ap.parse_args()
    if not args.tree and not (args.part == "probe" and args.backend == "tree"):
        ap.error("--tree is required, except for probe --backend tree")
    os.makedirs(args.out, exist_ok=True)
    import torch
    import triton
    with open(os.path.join(args.out, "versions.json"), "w") as f:
        json.dump({"device": torch.cuda.get_device_name(0),
                   "versions": {"torch": torch.__version__, "triton": triton.__version__,
                                "cuda": torch.version.cuda}}, f)
    with open(os.path.join(args.out, args.part + ".jsonl"), "a") as out:
        {"attention": run_attention, "moe": run_moe, "prefix": run_prefix,
         "probe": run_probe}[args.part](args, out)


if __name__ == "__main__":
    main()
