# Triton kernels of the calibration probe (bench/probe/probe.py).
#
# Written for the probe, to the shapes of the fork's kernels, not copied from
# them: a flash-attention forward (a BLOCK_M x D query tile, a loop over
# BLOCK_N key/value tiles with an online softmax, PRE_LOAD_V choosing whether
# V is loaded before or after the scores) and a MoE expert GEMM over tokens
# sorted by expert (the layout fused_moe uses: padded per expert to BLOCK_M,
# one expert per row block, blocks past the padded count exit at once).
import triton
import triton.language as tl

LOG2E = 1.4426950408889634


@triton.jit
def _attn_tiles(acc, l_i, m_i, q, k_base, v_base, stride_kl, lo, hi, offs_m, offs_n, offs_d,
                qk_scale, BLOCK_N: tl.constexpr, MASKED: tl.constexpr,
                PRE_LOAD_V: tl.constexpr):
    # Key/value tiles [lo, hi) in steps of BLOCK_N; the causal mask only where
    # the tile crosses the diagonal (MASKED).
    for start_n in range(lo, hi, BLOCK_N):
        cols = start_n + offs_n
        kt = tl.load(k_base + cols[None, :] * stride_kl + offs_d[:, None])  # [D, BLOCK_N]
        if PRE_LOAD_V:
            v = tl.load(v_base + cols[:, None] * stride_kl + offs_d[None, :])  # [BLOCK_N, D]
        s = tl.dot(q, kt) * qk_scale
        if MASKED:
            s = tl.where(offs_m[:, None] >= cols[None, :], s, float("-inf"))
        m_new = tl.maximum(m_i, tl.max(s, 1))
        alpha = tl.math.exp2(m_i - m_new)
        p = tl.math.exp2(s - m_new[:, None])
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        if not PRE_LOAD_V:
            v = tl.load(v_base + cols[:, None] * stride_kl + offs_d[None, :])
        acc = tl.dot(p.to(v.dtype), v, acc=acc)
        m_i = m_new
    return acc, l_i, m_i


@triton.jit
def probe_attn_fwd(Q, K, V, O, sm_scale, L, HQ, GQA, stride_qb, stride_ql, stride_kb, stride_kl,
                   D: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                   CAUSAL: tl.constexpr, PRE_LOAD_V: tl.constexpr):
    # Q, O: [B, L, HQ, D]; K, V: [B, L, HQ // GQA, D], all contiguous.
    # L must be a multiple of BLOCK_M and BLOCK_N (the probe's shapes are).
    pid_m = tl.program_id(0)
    pid_bh = tl.program_id(1)
    b = (pid_bh // HQ).to(tl.int64)
    h = pid_bh % HQ
    hk = h // GQA
    offs_m = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, D)
    q_base = Q + b * stride_qb + h * D
    k_base = K + b * stride_kb + hk * D
    v_base = V + b * stride_kb + hk * D
    q = tl.load(q_base + offs_m[:, None] * stride_ql + offs_d[None, :])
    m_i = tl.full([BLOCK_M], float("-inf"), dtype=tl.float32)
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32)
    acc = tl.zeros([BLOCK_M, D], dtype=tl.float32)
    qk_scale = sm_scale * 1.4426950408889634
    m0 = pid_m * BLOCK_M
    if CAUSAL:
        full_hi = (m0 // BLOCK_N) * BLOCK_N
        acc, l_i, m_i = _attn_tiles(acc, l_i, m_i, q, k_base, v_base, stride_kl, 0, full_hi,
                                    offs_m, offs_n, offs_d, qk_scale, BLOCK_N, False, PRE_LOAD_V)
        acc, l_i, m_i = _attn_tiles(acc, l_i, m_i, q, k_base, v_base, stride_kl, full_hi,
                                    m0 + BLOCK_M, offs_m, offs_n, offs_d, qk_scale, BLOCK_N, True,
                                    PRE_LOAD_V)
    else:
        acc, l_i, m_i = _attn_tiles(acc, l_i, m_i, q, k_base, v_base, stride_kl, 0, L,
                                    offs_m, offs_n, offs_d, qk_scale, BLOCK_N, False, PRE_LOAD_V)
    acc = acc / l_i[:, None]
    o_base = O + b * stride_qb + h * D
    tl.store(o_base + offs_m[:, None] * stride_ql + offs_d[None, :], acc.to(O.dtype.element_ty))


@triton.jit
def probe_moe_gemm(A, W, C, sorted_ids, expert_ids, num_post_ptr, num_valid, EM, N, K,
                   stride_am, stride_we, stride_wn, stride_cm,
                   A_DIV: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                   BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    # C[t, :] = A[t // A_DIV, :] @ W[e(t)]^T for every routed token t, where
    # sorted_ids lists the tokens grouped by expert (padded with num_valid)
    # and expert_ids[i] is the expert of row block i. W: [E, N, K].
    pid = tl.program_id(0)
    num_pid_m = tl.cdiv(EM, BLOCK_M)
    num_pid_n = tl.cdiv(N, BLOCK_N)
    per_group = GROUP_M * num_pid_n
    first_m = (pid // per_group) * GROUP_M
    gsize = tl.minimum(num_pid_m - first_m, GROUP_M)
    pid_m = first_m + (pid % per_group) % gsize
    pid_n = (pid % per_group) // gsize
    num_post = tl.load(num_post_ptr)
    if pid_m * BLOCK_M >= num_post:
        return
    offs_t = pid_m * BLOCK_M + tl.arange(0, BLOCK_M)
    tok = tl.load(sorted_ids + offs_t)
    tok_ok = tok < num_valid
    e = tl.load(expert_ids + pid_m).to(tl.int64)
    offs_n = (pid_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
    offs_k = tl.arange(0, BLOCK_K)
    a_ptrs = A + (tok[:, None] // A_DIV).to(tl.int64) * stride_am + offs_k[None, :]
    w_ptrs = W + e * stride_we + offs_n[None, :] * stride_wn + offs_k[:, None]
    acc = tl.zeros([BLOCK_M, BLOCK_N], dtype=tl.float32)
    for kk in range(0, tl.cdiv(K, BLOCK_K)):
        k_left = K - kk * BLOCK_K
        a = tl.load(a_ptrs, mask=tok_ok[:, None] & (offs_k[None, :] < k_left), other=0.0)
        w = tl.load(w_ptrs, mask=offs_k[:, None] < k_left, other=0.0)
        acc = tl.dot(a, w, acc=acc)
        a_ptrs += BLOCK_K
        w_ptrs += BLOCK_K
    offs_cn = pid_n * BLOCK_N + tl.arange(0, BLOCK_N)
    c_ptrs = C + tok[:, None].to(tl.int64) * stride_cm + offs_cn[None, :]
    tl.store(c_ptrs, acc.to(C.dtype.element_ty), mask=tok_ok[:, None] & (offs_cn[None, :] < N))
