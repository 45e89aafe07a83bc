#!/usr/bin/env python3
"""Builds the benchmark trees, deterministically, from what any Debian
machine has.

  enginex  OUT/enginex/vllm/...   an enginex-vllm-shaped tree: the fixture's
           files at their paths (the knob files padded at the end to the real
           files' line counts), plus generated distractor modules up to the
           real tree's shape (444 .py files, 5.4 MB).
  enginex-copies  the enginex tree plus true copies of two knob files at
           other paths (for checking that both tools report moved knobs).
  corpus   OUT/corpus/            the enginex tree at the root (so that
           rules/bi100.yaml's tree-relative paths resolve unchanged) plus
           OUT/corpus/pylib/cNN/<source>/... copies of the system Python's
           .py files, repeated until the corpus holds --corpus-mb MB of .py.

Only regular *.py files are copied (no symlinks, no dot-directories, no
__pycache__). The same inputs give the same bytes: the generator seeds its
own PRNG and never looks at the clock. Each tree is rebuilt only when its
stamp (parameters plus a digest of the inputs) changes.

Usage: gen_corpus.py --fixture DIR --out DIR [--corpus-mb 100]
                     [--py-source DIR ...] [--files 444] [--bytes 5400000]
"""
import argparse
import hashlib
import json
import os
import random
import shutil
import sys

# Real line counts of knob files, from SPEC.md's facts about enginex-vllm.
# The fixture's copies are shorter; neutral code is appended so the parser
# sees a realistic amount of text while the knob lines stay where they are.
KNOB_FILE_LINES = {
    "vllm/_custom_ops.py": 1104,
    "vllm/attention/ops/prefix_prefill.py": 861,
    "vllm/attention/ops/triton_flash_attention.py": 820,
}

PACKAGES = [
    "vllm/core", "vllm/core/block", "vllm/engine", "vllm/engine/output_processor",
    "vllm/entrypoints", "vllm/entrypoints/openai", "vllm/executor",
    "vllm/distributed", "vllm/distributed/device_communicators",
    "vllm/model_executor/models", "vllm/model_executor/layers",
    "vllm/model_executor/layers/quantization", "vllm/model_executor/layers/quantization/utils",
    "vllm/model_executor/model_loader", "vllm/model_executor/guided_decoding",
    "vllm/multimodal", "vllm/spec_decode", "vllm/transformers_utils",
    "vllm/transformers_utils/configs", "vllm/transformers_utils/tokenizers",
    "vllm/worker", "vllm/lora", "vllm/lora/ops", "vllm/prompt_adapter", "vllm/inputs",
    "vllm/adapter_commons", "vllm/platforms", "vllm/usage", "vllm/assets",
    "vllm/attention/backends", "vllm/attention/ops", "vllm/compilation",
    "vllm/model_executor/layers/fused_moe", "vllm/model_executor/layers/mamba",
]

WORDS = ("block cache tensor layer model token batch seq head rank group expert "
         "weight scale config sampler output input prompt adapter request stream "
         "metric policy plan budget queue worker device kernel shard bucket chunk "
         "window offset stride mask prefix suffix decode prefill embed rotary norm "
         "linear proj gate router vocab logits state graph runner loader parser").split()

# Near misses: code that contains every literal some rule's query requires
# (so a literal prefilter lets the file through and it gets parsed and
# queried) but that none of the queries matches, as in the real tree, where
# names like BLOCK_SIZE_M, num_heads or triton.autotune occur far from the
# knobs. The real tree has one true copy of a knob outside the rules' files
# (ipex_attn.py's _PARTITION_SIZE, listed under `also-matches`); a clean
# verify must stay clean here too. The `enginex-copies` tree adds true copies.
NEAR_MISSES = [
    # _PARTITION_SIZE, but not assigned at module level
    "def num_partitions(max_seq_len, _PARTITION_SIZE={n}):\n"
    "    return (max_seq_len + _PARTITION_SIZE - 1) // _PARTITION_SIZE\n",
    # use_v1 / max_seq_len / num_seqs / num_heads, but neither heuristic term
    # (bi100's queries now find `max_seq_len <= N` and `num_seqs * num_heads
    # > N` in any shape of the heuristic, bare `and` included: the names and
    # the operators are their anchors) and no `use_v1 = True` override
    "def choose_kernel(max_seq_len, max_num_partitions, num_seqs, num_heads):\n"
    "    use_v1 = max_seq_len >= 8192 and num_heads * num_seqs < {n}\n"
    "    if use_v1:\n"
    "        return 'v1'\n"
    "    return 'v2'\n",
    # the shared-memory query called, not defined
    "def smem_budget(ops, device=0):\n"
    "    return ops.get_max_shared_memory_per_block_device_attribute(device) // {n}\n",
    # context_attention_fwd called from elsewhere, with its own BLOCK / NUM_WARPS
    "def launch_prefill(context_attention_fwd, q, k, v, o):\n"
    "    BLOCK = {n}\n"
    "    NUM_WARPS = 4\n"
    "    return context_attention_fwd(q, k, v, o, BLOCK, NUM_WARPS)\n",
    # get_default_config used, and the numel tiers read, not written
    "def pick_block(get_default_config, M, E, N, K, topk):\n"
    "    config = get_default_config(M, E, N, K, topk, None, False)\n"
    "    numel = M * topk\n"
    "    if numel <= {n}:\n"
    "        block_m = config['BLOCK_SIZE_M']\n"
    "    else:\n"
    "        block_m = config['BLOCK_SIZE_N'] + config['BLOCK_SIZE_K']\n"
    "    return block_m\n",
    # an autotuned kernel that is not attn_fwd
    "@triton.autotune(\n"
    "    configs=[\n"
    "        triton.Config({{\"BLOCK_M\": {n}, \"BLOCK_N\": 64}}, num_stages=1, num_warps=4),\n"
    "    ],\n"
    "    key=['IS_CAUSAL', 'BLOCK_DMODEL'],\n"
    ")\n"
    "@triton.jit\n"
    "def _attn_fwd_inner(Q, Out, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):\n"
    "    pid = tl.program_id(0)\n"
    "    tl.store(Out + pid, tl.load(Q + pid))\n",
]

# True copies of knob files, in the `enginex-copies` tree (site checks only): a rule
# whose query matches outside its `files` must be reported by both tools.
PLANTED_COPIES = {
    "vllm/attention/ops/prefix_prefill.py": "vllm/attention/ops/prefix_prefill_copy.py",
    "vllm/model_executor/layers/fused_moe/fused_moe.py": "vllm/lora/ops/fused_moe_copy.py",
}


def ident(rng, parts=2):
    return "_".join(rng.choice(WORDS) for _ in range(parts))


def chunk_function(rng, indent=""):
    name = ident(rng, rng.choice((2, 3)))
    args = sorted({ident(rng, 1) for _ in range(rng.randint(1, 5))})
    body = [f'{indent}def {name}({", ".join(a + ": int" for a in args)}) -> int:',
            f'{indent}    """Compute the {ident(rng, 1)} {ident(rng, 1)} for one {ident(rng, 1)}."""']
    acc = ident(rng, 1) + "_acc"
    body.append(f"{indent}    {acc} = 0")
    for _ in range(rng.randint(2, 7)):
        kind = rng.randrange(6)
        a = rng.choice(args)
        if kind == 0:
            body += [f"{indent}    for i in range({a}):",
                     f"{indent}        {acc} += (i * {rng.randint(2, 97)}) % {rng.randint(3, 31)}"]
        elif kind == 1:
            body += [f"{indent}    if {a} > {rng.randint(0, 4096)}:",
                     f"{indent}        {acc} -= {a} // {rng.randint(2, 16)}",
                     f"{indent}    else:",
                     f"{indent}        {acc} += {a}"]
        elif kind == 2:
            body.append(f"{indent}    # Keep the {ident(rng, 1)} aligned to the {ident(rng, 1)} size.")
            body.append(f"{indent}    {acc} = ({acc} + {rng.choice((7, 15, 31, 63))}) & ~{rng.choice((7, 15, 31, 63))}")
        elif kind == 3:
            keys = sorted({ident(rng, 1) for _ in range(rng.randint(2, 5))})
            items = ", ".join(f'"{k}": {rng.randint(1, 512)}' for k in keys)
            body += [f"{indent}    table = {{{items}}}",
                     f"{indent}    {acc} += sum(table.values())"]
        elif kind == 4:
            body.append(f'{indent}    label = f"{ident(rng, 1)}={{{a}}} {ident(rng, 1)}={{{acc}}}"')
            body.append(f"{indent}    {acc} += len(label)")
        else:
            body += [f"{indent}    while {a} > 1 and {acc} < {rng.randint(100, 100000)}:",
                     f"{indent}        {a} //= 2",
                     f"{indent}        {acc} += {a}"]
    body.append(f"{indent}    return {acc}")
    return "\n".join(body) + "\n"


def chunk_class(rng):
    name = "".join(w.capitalize() for w in ident(rng, 2).split("_"))
    fields = sorted({ident(rng, 1) for _ in range(rng.randint(2, 6))})
    out = [f"class {name}:", f'    """Bookkeeping for {ident(rng, 1)} {ident(rng, 1)}s."""', "",
           f"    def __init__(self, {', '.join(f + ': int = ' + str(rng.randint(0, 64)) for f in fields)}) -> None:"]
    out += [f"        self.{f} = {f}" for f in fields]
    out.append("")
    text = "\n".join(out) + "\n"
    for _ in range(rng.randint(1, 4)):
        text += "\n" + chunk_function(rng, indent="    ").replace("(", "(self, ", 1)
    return text


def chunk_kernel(rng):
    name = "_" + ident(rng, 2) + "_kernel"
    return (f"@triton.jit\n"
            f"def {name}(X, Y, N, BLOCK: tl.constexpr):\n"
            f"    pid = tl.program_id(0)\n"
            f"    offs = pid * BLOCK + tl.arange(0, BLOCK)\n"
            f"    mask = offs < N\n"
            f"    x = tl.load(X + offs, mask=mask, other=0.0)\n"
            f"    tl.store(Y + offs, x * {rng.randint(2, 9)}.0 + {rng.randint(0, 9)}.5, mask=mask)\n")


def chunk_constants(rng):
    lines = [f"# {ident(rng, 1).capitalize()} limits for the {ident(rng, 1)} {ident(rng, 1)}."]
    for _ in range(rng.randint(2, 6)):
        lines.append(f"{ident(rng, 2).upper()} = {rng.randint(1, 1 << 16)}")
    lines.append(f"{ident(rng, 2).upper()}_CHOICES = {sorted(rng.sample(range(1, 1025), rng.randint(2, 8)))}")
    return "\n".join(lines) + "\n"


HEADER = ('"""{doc}"""\nimport math\nfrom typing import Dict, List, Optional\n\n'
          "import torch\nimport triton\nimport triton.language as tl\n\n"
          "from vllm.platforms import current_platform\n\n\n")


def neutral_text(rng, target_bytes, kernels=True):
    """Module-level code of about target_bytes with no knob look-alikes."""
    parts, size = [], 0
    makers = [chunk_function, chunk_class, chunk_constants] + ([chunk_kernel] if kernels else [])
    misses = 0
    while size < target_bytes and misses < 4:
        text = rng.choice(makers)(rng) + "\n\n"
        if size + len(text) > target_bytes and parts:
            misses += 1  # too big for what is left: try a smaller chunk
            continue
        parts.append(text)
        size += len(text)
    return "".join(parts)


def gen_module(rng, target_bytes, near_miss):
    doc = f"{ident(rng, 1).capitalize()} {ident(rng, 1)} helpers for the {ident(rng, 1)} path."
    text = HEADER.format(doc=doc)
    if near_miss is not None:
        text += NEAR_MISSES[near_miss].format(n=rng.choice((32, 64, 128, 256, 512))) + "\n\n"
    return text + neutral_text(rng, max(0, target_bytes - len(text)))


def pad_to_lines(rng, text, lines, kind):
    """Appends neutral module-level code until the file has `lines` lines."""
    if not text.endswith("\n"):
        text += "\n"
    if kind == "custom_ops":
        # The real file has dozens of `raise NotImplementedError` stubs.
        makers = [lambda r: (f"def {ident(r, 2)}(out: torch.Tensor, {ident(r, 1)}: torch.Tensor) -> None:\n"
                             f"    raise NotImplementedError()\n"),
                  lambda r: chunk_function(r)]
    else:
        makers = [chunk_function, chunk_kernel]
    while text.count("\n") < lines:
        text += "\n\n" + rng.choice(makers)(rng)
    keep = text.split("\n")[:lines]
    # Cut at a line boundary that leaves valid Python: drop a trailing partial
    # definition by cutting back to the last blank line before `lines`.
    while keep and keep[-1].strip() != "":
        keep.pop()
    body = "\n".join(keep).rstrip("\n") + "\n"
    # Top up with one-line constants to land exactly on `lines`.
    n = body.count("\n")
    while n < lines:
        body += f"{ident(rng, 2).upper()}_PAD = {rng.randint(1, 999)}\n"
        n += 1
    return body


def digest_inputs(paths):
    h = hashlib.sha256()
    for p in paths:
        st = os.stat(p)
        h.update(f"{p}\0{st.st_size}\0{int(st.st_mtime)}\n".encode())
    return h.hexdigest()


def list_py(root):
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith(".") and d != "__pycache__"
                             and not os.path.islink(os.path.join(dirpath, d)))
        for f in sorted(filenames):
            p = os.path.join(dirpath, f)
            if f.endswith(".py") and not f.startswith(".") and os.path.isfile(p) and not os.path.islink(p):
                out.append(p)
    return out


def fresh(dest, stamp):
    """True when dest was built with this exact stamp."""
    try:
        with open(dest + ".stamp") as f:
            return f.read() == stamp and os.path.isdir(dest)
    except OSError:
        return False


def finish(dest, tmp, stamp):
    if os.path.exists(dest):
        shutil.rmtree(dest)
    os.rename(tmp, dest)
    with open(dest + ".stamp", "w") as f:
        f.write(stamp)


def build_enginex(fixture, dest, n_files, n_bytes, seed):
    fixture_files = [os.path.relpath(p, fixture) for p in list_py(fixture)]
    stamp = json.dumps({"v": 4, "files": n_files, "bytes": n_bytes, "seed": seed,
                        "gen": digest_inputs([__file__]),
                        "inputs": digest_inputs([os.path.join(fixture, p) for p in fixture_files])})
    if fresh(dest, stamp):
        return False
    rng = random.Random(seed)
    tmp = dest + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    total = 0
    written = set()
    for rel in fixture_files:
        with open(os.path.join(fixture, rel), "rb") as f:
            data = f.read()
        if rel in KNOB_FILE_LINES:
            kind = "custom_ops" if rel.endswith("_custom_ops.py") else "kernels"
            data = pad_to_lines(rng, data.decode(), KNOB_FILE_LINES[rel], kind).encode()
        os.makedirs(os.path.dirname(os.path.join(tmp, rel)), exist_ok=True)
        with open(os.path.join(tmp, rel), "wb") as f:
            f.write(data)
        total += len(data)
        written.add(rel)
    # Distractors: one empty __init__.py per package, then modules with
    # log-normally distributed sizes scaled to fill the byte budget.
    todo = []
    for pkg in PACKAGES:
        init = pkg + "/__init__.py"
        if init not in written:
            todo.append((init, 0, None))
            written.add(init)
    n_mod = n_files - len(written)
    weights = [rng.lognormvariate(0.0, 0.9) for _ in range(n_mod)]
    budget = max(0, n_bytes - total)
    scale = budget / sum(weights) if weights else 0
    near_every = max(1, n_mod // (4 * len(NEAR_MISSES)))  # about 4 of each
    for i, w in enumerate(weights):
        pkg = PACKAGES[rng.randrange(len(PACKAGES))]
        while True:
            rel = f"{pkg}/{ident(rng, 2)}.py"
            if rel not in written:
                break
        written.add(rel)
        look = (i // near_every) % len(NEAR_MISSES) if i % near_every == 0 else None
        todo.append((rel, int(w * scale), look))
    for rel, size, look in todo:
        text = gen_module(rng, size, look) if size > 0 or look is not None else ""
        path = os.path.join(tmp, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
    # Every generated file must be valid Python (the parser is part of what
    # is measured, and error recovery would distort it).
    for p in list_py(tmp):
        with open(p, "rb") as f:
            compile(f.read(), p, "exec", dont_inherit=True, flags=0x400)  # PyCF_ONLY_AST
    finish(dest, tmp, stamp)
    return True


def build_copies(enginex, dest):
    stamp = json.dumps({"v": 1, "copies": PLANTED_COPIES, "enginex": open(enginex + ".stamp").read()})
    if fresh(dest, stamp):
        return False
    tmp = dest + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.copytree(enginex, tmp)
    for src, dst in sorted(PLANTED_COPIES.items()):
        shutil.copyfile(os.path.join(enginex, src), os.path.join(tmp, dst))
    finish(dest, tmp, stamp)
    return True


def build_corpus(enginex, dest, sources, corpus_mb):
    src_files = {s: list_py(s) for s in sources}
    stamp = json.dumps({"v": 2, "mb": corpus_mb, "sources": sources,
                        "enginex": open(enginex + ".stamp").read(),
                        "inputs": digest_inputs([p for s in sources for p in src_files[s]])})
    if fresh(dest, stamp):
        return False
    tmp = dest + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.copytree(enginex, tmp)
    total = sum(os.path.getsize(p) for p in list_py(tmp))
    target = int(corpus_mb * 1e6)
    if not any(src_files.values()):
        sys.exit("gen_corpus: no .py files in the Python sources: " + " ".join(sources))
    copy = 0
    while total < target:
        for s in sources:
            # /usr/lib/python3/dist-packages -> python3-dist-packages
            label = s.strip("/").replace("/usr/lib/", "").replace("/usr/local/lib/", "local-").replace("/", "-")
            for p in src_files[s]:
                if total >= target:
                    break
                out = os.path.join(tmp, "pylib", f"c{copy:02d}", label, os.path.relpath(p, s))
                os.makedirs(os.path.dirname(out), exist_ok=True)
                shutil.copyfile(p, out)
                total += os.path.getsize(out)
        copy += 1
    finish(dest, tmp, stamp)
    return True


def summary(root):
    files = list_py(root)
    return {"files": len(files), "bytes": sum(os.path.getsize(p) for p in files)}


def copy_real(src, dst):
    """Copies the real tree (every file, as is) to dst, unless dst already
    holds the same copy (same paths, sizes and mtimes, recorded beside it in
    dst + '.stamp', outside the tree). Returns whether it copied."""
    manifest = []
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames.sort()
        for name in sorted(filenames):
            p = os.path.join(dirpath, name)
            st = os.stat(p)
            manifest.append(f"{os.path.relpath(p, src)}\t{st.st_size}\t{st.st_mtime_ns}")
    stamp = hashlib.sha256("\n".join(manifest).encode()).hexdigest()
    stamp_path = dst.rstrip("/") + ".stamp"
    if os.path.isdir(dst) and os.path.exists(stamp_path) and open(stamp_path).read() == stamp:
        return False
    if os.path.exists(dst):
        shutil.rmtree(dst)
    shutil.copytree(src, dst, symlinks=True)  # copy2: keeps mtimes
    # The source is read-only; the copy is ours (writable, so a rerun can
    # delete it). chmod keeps the mtimes.
    for dirpath, dirnames, filenames in os.walk(dst):
        os.chmod(dirpath, 0o755)
        for name in filenames:
            p = os.path.join(dirpath, name)
            if not os.path.islink(p):
                os.chmod(p, 0o644)
    with open(stamp_path, "w") as f:
        f.write(stamp)
    return True


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fixture", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--corpus-mb", type=float, default=100.0)
    ap.add_argument("--py-source", action="append", default=[])
    ap.add_argument("--files", type=int, default=444)
    ap.add_argument("--bytes", type=int, default=5_400_000)
    ap.add_argument("--seed", type=int, default=20241)
    ap.add_argument("--skip-corpus", action="store_true")
    ap.add_argument("--real", help="the real enginex-vllm tree, copied to OUT/real (read-only source)")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    enginex = os.path.join(a.out, "enginex")
    corpus = os.path.join(a.out, "corpus")
    built = build_enginex(os.path.abspath(a.fixture), enginex, a.files, a.bytes, a.seed)
    info = {"enginex": dict(summary(enginex), rebuilt=built)}
    copies = os.path.join(a.out, "enginex-copies")
    built = build_copies(enginex, copies)
    info["enginex-copies"] = dict(summary(copies), rebuilt=built, planted=PLANTED_COPIES)
    if not a.skip_corpus:
        sources = [os.path.abspath(s) for s in a.py_source if os.path.isdir(s)]
        if not sources:
            sys.exit("gen_corpus: no --py-source directory exists")
        built = build_corpus(enginex, corpus, sources, a.corpus_mb)
        info["corpus"] = dict(summary(corpus), rebuilt=built, sources=sources)
    if a.real:
        real = os.path.join(a.out, "real")
        built = copy_real(os.path.abspath(a.real), real)
        info["real"] = dict(summary(real), rebuilt=built, source=os.path.abspath(a.real))
    json.dump(info, sys.stdout, indent=1)
    print()


if __name__ == "__main__":
    main()
