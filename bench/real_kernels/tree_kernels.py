"""Loads the real tree's own kernels from their source files at run time.

Nothing of the tree is copied into the project: `stage.sh` copies the files
into a git-ignored folder that travels to the GPU machine, and this module
reads them there.

- `triton_flash_attention.py` imports only torch and triton: it is imported
  as a module, and its `attn_fwd` autotune list and JIT function are used.
- `fused_moe.py` and `prefix_prefill.py` import vllm.* and ixformer: the
  functions we need are taken out of the file with `ast` (their line numbers
  kept, so that Triton reads their source from the file) and run in a
  namespace of torch, triton and stubs. `has_device_capability` answers as
  the caller says, so that a "below SM80" branch runs on the H200.
"""
import ast
import importlib.util
import sys
import types
import typing


def import_file(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


def _decorator_name(d):
    node = d.func if isinstance(d, ast.Call) else d
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))


def _functions(tree):
    """Every function definition, top level or nested in an `if` (prefix_prefill
    defines its kernels under `if triton.__version__ >= ...`)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            yield node


def load_functions(path, names, capability=(9, 0)):
    """The named functions of `path`, defined in one namespace with torch,
    triton, tl, typing's names and a current_platform stub."""
    import torch
    import triton
    import triton.language as tl

    src = open(path).read()
    tree = ast.parse(src, filename=path)
    found = {f.name: f for f in _functions(tree) if f.name in names}
    missing = [n for n in names if n not in found]
    if missing:
        raise KeyError("%s defines no %s" % (path, ", ".join(missing)))
    body = []
    for name in names:
        fn = found[name]
        fn.decorator_list = [d for d in fn.decorator_list if _decorator_name(d) == "triton.jit"]
        body.append(fn)
    module = ast.Module(body=body, type_ignores=[])

    class Platform:
        def has_device_capability(self, cap):
            major, minor = capability
            want = (cap // 10, cap % 10) if isinstance(cap, int) else tuple(cap)
            return (major, minor) >= want

        def get_device_capability(self):
            return types.SimpleNamespace(major=capability[0], minor=capability[1])

    ns = {"torch": torch, "triton": triton, "tl": tl, "current_platform": Platform(),
          "__name__": "tree_kernels_%d" % abs(hash(path))}
    for k in ("Any", "Callable", "Dict", "List", "Optional", "Tuple"):
        ns[k] = getattr(typing, k)
    # Triton reads a JIT function's source through inspect: the code object
    # keeps the file's name and line numbers, and the file is there.
    exec(compile(module, path, "exec"), ns)
    return ns


def autotune_list(kernel):
    """The entries of a @triton.autotune kernel as plain dicts."""
    out = []
    for c in kernel.configs:
        e = dict(c.kwargs)
        e["num_warps"] = c.num_warps
        e["num_stages"] = c.num_stages
        out.append(e)
    return out
