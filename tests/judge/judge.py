#!/usr/bin/env python3
"""The CPython judge of muhpatch's liveness analysis.

A generator writes small stdlib-only Python packages: an entry module
(app/main.py), knob modules (app/k<i>.py, each holding one site
`BLOCK = <value>` whose value is unique and passed to a sink) and the helper
modules a construct needs. Each site is reached, or not, through one
construct (an import form, a getattr, a dynamic import, a registry, a flag
rebound some way, a read in a finally or a closure, ...). CPython runs the
entry and records every value that reaches the sink; muhpatch analyses the
same package (`status --format json`) with a rule file the generator
writes. A site whose value reached the sink but that muhpatch calls dead is
a failure: the judge is CPython, not our belief about what reaches a knob.
A program may break an assumption muhpatch states (it installs a plugin);
a dead verdict that names that assumption is then no failure, one that
does not is.
(A site muhpatch calls live or unknown is never a failure here.)

Each program also runs under declared assumptions, varied by seed: the
platform (cuda, rocm or cpu: a stub vllm/platforms.py answers is_cuda(),
is_rocm(), is_cpu() and is_cuda_alike() for it), the
VLLM_ATTENTION_BACKEND its environment holds (unset, or a value: one
vLLM's selector knows, or not), given to CPython and declared in the rule
file's liveness.environment (or left to vLLM's default when unset); and
whether the plugins it installs are declared in liveness.plugins. A
declared plugin excuses nothing: the verdicts a plugin could overturn must
then be unknown. The backend constructs choose the site through a stub of
vLLM's selector that reads the variable.

  judge.py MUHPATCH [--seeds N] [--sites K] [--constructs A,B] [--keep DIR]
  judge.py MUHPATCH --replay FILE...
  judge.py MUHPATCH --sweep
  judge.py MUHPATCH --decoys

--sweep runs one program of the constructs that rest on assumptions under
every declared assumption: each platform (the stub's answers follow it),
each value of the variable, unset both declared and left to the default,
with the plugins declared or not.

--decoys checks precision, which CPython cannot judge: text that names a
dead site and reaches nothing (a comment, a docstring, a printed message)
must leave its verdict dead.

The constructs include those of the mutation test of the real tree that
this judge replaced: import forms (after `;`, on an if or try header, in a
match, exec of a name, ...), a flag rebound through its package or in its
module, calls written after `;`, on headers, in decorators, lambdas, class
bodies, ..., and whole-dict reads (printed: a value on CPython's stdout was
read).

A failing program is minimized (its sites one at a time) and printed as a
seed (JSON: the constructs and their parameters) for tests/judge/seeds/;
--replay runs seeds. A seed holding "known": REASON is a known failure:
reported, never counted; a construct in KNOWN is generated only when
named (--constructs). Exit 1 on any failure. Standard library only.
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

from judgelib import judge_env, run_muhpatch, write_files

HERE = os.path.dirname(os.path.abspath(__file__))

RULES_HEAD = """version: 1
liveness:
  entry: app.main
  platform: %s
%s
values:
  knob: 1
rules:
"""

# VLLM_ATTENTION_BACKEND as a program's environment may hold it: None is
# unset (declared null, or left to vLLM's default), then backends vLLM's
# selector knows, and a value it does not.
ENV_VALUES = [None, None, "ROCM_FLASH", "ROCM_FLASH", "XFORMERS", "TORCH_SDPA", "NOT_A_BACKEND"]

# A stub of vLLM 0.6's attention selector: the variable names the backend
# on any platform.
SELECTOR = """import enum
import os


class _Backend(enum.Enum):
    FLASH_ATTN = enum.auto()
    XFORMERS = enum.auto()
    ROCM_FLASH = enum.auto()
    TORCH_SDPA = enum.auto()
    IPEX = enum.auto()
    PALLAS = enum.auto()


def which_attn_to_use():
    name = os.getenv("VLLM_ATTENTION_BACKEND")
    if name is not None:
        return _Backend.__members__.get(name, _Backend.FLASH_ATTN)
    return _Backend.FLASH_ATTN
"""


# A stub of the fork's platform (vllm/platforms.py): its answers are the
# declared platform's, as muhpatch reads the predicates.
PLATFORM_STUB = """class _Platform:
    name = %r

    def is_cuda(self):
        return self.name == "cuda"

    def is_rocm(self):
        return self.name == "rocm"

    def is_cpu(self):
        return self.name == "cpu"

    def is_cuda_alike(self):
        return self.name in ("cuda", "rocm")


current_platform = _Platform()
"""

PLATFORMS = ["cuda", "cuda", "rocm", "cpu"]


def assumptions_for(seed):
    """The declared assumptions of generated program `seed`: its own random
    stream, so that the constructs a seed draws stay the same."""
    rng = random.Random(seed * 7919 + 1)
    env = rng.choice(ENV_VALUES)
    out = {"VLLM_ATTENTION_BACKEND": env, "declare_env": env is not None or rng.random() < 0.5,
           "declare_plugins": rng.random() < 0.5}
    out["platform"] = rng.choice(PLATFORMS)
    return out


def liveness_lines(assume, plugins):
    """The liveness: lines the assumptions declare (`plugins`: those the
    program installs)."""
    lines = []
    if assume.get("declare_env"):
        value = assume.get("VLLM_ATTENTION_BACKEND")
        lines += ["  environment:",
                  "    VLLM_ATTENTION_BACKEND: %s" % ("null" if value is None else value)]
    if assume.get("declare_plugins"):
        lines.append("  plugins: [%s]" % ", ".join(sorted(plugins)))
    return "\n".join(lines)
# One rule per kind of site, given when the program has such sites.
RULES = {
    "app/k": """  - id: knob
    description: every BLOCK assignment of the knob modules
    files: "app/k*.py"
    pattern: BLOCK = $value
    expect: 1..100
    replace: value
    with: "{{knob}}"
""",
    "app/d": """  - id: dict-knob
    description: the 'BLOCK' value of every `config = {...}` of the dict modules
    files: "app/d*.py"
    query: |
      (assignment left: (identifier) @var
        right: (dictionary (pair key: (string (string_content) @key) value: (integer) @value))
        (#eq? @var "config") (#eq? @key "BLOCK"))
    expect: 1..100
    replace: value
    with: "{{knob}}"
""",
}

SINK = """SEEN = []


def sink(v):
    SEEN.append(v)


def no():
    return len(SEEN) < 0  # False, and no constant
"""

RUNNER = """import atexit, json, os, runpy, sys
sys.path.insert(0, sys.argv[1])
def dump():
    from app import sink
    with open(sys.argv[2], "w") as fh:
        json.dump(sink.SEEN, fh)
atexit.register(dump)
runpy.run_module("app.main", run_name="__main__")
"""


class Program:
    """Files of one generated package, built construct by construct."""

    def __init__(self, platform="cuda"):
        self.platform = platform  # the declared one, which the stub answers for
        self.files = {"app/__init__.py": "", "app/sink.py": SINK}
        self.main_imports = []
        self.main_body = []
        self.sites = []  # (knob file, value, construct name)
        self.registry_loop = False
        # Assumptions of muhpatch's the program breaks: a dead verdict that
        # states one of them is excused (it says what it rests on).
        self.breaks = set()
        self.plugins = set()  # the entry points it installs

    def module(self, path, text):
        self.files[path] = text

    def knob(self, i, construct, body=None, head="", tail=""):
        """app/k<i>.py holding f<i>, whose body holds the site; `body` is the
        function's body (the site line is `BLOCK = V`); `head`/`tail` are
        module text before and after the function."""
        value = 4000 + i
        if body is None:
            body = "BLOCK = {v}\nsink(BLOCK)\n"
        lines = body.format(v=value).rstrip("\n").split("\n")
        fn = "def f%d():\n%s\n" % (i, "\n".join("    " + ln if ln else "" for ln in lines))
        text = "from app.sink import sink, no\n%s\n\n%s%s" % (head, fn, tail)
        path = "app/k%d.py" % i
        self.files[path] = text
        self.sites.append((path, value, construct))
        return path

    def dict_knob(self, i, construct, body):
        """app/d<i>.py holding f<i>, whose body starts `config = {'BLOCK':
        V, 'OTHER': 1}` (the site) and goes on with `body`."""
        value = 4000 + i
        lines = ("config = {'BLOCK': %d, 'OTHER': 1}\n" % value + body).rstrip("\n").split("\n")
        fn = "def f%d():\n%s\n" % (i, "\n".join("    " + ln if ln else "" for ln in lines))
        path = "app/d%d.py" % i
        self.files[path] = "import json\nfrom app.sink import sink, no\n\n\n" + fn
        self.sites.append((path, value, construct))
        self.main("d%d.f%d()" % (i, i), imports=["from app import d%d" % i])
        return path

    def main(self, *lines, imports=()):
        self.main_imports.extend(imports)
        self.main_body.extend(lines)

    def write(self, root):
        main = "".join(sorted(set(x + "\n" for x in self.main_imports)))
        main += "\n" + "\n".join(self.main_body) + "\n"
        self.files["app/main.py"] = main
        write_files(root, self.files)


# --------------------------------------------------------------------------
# Constructs: each reaches (or does not reach) site i one way. The judge does
# not trust the construct's name: CPython says whether the value arrived.

def c_direct(p, i, r):
    p.knob(i, "direct")
    p.main("k%d.f%d()" % (i, i), imports=["from app import k%d" % i])


def c_alias(p, i, r):
    p.knob(i, "alias")
    p.main("m%d.f%d()" % (i, i), imports=["import app.k%d as m%d" % (i, i)])


def c_from_alias(p, i, r):
    p.knob(i, "from_alias")
    p.main("g%d()" % i, imports=["from app.k%d import f%d as g%d" % (i, i, i)])


def c_relative(p, i, r):
    p.knob(i, "relative")
    p.main("k%d.f%d()" % (i, i), imports=["from . import k%d" % i])


def c_getattr_literal(p, i, r):
    p.knob(i, "getattr_literal")
    p.main('getattr(k%d, "f%d")()' % (i, i), imports=["from app import k%d" % i])


def c_getattr_computed(p, i, r):
    p.knob(i, "getattr_computed")
    p.main('getattr(k%d, "f" + str(%d))()' % (i, i), imports=["from app import k%d" % i])


def c_getattr_fstring(p, i, r):
    p.knob(i, "getattr_fstring")
    p.main("n%d = %d" % (i, i), 'getattr(k%d, f"f{n%d}")()' % (i, i),
           imports=["from app import k%d" % i])


def c_import_module_env(p, i, r):
    p.knob(i, "import_module_env")
    p.main('importlib.import_module(os.environ.get("JUDGE_NO_SUCH_%d", "app.k%d")).f%d()'
           % (i, i, i), imports=["import importlib", "import os"])


# The standard library's other loaders by a computed name (helper probe):
# the module's name is never written whole, so no string names it.
STDLIB_LOADERS = {
    "resolve_name": ("import pkgutil", 'pkgutil.resolve_name("app.k" + "%d:f%d")()'),
    "resolve_name_from": ("from pkgutil import resolve_name", 'resolve_name("app.k" + "%d.f%d")()'),
    "pydoc_locate": ("import pydoc", 'pydoc.locate("app.k" + "%d.f%d")()'),
    "safeimport": ("import pydoc", 'pydoc.safeimport("app.k" + "%d").f%d()'),
    "find_spec_parent": ("import importlib.util, sys",
                         'try:\n    importlib.util.find_spec("app.k" + "%d.x")\nexcept ImportError:\n'
                         '    pass\nsys.modules["app.k" + "%d"].f%d()'),
    "timeit_import": ("import timeit", 'timeit.timeit("import app.k" + "%d as m; m.f%d()", number=1)'),
}


def stdlib_loader_construct(name):
    def construct(p, i, r):
        p.knob(i, "stdlib_" + name)
        imp, call = STDLIB_LOADERS[name]
        p.main(call % ((i,) * call.count("%d")), imports=[imp])
    return construct


def c_import_module_literal(p, i, r):
    p.knob(i, "import_module_literal")
    p.main('importlib.import_module("app.k%d").f%d()' % (i, i), imports=["import importlib"])


# Code run from a string, a module run by runpy, a file run by a loader: the
# names are built at run time (format), so no word of the program names the
# knob's module or function.
def c_exec_string(p, i, r):
    p.knob(i, "exec_string")
    p.main('exec("from app import k{0} as m; m.f{0}()".format(%d))' % i)


def c_eval_string(p, i, r):
    p.knob(i, "eval_string")
    p.main("eval(\"__import__('app.k{0}', fromlist=['x']).f{0}()\".format(%d))" % i)


def c_runpy_module(p, i, r):
    p.knob(i, "runpy_module")
    p.main('runpy.run_module("app.k{0}".format(%d), run_name="x")["f{0}".format(%d)]()' % (i, i),
           imports=["import runpy"])


def c_exec_module_file(p, i, r):
    p.knob(i, "exec_module_file")
    p.main('spec%d = importlib.util.spec_from_file_location('
           '"x", os.path.join(os.path.dirname(__file__), "k{0}.py".format(%d)))' % (i, i),
           "mod%d = importlib.util.module_from_spec(spec%d)" % (i, i),
           "spec%d.loader.exec_module(mod%d)" % (i, i),
           'getattr(mod%d, "f{0}".format(%d))()' % (i, i),
           imports=["import importlib.util", "import os"])


# A loader taken as a value, or imported under another name: its calls do
# not name it.
def c_import_module_value(p, i, r):
    p.knob(i, "import_module_value")
    p.main("load%d = importlib.import_module" % i,
           'load%d("app.k{0}".format(%d)).f%d()' % (i, i, i), imports=["import importlib"])


def c_import_module_alias(p, i, r):
    p.knob(i, "import_module_alias")
    p.main('load_%d("app.k{0}".format(%d)).f%d()' % (i, i, i),
           imports=["from importlib import import_module as load_%d" % i])


def c_exec_value(p, i, r):
    p.knob(i, "exec_value")
    p.main("run%d = exec" % i, 'run%d("from app import k{0} as m; m.f{0}()".format(%d))' % (i, i))


# The import path changed at run time: a static import of a name outside
# the tree loads a file of it.
def c_sys_path_insert(p, i, r):
    p.knob(i, "sys_path_insert")
    p.main("sys.path.insert(0, os.path.dirname(__file__))", "import k%d as top%d" % (i, i),
           "top%d.f%d()" % (i, i), imports=["import os", "import sys"])


def c_package_path(p, i, r):
    p.knob(i, "package_path")
    p.module("app/extra/__init__.py", "")
    p.main("import app.extra", "app.extra.__path__.append(os.path.dirname(__file__))",
           "from app.extra import k%d as pk%d" % (i, i), "pk%d.f%d()" % (i, i),
           imports=["import os"])


def c_dunder_import(p, i, r):
    p.knob(i, "dunder_import")
    p.main('__import__("app.k%d", fromlist=["f%d"]).f%d()' % (i, i, i))


def c_dunder_import_fromlist(p, i, r):
    # `__import__(pkg, fromlist=[name])` imports pkg.name as well: a dead
    # verdict on 7301f17 (a helper probe).
    p.knob(i, "dunder_import_fromlist")
    p.main('n%d = "k" + str(%d)' % (i, i), 'p%d = __import__("app", fromlist=[n%d])' % (i, i),
           'getattr(p%d, n%d).f%d()' % (i, i, i))


def c_compile_function(p, i, r):
    # A file of the package found by listing it, compiled and called as a
    # function: a load by no import (a helper probe of f93f1eb: dead where
    # CPython ran it).
    p.knob(i, "compile_function")
    p.main('here%d = os.path.dirname(__file__)' % i,
           'for fn%d in sorted(os.listdir(here%d)):' % (i, i),
           '    if fn%d.endswith(".py") and fn%d[1:-3] == str(%d) and fn%d[:1] == "k":'
           % (i, i, i, i),
           '        ns%d = {"__name__": "app." + fn%d[:-3]}' % (i, i),
           '        path%d = os.path.join(here%d, fn%d)' % (i, i, i),
           '        types.FunctionType(compile(open(path%d).read(), path%d, "exec"), ns%d)()'
           % (i, i, i),
           '        [v() for k, v in list(ns%d.items()) if k[:1] == "f" and callable(v)]' % i,
           imports=["import os", "import types"])


def c_sys_modules(p, i, r):
    p.knob(i, "sys_modules")
    p.main('sys.modules["app.k" + "%d"].f%d()' % (i, i),
           imports=["import sys", "import app.k%d" % i])


def c_dict_dispatch(p, i, r):
    p.knob(i, "dict_dispatch")
    p.main('table%d = {"go": k%d.f%d}' % (i, i, i), 'table%d["go"]()' % i,
           imports=["from app import k%d" % i])


def c_registry(p, i, r):
    p.module("app/registry.py", "FNS = []\n\n\ndef register(fn):\n    FNS.append(fn)\n    return fn\n")
    p.knob(i, "registry", head="from app.registry import register\n")
    path = "app/k%d.py" % i
    p.files[path] = p.files[path].replace("def f%d" % i, "@register\ndef f%d" % i)
    p.main(imports=["from app import registry", "import app.k%d" % i])
    if not p.registry_loop:  # one loop calls every registered function
        p.registry_loop = True
        p.main("for fn in list(registry.FNS):\n    fn()")


def c_inline_import(p, i, r):
    p.knob(i, "inline_import")
    p.main("def h%d():\n    from app import k%d\n    k%d.f%d()\nh%d()" % (i, i, i, i, i))


def c_try_import(p, i, r):
    p.knob(i, "try_import")
    p.main("try:\n    from app import k%d\nexcept ImportError:\n    k%d = None\nif k%d:\n"
           "    k%d.f%d()" % (i, i, i, i, i))


def c_exec(p, i, r):
    p.knob(i, "exec")
    p.main('exec("from app import k%d; k%d.f%d()")' % (i, i, i))


def c_method(p, i, r):
    path = p.knob(i, "method")
    p.files[path] += ("\n\nclass C%d:\n    def run(self):\n        f%d()\n" % (i, i))
    p.main("k%d.C%d().run()" % (i, i), imports=["from app import k%d" % i])


def c_getattr_method(p, i, r):
    path = p.knob(i, "getattr_method")
    p.files[path] += ("\n\nclass C%d:\n    def run(self):\n        f%d()\n" % (i, i))
    p.main('getattr(k%d.C%d(), "r" + "un")()' % (i, i), imports=["from app import k%d" % i])


def c_flag_false(p, i, r):
    p.knob(i, "flag_false")
    p.main("FLAG%d = False" % i, "if FLAG%d:\n    k%d.f%d()" % (i, i, i),
           imports=["from app import k%d" % i])


# Conditions over a False flag that Python takes anyway (or may): each must
# not read as the flag's own value.
CONDITIONS = {
    "tuple": "(FLAG%d,)",
    "list": "[FLAG%d]",
    "is_false": "FLAG%d is False",
    "eq_zero": "FLAG%d == 0",
    "ne_true": "FLAG%d != True",
    "not_not_not": "not not not FLAG%d",
    "str_of": "str(FLAG%d)",
    "in_tuple": "FLAG%d in (False,)",
    "or_true": "FLAG%d or 1",
    "lambda": "lambda: FLAG%d",
    "neg": "FLAG%d - 1",
    "ternary": "1 if FLAG%d else 2",
    "walrus": "(y%d := FLAG%d) is not None",
    "paren_or": "(FLAG%d) or (not FLAG%d)",
    "chained_cmp": "0 <= FLAG%d < 1",
    "bitnot": "~FLAG%d",
}


def condition_construct(name):
    def construct(p, i, r):
        p.knob(i, "cond_" + name)
        cond = CONDITIONS[name].replace("%d", str(i))
        p.main("FLAG%d = False" % i, "if %s:\n    k%d.f%d()" % (cond, i, i),
               imports=["from app import k%d" % i])
    return construct


def c_flag_true(p, i, r):
    p.knob(i, "flag_true")
    p.main("FLAG%d = True" % i, "if FLAG%d:\n    k%d.f%d()" % (i, i, i),
           imports=["from app import k%d" % i])


def c_flag_star_rebind(p, i, r):
    p.knob(i, "flag_star_rebind")
    p.module("app/flags%d.py" % i, "FLAG%d = False\n" % i)
    p.module("app/over%d.py" % i, "FLAG%d = True\n" % i)
    p.main("if FLAG%d:\n    k%d.f%d()" % (i, i, i),
           imports=["from app import k%d" % i, "from app.flags%d import *" % i,
                    "from app.over%d import *" % i])


def c_flag_globals_update(p, i, r):
    p.knob(i, "flag_globals_update")
    p.main("FLAG%d = False" % i, "globals().update(FLAG%d=True)" % i,
           "if FLAG%d:\n    k%d.f%d()" % (i, i, i), imports=["from app import k%d" % i])


def c_flag_setattr(p, i, r):
    p.knob(i, "flag_setattr")
    p.module("app/flags%d.py" % i, "FLAG = False\n")
    p.main('setattr(flags%d, "FL" + "AG", True)' % i,
           "if flags%d.FLAG:\n    k%d.f%d()" % (i, i, i),
           imports=["from app import k%d" % i, "from app import flags%d" % i])


def c_flag_module_attr(p, i, r):
    p.knob(i, "flag_module_attr")
    p.module("app/flags%d.py" % i, "FLAG = False\n")
    p.main("flags%d.FLAG = True" % i, "if flags%d.FLAG:\n    k%d.f%d()" % (i, i, i),
           imports=["from app import k%d" % i, "from app import flags%d" % i])


def c_flag_vars_update(p, i, r):
    p.knob(i, "flag_vars_update")
    p.module("app/flags%d.py" % i, "FLAG = False\n")
    p.main("vars(flags%d).update(FLAG=True)" % i, "if flags%d.FLAG:\n    k%d.f%d()" % (i, i, i),
           imports=["from app import k%d" % i, "from app import flags%d" % i])


def c_flag_self_module(p, i, r):
    p.knob(i, "flag_self_module")
    p.module("app/flags%d.py" % i,
             "import sys\nFLAG = False\nsetattr(sys.modules[__name__], \"FL\" + \"AG\", True)\n")
    p.main("if flags%d.FLAG:\n    k%d.f%d()" % (i, i, i),
           imports=["from app import k%d" % i, "from app import flags%d" % i])


def c_module_in_list(p, i, r):
    p.knob(i, "module_in_list")
    p.main("for mod%d in [k%d]:\n    getattr(mod%d, \"f%%d\" %% %d)()" % (i, i, i, i),
           imports=["from app import k%d" % i])


def c_vars_lookup(p, i, r):
    p.knob(i, "vars_lookup")
    p.main('vars(k%d)["f" + "%d"]()' % (i, i), imports=["from app import k%d" % i])


def c_shadow_is_hip(p, i, r):
    # A function of the program's own named like a platform predicate.
    p.knob(i, "shadow_is_hip")
    p.module("app/util%d.py" % i, "def is_hip():\n    return True\n")
    p.main("if is_hip():\n    k%d.f%d()" % (i, i),
           imports=["from app import k%d" % i, "from app.util%d import is_hip" % i])


def c_shadow_capability(p, i, r):
    p.knob(i, "shadow_capability")
    p.module("app/dev%d.py" % i, "class Dev:\n    def has_device_capability(self, c):\n"
                                 "        return True\n\n\ndev = Dev()\n")
    p.main("if dev.has_device_capability(90):\n    k%d.f%d()" % (i, i),
           imports=["from app import k%d" % i, "from app.dev%d import dev" % i])


def c_shadow_is_rocm_local(p, i, r):
    p.knob(i, "shadow_is_rocm_local")
    p.main("def is_rocm():\n    return True", "if is_rocm():\n    k%d.f%d()" % (i, i),
           imports=["from app import k%d" % i])


def c_star_import_call(p, i, r):
    p.knob(i, "star_import_call")
    p.main("f%d()" % i, imports=["from app.k%d import *" % i])


def c_module_getattr(p, i, r):
    # PEP 562: a module's __getattr__ answers names it does not define.
    p.knob(i, "module_getattr")
    p.module("app/lazy%d.py" % i, "import importlib\n\n\ndef __getattr__(name):\n"
                                  "    return getattr(importlib.import_module('app.k%d'), name)\n" % i)
    p.main("lazy%d.f%d()" % (i, i), imports=["from app import lazy%d" % i])


def c_type_checking(p, i, r):
    p.knob(i, "type_checking")
    p.main("if TYPE_CHECKING:\n    pass\nelse:\n    from app import k%d\n    k%d.f%d()" % (i, i, i),
           imports=["from typing import TYPE_CHECKING"])


def c_lru_cache(p, i, r):
    path = p.knob(i, "lru_cache", head="import functools\n")
    p.files[path] = p.files[path].replace("def f%d" % i, "@functools.lru_cache\ndef f%d" % i)
    p.main("k%d.f%d()" % (i, i), imports=["from app import k%d" % i])


# Called by Python itself, by name: a module's __getattr__ (PEP 562), a
# descriptor's __set_name__, a dict subclass's __missing__, __format__ in
# an f-string, a dataclass's __post_init__.
def c_module_dunder_getattr(p, i, r):
    path = p.knob(i, "module_dunder_getattr")
    p.files[path] += "\n\ndef __getattr__(name):\n    f%d()\n    return 1\n" % i
    p.main("k%d.anything%d" % (i, i), imports=["from app import k%d" % i])


def c_set_name(p, i, r):
    path = p.knob(i, "set_name")
    p.files[path] += ("\n\nclass D%d:\n    def __set_name__(self, owner, name):\n        f%d()\n"
                      % (i, i))
    p.main("class Holder%d:\n    x = k%d.D%d()" % (i, i, i), imports=["from app import k%d" % i])


def c_dict_missing(p, i, r):
    path = p.knob(i, "dict_missing")
    p.files[path] += ("\n\nclass M%d(dict):\n    def __missing__(self, key):\n        f%d()\n"
                      "        return 0\n" % (i, i))
    p.main("k%d.M%d()['x']" % (i, i), imports=["from app import k%d" % i])


def c_post_init(p, i, r):
    path = p.knob(i, "post_init", head="import dataclasses\n")
    p.files[path] += ("\n\n@dataclasses.dataclass\nclass P%d:\n    a: int = 0\n\n"
                      "    def __post_init__(self):\n        f%d()\n" % (i, i))
    p.main("k%d.P%d()" % (i, i), imports=["from app import k%d" % i])


# `from pkg import *` imports each submodule `__all__` names.
def c_star_all_submodule(p, i, r):
    p.knob(i, "star_all_submodule")
    init = p.files.get("app/__init__.py", "")
    if "__all__" not in init:
        init += "__all__ = []\n"
    p.files["app/__init__.py"] = init + "__all__.append('k%d')\n" % i
    p.main("k%d.f%d()" % (i, i), imports=["from app import *"])


# The entry runs as __main__ (`python -m`): its main guard runs.
def c_main_guard_call(p, i, r):
    p.knob(i, "main_guard_call")
    p.main('if __name__ == "__main__":\n    k%d.f%d()' % (i, i), imports=["from app import k%d" % i])


def c_default_arg_call(p, i, r):
    p.knob(i, "default_arg_call")
    p.main("def g%d(v=k%d.f%d()):\n    return v" % (i, i, i), imports=["from app import k%d" % i])


def c_default_arg_import(p, i, r):
    p.knob(i, "default_arg_import")
    p.main('def g%d(m=importlib.import_module("app.k{0}".format(%d))):\n    return m' % (i, i),
           "g%d().f%d()" % (i, i), imports=["import importlib"])


def c_class_body_call(p, i, r):
    p.knob(i, "class_body_call")
    p.main("class B%d:\n    v = k%d.f%d()" % (i, i, i), imports=["from app import k%d" % i])


def c_annotation_call(p, i, r):
    p.knob(i, "annotation_call")
    p.main("x%d: k%d.f%d() = 1" % (i, i, i), imports=["from app import k%d" % i])


# A namespace package (a directory with no __init__.py) imports like any.
def c_namespace_package(p, i, r):
    p.knob(i, "namespace_package")
    p.module("app/nsp%d/mod.py" % i, "from app import k%d\nk%d.f%d()\n" % (i, i, i))
    p.main(imports=["import app.nsp%d.mod" % i])


def c_namespace_relative(p, i, r):
    p.knob(i, "namespace_relative")
    p.module("app/nsr%d/mod.py" % i, "from .. import k%d\nk%d.f%d()\n" % (i, i, i))
    p.main(imports=["from app.nsr%d import mod" % i])


# The loader reached through its module by a computed name.
def c_getattr_importlib(p, i, r):
    p.knob(i, "getattr_importlib")
    p.main('getattr(importlib, "import_" + "module")("app.k{0}".format(%d)).f%d()' % (i, i),
           imports=["import importlib"])


def c_builtins_dict(p, i, r):
    p.knob(i, "builtins_dict")
    p.main('vars(builtins)["__imp" + "ort__"]("app.k{0}".format(%d), fromlist=["x"]).f%d()'
           % (i, i), imports=["import builtins"])


def c_atexit(p, i, r):
    p.knob(i, "atexit")
    p.main("atexit.register(k%d.f%d)" % (i, i), imports=["import atexit", "from app import k%d" % i])


def c_class_attr_alias(p, i, r):
    path = p.knob(i, "class_attr_alias")
    p.files[path] += "\n\nclass Ops%d:\n    run = staticmethod(f%d)\n" % (i, i)
    p.main("k%d.Ops%d.run()" % (i, i), imports=["from app import k%d" % i])


def c_builtins_hook(p, i, r):
    p.knob(i, "builtins_hook")
    p.main("builtins.judge_hook%d = k%d.f%d" % (i, i, i), "judge_hook%d()" % i,
           imports=["import builtins", "from app import k%d" % i])


def c_init_reexport(p, i, r):
    p.knob(i, "init_reexport")
    p.module("app/pkg%d/__init__.py" % i, "from app.k%d import f%d as run\n" % (i, i))
    p.main("pkg%d.run()" % i, imports=["from app import pkg%d" % i])


def c_dynamic_name_in_dict(p, i, r):
    p.knob(i, "dynamic_name_in_dict")
    p.main("ns%d = vars(k%d)" % (i, i), "ns%d['f%d']()" % (i, i), imports=["from app import k%d" % i])


def c_entry_string(p, i, r):
    p.knob(i, "entry_string")
    p.main('mod%d, fn%d = "app.k%d:f%d".split(":")' % (i, i, i, i),
           "getattr(importlib.import_module(mod%d), fn%d)()" % (i, i), imports=["import importlib"])


def c_call_dunder(p, i, r):
    p.knob(i, "call_dunder")
    p.main("class W%d:\n    def __call__(self):\n        k%d.f%d()" % (i, i, i), "W%d()()" % i,
           imports=["from app import k%d" % i])


def c_default_callback(p, i, r):
    p.knob(i, "default_callback")
    p.main("def g%d(cb=k%d.f%d):\n    cb()" % (i, i, i), "g%d()" % i,
           imports=["from app import k%d" % i])


def c_sorted_key(p, i, r):
    p.knob(i, "sorted_key")
    p.main("sorted([1], key=lambda _: k%d.f%d() or 0)" % (i, i), imports=["from app import k%d" % i])


def c_match_dispatch(p, i, r):
    p.knob(i, "match_dispatch")
    p.main("match %d:\n    case %d:\n        k%d.f%d()" % (i, i, i, i),
           imports=["from app import k%d" % i])


def c_redefined_after_alias(p, i, r):
    path = p.knob(i, "redefined_after_alias")
    p.files[path] += "\n\nsaved = f%d\n\n\ndef f%d():\n    pass\n" % (i, i)
    p.main("k%d.saved()" % i, imports=["from app import k%d" % i])


def c_closure_factory(p, i, r):
    path = p.knob(i, "closure_factory")
    p.files[path] += "\n\ndef make%d():\n    return f%d\n" % (i, i)
    p.main("k%d.make%d()()" % (i, i), imports=["from app import k%d" % i])


def c_failed_import_fallback(p, i, r):
    p.knob(i, "failed_import_fallback")
    p.main("try:\n    import judge_no_such_module\nexcept ImportError:\n"
           "    from app import k%d\n    k%d.f%d()" % (i, i, i))


def c_class_registry_subclass(p, i, r):
    path = p.knob(i, "class_registry_subclass")
    p.files[path] += ("\n\nclass Base%d:\n    def go(self):\n        pass\n\n\n"
                      "class Impl%d(Base%d):\n    def go(self):\n        f%d()\n" % (i, i, i, i))
    p.main("for cls in k%d.Base%d.__subclasses__():\n    cls().go()" % (i, i),
           imports=["from app import k%d" % i])


def c_globals_lookup(p, i, r):
    path = p.knob(i, "globals_lookup")
    p.files[path] += "\n\ndef run%d(name):\n    globals()[name]()\n" % i
    p.main('k%d.run%d("f" + "%d")' % (i, i, i), imports=["from app import k%d" % i])


def c_plugin_installed(p, i, r):
    # An installed distribution's entry point, loaded as vLLM's
    # load_general_plugins() loads them.
    p.knob(i, "plugin_installed")
    p.module("judgeplug%d-1.0.dist-info/METADATA" % i,
             "Metadata-Version: 2.1\nName: judgeplug%d\nVersion: 1.0\n" % i)
    p.module("judgeplug%d-1.0.dist-info/entry_points.txt" % i,
             "[app.plugins]\np%d = app.k%d:f%d\n" % (i, i, i))
    p.main("for ep in importlib.metadata.entry_points(group='app.plugins'):\n    ep.load()()",
           imports=["import importlib.metadata"])
    p.breaks.add("assuming no plugin is installed")
    p.plugins.add("p%d" % i)


def platform_construct(predicate):
    def construct(p, i, r):
        # The site runs where the stub platform's predicate holds.
        p.knob(i, "platform_" + predicate)
        p.module("vllm/__init__.py", "")
        p.module("vllm/platforms.py", PLATFORM_STUB % p.platform)
        p.main("if current_platform.%s():\n    k%d.f%d()" % (predicate, i, i),
               imports=["from vllm.platforms import current_platform", "from app import k%d" % i])
    return construct


def c_backend_env(p, i, r):
    # The site runs only when the selector returns the ROCm backend.
    p.knob(i, "backend_env")
    p.module("app/selector.py", SELECTOR)
    p.main("if selector.which_attn_to_use() == selector._Backend.ROCM_FLASH:\n    k%d.f%d()"
           % (i, i), imports=["from app import selector", "from app import k%d" % i])


def c_backend_env_set_concat(p, i, r):
    # The program sets the variable itself, the backend's name split in two
    # literals: the environment's default no longer holds.
    p.knob(i, "backend_env_set_concat")
    p.module("app/selector.py", SELECTOR)
    p.main("os.environ.setdefault('VLLM_ATTENTION_BACKEND', 'ROCM_' 'FLASH')",
           "if selector.which_attn_to_use() == selector._Backend.ROCM_FLASH:\n    k%d.f%d()"
           % (i, i), imports=["import os", "from app import selector", "from app import k%d" % i])


def c_backend_env_import(p, i, r):
    # Its module is imported only in the ROCm backend's branch, as the real
    # tree imports triton_flash_attention.
    p.knob(i, "backend_env_import")
    p.module("app/selector.py", SELECTOR)
    p.main("def attn%d(backend):\n    if backend == _Backend.ROCM_FLASH:\n"
           "        from app import k%d\n        k%d.f%d()" % (i, i, i, i),
           "attn%d(selector.which_attn_to_use())" % i,
           imports=["from app import selector", "from app.selector import _Backend"])


# The program itself picks the ROCm backend, whatever the environment and
# the platform: a value passed on, a name looked up, a constant naming it.
BACKEND_MADE = {
    "value": "_Backend.ROCM_FLASH",
    "getitem": "_Backend['ROCM_FLASH']",
    "members": "_Backend.__members__['ROCM_FLASH']",
    # Without the member's name whole (helper probe): by value, by a name
    # split or escaped, by position.
    "by_value": "_Backend(3)",
    "concat": "_Backend['ROCM_' 'FLASH']",
    "escaped": "_Backend['ROCM_\\x46LASH']",
    "listed": "list(_Backend)[2]",
    # The enum reached otherwise than by its name (second helper probe).
    "module_attr": "selector._Backend(3)",
    "type_of": "type(_Backend.FLASH_ATTN)(3)",
    "class_of": "_Backend.FLASH_ATTN.__class__(3)",
    "default": None,
}


def backend_made_construct(name):
    def construct(p, i, r):
        p.knob(i, "backend_made_" + name)
        p.module("app/selector.py", SELECTOR)
        if name == "default":
            # A forced default, as vLLM's global_force_attn_backend holds one.
            p.main("def attn%d(backend=_Backend.ROCM_FLASH):\n    if backend == _Backend.ROCM_FLASH:\n"
                   "        from app import k%d\n        k%d.f%d()" % (i, i, i, i),
                   "attn%d()" % i,
                   imports=["from app import selector", "from app.selector import _Backend"])
            return
        p.main("def attn%d(backend):\n    if backend == _Backend.ROCM_FLASH:\n"
               "        from app import k%d\n        k%d.f%d()" % (i, i, i, i),
               "attn%d(%s)" % (i, BACKEND_MADE[name]),
               imports=["from app import selector", "from app.selector import _Backend"])
    return construct


def c_backend_env_other(p, i, r):
    # The site runs unless the selector returns the CPU backend.
    p.knob(i, "backend_env_other")
    p.module("app/selector.py", SELECTOR)
    p.main("if selector.which_attn_to_use() != selector._Backend.TORCH_SDPA:\n    k%d.f%d()"
           % (i, i), imports=["from app import selector", "from app import k%d" % i])


def c_finally_after_return(p, i, r):
    p.knob(i, "finally_after_return",
           body="try:\n    return 0\nfinally:\n    BLOCK = {v}\n    sink(BLOCK)")
    p.main("k%d.f%d()" % (i, i), imports=["from app import k%d" % i])


def c_except_after_raise(p, i, r):
    p.knob(i, "except_after_raise",
           body="try:\n    raise ValueError()\nexcept ValueError:\n    BLOCK = {v}\n    sink(BLOCK)")
    p.main("k%d.f%d()" % (i, i), imports=["from app import k%d" % i])


def c_suppress(p, i, r):
    p.knob(i, "suppress", head="import contextlib\n",
           body="with contextlib.suppress(ValueError):\n    raise ValueError()\n"
                "BLOCK = {v}\nsink(BLOCK)")
    p.main("k%d.f%d()" % (i, i), imports=["from app import k%d" % i])


def c_closure_lazy(p, i, r):
    p.knob(i, "closure_lazy",
           body="read = lambda: sink(BLOCK)\nBLOCK = {v}\nread()\nBLOCK = 1")
    p.main("k%d.f%d()" % (i, i), imports=["from app import k%d" % i])


def c_generator_lazy(p, i, r):
    p.knob(i, "generator_lazy",
           body="BLOCK = {v}\ngen = (sink(BLOCK) for _ in range(1))\nnext(gen)\nBLOCK = 1")
    p.main("k%d.f%d()" % (i, i), imports=["from app import k%d" % i])


# Overwrites that do not happen, or happen after a read: CPython delivers
# the site's value in each.
OVERWRITES = {
    "in_if": "BLOCK = {v}\nif no():\n    BLOCK = 1\nsink(BLOCK)",
    "in_empty_loop": "BLOCK = {v}\nfor _ in []:\n    BLOCK = 1\nsink(BLOCK)",
    "in_while_false": "BLOCK = {v}\nwhile no():\n    BLOCK = 1\nsink(BLOCK)",
    "raising_rhs": "BLOCK = {v}\ntry:\n    BLOCK = int('x')\nexcept ValueError:\n    pass\n"
                   "sink(BLOCK)",
    "augmented": "BLOCK = {v}\nBLOCK += 0\nsink(BLOCK)",
    "walrus_read": "BLOCK = {v}\nif (x := BLOCK):\n    pass\nBLOCK = 1\nsink(x)",
    "tuple_swap": "BLOCK = {v}\nBLOCK, other = BLOCK, 1\nsink(BLOCK)",
    "inner_def": "BLOCK = {v}\ndef inner():\n    return BLOCK\nx = inner()\nBLOCK = 1\nsink(x)",
    "locals_read": "BLOCK = {v}\nx = locals()['BLOCK']\nBLOCK = 1\nsink(x)",
    "conditional_expr": "BLOCK = {v}\nBLOCK = 1 if no() else BLOCK\nsink(BLOCK)",
    "match_not_taken": "BLOCK = {v}\nmatch 1:\n    case 2:\n        BLOCK = 1\nsink(BLOCK)",
    "with_suppressed": "import contextlib\nBLOCK = {v}\nwith contextlib.suppress(ValueError):\n"
                       "    BLOCK = int('x')\nsink(BLOCK)",
    "comprehension": "BLOCK = {v}\nxs = [BLOCK for _ in range(1)]\nBLOCK = 1\nsink(xs[0])",
    "default_arg": "BLOCK = {v}\ndef g(b=BLOCK):\n    return b\nBLOCK = 1\nsink(g())",
    "class_body": "BLOCK = {v}\nclass K:\n    b = BLOCK\nBLOCK = 1\nsink(K.b)",
    "lambda_arg": "BLOCK = {v}\nf = (lambda b: lambda: b)(BLOCK)\nBLOCK = 1\nsink(f())",
    "fstring": "BLOCK = {v}\ns = f'{{BLOCK}}'\nBLOCK = 1\nsink(int(s))",
    "dict_of": "BLOCK = {v}\nd = dict(b=BLOCK)\nBLOCK = 1\nsink(d['b'])",
    "return_in_finally": "BLOCK = {v}\ntry:\n    sink(BLOCK)\nfinally:\n    BLOCK = 1",
    "loop_read_then_write": "BLOCK = {v}\nfor _ in range(2):\n    sink(BLOCK)\n    BLOCK = 1",
    "global_read": "global BLOCK\nBLOCK = {v}\nsink(BLOCK)",
    "break_before_write": "while True:\n    BLOCK = {v}\n    if not no():\n        break\n"
                          "    BLOCK = 1\n    break\nsink(BLOCK)",
    "continue_before_write": "for _ in range(2):\n    BLOCK = {v}\n    if not no():\n"
                             "        continue\n    BLOCK = 1\nsink(BLOCK)",
    # Read by a match statement before the overwrite: as its subject, by a
    # guard, by a value pattern of a class attribute.
    "match_subject": "BLOCK = {v}\nmatch BLOCK:\n    case int(x):\n        pass\nBLOCK = 1\nsink(x)",
    "match_guard": "BLOCK = {v}\nx = 0\nmatch 1:\n    case 1 if BLOCK > 0:\n        x = BLOCK\n"
                   "BLOCK = 1\nsink(x)",
    "match_capture_write": "BLOCK = {v}\nmatch 1:\n    case 2:\n        pass\n    case BLOCK:\n"
                           "        pass\nsink(BLOCK)",
    "match_all_cases": "BLOCK = {v}\nmatch no():\n    case True:\n        BLOCK = 1\n"
                       "    case False:\n        pass\nsink(BLOCK)",
    "walrus_in_comprehension": "BLOCK = {v}\n[(y := BLOCK) for _ in range(1)]\nBLOCK = 1\nsink(y)",
    "star_target": "BLOCK = {v}\nfirst, *BLOCK = [1]\nsink(first)",
    "nested_target_read": "BLOCK = {v}\n(a, b), BLOCK = (BLOCK, 2), 1\nsink(a)",
}


# What a dict knob's value goes through; CPython says whether it arrives.
DICTS = {
    "read": "sink(config['BLOCK'])",
    "get": "sink(config.get('BLOCK'))",
    "key_never_read": "sink(config['OTHER'])",
    "overwritten": "config['BLOCK'] = 1\nsink(config['BLOCK'])",
    "overwrite_if": "if no():\n    config['BLOCK'] = 1\nsink(config['BLOCK'])",
    "update_if": "if no():\n    config.update(BLOCK=1)\nsink(config['BLOCK'])",
    "items": "for k, v in config.items():\n    sink(v)",
    "values": "sink(max(config.values()))",
    "unpack": "sink(dict(**config)['BLOCK'])",
    "key_var": "key = 'BLO' + 'CK'\nsink(config[key])",
    "copy_then_overwrite": "c2 = config.copy()\nconfig['BLOCK'] = 1\nsink(c2['BLOCK'])",
    "alias_read": "alias = config\nsink(alias['BLOCK'])\nconfig['BLOCK'] = 1",
    "json_roundtrip": "sink(json.loads(json.dumps(config))['BLOCK'])",
    "lambda_before_overwrite": "get = lambda: config['BLOCK']\nv = get()\nconfig['BLOCK'] = 1\n"
                               "sink(v)",
    "setdefault": "config.setdefault('BLOCK', 1)\nsink(config['BLOCK'])",
    "pop": "sink(config.pop('BLOCK'))",
    "chain_all_paths": "n = 5 if not no() else 0\nif n <= 1:\n    config['BLOCK'] = 1\n"
                       "elif n <= 2:\n    config['BLOCK'] = 2\nelse:\n    config['BLOCK'] = 3\n"
                       "sink(config['BLOCK'])",
    "chain_no_else": "n = 5 if not no() else 0\nif n <= 1:\n    config['BLOCK'] = 1\n"
                     "elif n <= 2:\n    config['BLOCK'] = 2\nsink(config['BLOCK'])",
    "returned": "return config",
    "returned_read_by_caller": "return config",
    "passed": "sink_all(config)\n",
    "rebound_then_read": "old = config\nconfig = {'BLOCK': 1}\nsink(old['BLOCK'])",
    "del_then_default": "del config['OTHER']\nsink(config['BLOCK'])",
    "in_test": "sink(4000 + %d if 'BLOCK' in config else 0)",
    "str_of": "sink(int(str(config).split(':')[1].split(',')[0]))",
    # Keys read by a pattern, by keyword arguments, by a format, by a merge.
    "match_mapping": "match config:\n    case {'BLOCK': v}:\n        sink(v)",
    "match_rest": "match config:\n    case {'OTHER': _, **rest}:\n        sink(max(rest.values()))",
    "match_class": "match config:\n    case dict(BLOCK=v):\n        sink(v)\n    case _:\n"
                   "        sink(config['BLOCK'])",
    "write_raises_handler_reads": "try:\n    config['BLOCK'] = int('x')\nexcept ValueError:\n"
                                  "    sink(config['BLOCK'])",
    "write_raises_then_read": "try:\n    config['BLOCK'] = 1 // int(no())\nexcept ZeroDivisionError:\n"
                              "    pass\nsink(config['BLOCK'])",
    "write_in_with_suppress": "import contextlib\nwith contextlib.suppress(ValueError):\n"
                              "    config['BLOCK'] = int('x')\nsink(config['BLOCK'])",
    "write_in_finally_after_read": "try:\n    sink(config['BLOCK'])\nfinally:\n    config['BLOCK'] = 1",
    "write_after_yield": "def gen():\n    yield config['BLOCK']\nv = next(gen())\n"
                         "config['BLOCK'] = 1\nsink(v)",
    "kwargs_call": "def g(BLOCK, OTHER):\n    sink(BLOCK)\ng(**config)",
    "format_map": "sink(int('{BLOCK}'.format_map(config)))",
    "format_kwargs": "sink(int('{BLOCK}'.format(**config)))",
    "percent_map": "sink(int('%(BLOCK)d' % config))",
    "merge_or": "sink((config | {'X': 1})['BLOCK'])",
    "update_into": "d = {}\nd.update(config)\nsink(d['BLOCK'])",
    "itemgetter": "import operator\nsink(operator.itemgetter('BLOCK')(config))",
    "keys_loop": "for k in config:\n    if k == 'BLOCK':\n        sink(config[k])",
}


# Reads of the whole dict (printed: CPython's stdout counts as a sink) or of
# its keys, from the retired mutation test; each is judged on a key read
# nowhere else (dict_<name>) and on a value overwritten after the read
# (dict_<name>_before_overwrite).
DICT_READS = {
    # The function's locals read whole, the dict among them.
    "locals_printed": "print(locals())",
    "vars_printed": "print(vars())",
    "frame_locals_printed": "import sys\nprint(sys._getframe().f_locals)",
    "fstring_locals_printed": "print(f'{locals()}')",
    "fstring_vars_printed": "print(f'tiles {vars()}')",
    "copy_printed": "c = config.copy(); print(c)",
    "dict_call_values": "c = dict(config)\nprint(*c.values())",
    "values_printed": "print(*config.values())",
    "items_printed": "print(sorted(config.items()))",
    "loop_over_keys": "for k in config:\n    print(config[k])",
    "if_one_line": "if not no(): print(config)",
    "fstring_printed": "print(f\"{config}\")",
    "walrus_printed": "if (c := config): print(c)",
    "augmented_into": "c = {}\nc |= config\nprint(c)",
    "global_read_by_main": "global g\ng = config",
    "closure_printed": "f = lambda: config\nprint(f())",
    # A parameter's default holds the dict for every later call.
    "default_printed": "def f(c=config):\n    print(c)\nf()",
    "lambda_default_printed": "(lambda c=config: print(c))()",
    "kwonly_default_printed": "def f(*, c=config):\n    print(c)\nf()",
    "match_printed": "match 1:\n    case _:\n        print(config)",
    "keys_as_strings": "print([config[k] for k in ('OTHER', 'BLOCK')])",
}
DICTS.update(DICT_READS)
# (A global bound to the dict sees the overwrite: CPython never delivers it.)
DICTS.update({n + "_before_overwrite": b + "\nconfig['BLOCK'] = 1\nsink(config['BLOCK'])"
              for n, b in DICT_READS.items() if n != "global_read_by_main"})
# Returned before the overwrite, and printed by main.
DICTS["return_before_overwrite"] = ("if not no(): return config\nconfig['BLOCK'] = 1\n"
                                    "return config")
DICTS["return_in_handler"] = ("try:\n    n = int('x')\nexcept Exception:\n    return config\n"
                              "config['BLOCK'] = 1\nreturn config")


def dict_construct(name):
    def construct(p, i, r):
        body = DICTS[name].replace("%d", str(i))
        path = p.dict_knob(i, "dict_" + name, body)
        if name == "passed":
            p.files[path] += "\n\ndef sink_all(c):\n    sink(c['BLOCK'])\n"
        if name == "returned_read_by_caller":
            p.main("sink(d%d.f%d()['BLOCK'])" % (i, i), imports=["from app.sink import sink"])
        if name == "global_read_by_main":
            p.main("print(d%d.g)" % i)
        if name in ("return_before_overwrite", "return_in_handler"):
            p.main("print(d%d.f%d())" % (i, i))
    return construct


def overwrite_construct(name):
    def construct(p, i, r):
        p.knob(i, "overwrite_" + name, body=OVERWRITES[name])
        p.main("k%d.f%d()" % (i, i), imports=["from app import k%d" % i])
    return construct


def c_overwritten(p, i, r):
    p.knob(i, "overwritten", body="BLOCK = {v}\nBLOCK = 1\nsink(BLOCK)")
    p.main("k%d.f%d()" % (i, i), imports=["from app import k%d" % i])


def c_never_called(p, i, r):
    p.knob(i, "never_called")
    p.main(imports=["from app import k%d" % i])


def c_not_imported(p, i, r):
    p.knob(i, "not_imported")


def c_after_return(p, i, r):
    p.knob(i, "after_return", body="return 0\nBLOCK = {v}\nsink(BLOCK)")
    p.main("k%d.f%d()" % (i, i), imports=["from app import k%d" % i])


def module_site(p, i, construct):
    """app/k<i>.py whose site runs when it is imported (at module level);
    its f<i> does nothing."""
    path = p.knob(i, construct)
    p.files[path] = p.files[path].replace("def f%d():\n    BLOCK" % i, "if True:\n    BLOCK")
    p.files[path] += "\n\ndef f%d():\n    pass\n" % i
    return path


def c_module_level(p, i, r):
    module_site(p, i, "module_level")
    p.main(imports=["import app.k%d" % i])


def c_thread(p, i, r):
    p.knob(i, "thread")
    p.main("t%d = threading.Thread(target=k%d.f%d)" % (i, i, i), "t%d.start()" % i,
           "t%d.join()" % i, imports=["import threading", "from app import k%d" % i])


def c_map_call(p, i, r):
    p.knob(i, "map_call")
    p.main("list(map(lambda fn: fn(), [k%d.f%d]))" % (i, i), imports=["from app import k%d" % i])


def c_partial(p, i, r):
    p.knob(i, "partial")
    p.main("functools.partial(k%d.f%d)()" % (i, i),
           imports=["import functools", "from app import k%d" % i])


# --------------------------------------------------------------------------
# The constructs of the retired mutation test of the real tree
# (engine/liveness/liveness_mutation_test.cc, removed): an import, a flag
# rebound, a call or a dict read written the ways a developer writes them
# (after `;`, on an if or try header, in a match, ...), here judged by
# CPython.

def semi(r):
    return r.choice(["; ", " ; ", ";", ";  "])


def colon(r):
    return r.choice([": ", ":  "])


def true_cond(r):
    """A condition CPython finds true."""
    return r.choice(['len("judge") > %d' % r.randrange(3), '__name__ != "judge"', "not -3 > 0"])


def at_top(p, i, r, code, imports=()):
    """`code` (after `imports`) at the top level of a module that runs: the
    entry, or app/host<i>.py, which it imports (the mutation test chose
    among modules the real tree runs)."""
    if r.randrange(2) == 0:
        p.main(code, imports=list(imports))
    else:
        p.module("app/host%d.py" % i, "".join(x + "\n" for x in imports) + "\n" + code + "\n")
        p.main(imports=["import app.host%d" % i])


# A module whose site runs at import, imported through one form.
IMPORTS = {
    "semicolon": lambda i, r: "import os%simport app.k%d" % (semi(r), i),
    "if_header": lambda i, r: "if %s%simport app.k%d as m%d" % (true_cond(r), colon(r), i, i),
    "try_header": lambda i, r: "try%sfrom app import k%d\nexcept ImportError%spass" % (
        colon(r), i, colon(r)),
    "star": lambda i, r: "from app.k%d import *" % i,
    "global_function": lambda i, r: ("def h%d():\n    global g%d\n    import app.k%d\n\n\nh%d()"
                                     % (i, i, i, i)),
    "module_relative": lambda i, r: ("import importlib\n"
                                     'importlib.import_module(".k%d", package="app")' % i),
    "in_match": lambda i, r: ("a%d = 1\nmatch a%d:\n    case 1:\n        import app.k%d\n"
                              "    case _:\n        pass" % (i, i, i)),
    "exec_name": lambda i, r: 'n%d = "import app.k%d"\nexec(n%d)' % (i, i, i),
}


def import_construct(name):
    def construct(p, i, r):
        module_site(p, i, "import_" + name)
        at_top(p, i, r, IMPORTS[name](i, r))
    return construct


# A flag, False where it is defined, that the site's guard reads, rebound
# to True. app/tu<i>/importing.py defines it and the package app.tu<i>
# re-exports it (as vllm.triton_utils does HAS_TRITON); app/use<i>.py,
# imported after the rebind, runs the site `if FLAG`. Each: (the code
# rebinding it, in a module that runs or appended to the defining module;
# the module the reader imports FLAG from).
FLAG_REBINDS = {
    "package_attr": ("main", lambda i, r: "import app.tu%d as a%d%sa%d.FLAG = True" % (
        i, i, semi(r), i), "app.tu%d"),
    "defining_module_attr": ("main", lambda i, r: ("import app.tu%d.importing as a%d\n"
                                                   "a%d.FLAG = True" % (i, i, i)),
                             "app.tu%d.importing"),
    "setattr_literal": ("main", lambda i, r: ('import app.tu%d as a%d\nsetattr(a%d, "FLAG", True)'
                                              % (i, i, i)), "app.tu%d"),
    "global_function": ("module", lambda i, r: ("def set%d():\n    global FLAG\n    FLAG = True"
                                                "\n\n\nset%d()" % (i, i)), "app.tu%d"),
    "semicolon": ("module", lambda i, r: "x%d = 1%sFLAG = True" % (i, semi(r)), "app.tu%d"),
    "augmented": ("module", lambda i, r: "FLAG |= True", "app.tu%d"),
    "walrus": ("module", lambda i, r: "if (FLAG := True)%spass" % colon(r), "app.tu%d"),
    "if_header": ("module", lambda i, r: "if %s%sFLAG = True" % (true_cond(r), colon(r)),
                  "app.tu%d"),
    "in_match": ("module", lambda i, r: "match 1:\n    case _:\n        FLAG = True", "app.tu%d"),
    "case_capture": ("module", lambda i, r: "match True:\n    case FLAG:\n        pass", "app.tu%d"),
    "case_sequence": ("module", lambda i, r: "match [True]:\n    case [FLAG]:\n        pass",
                      "app.tu%d"),
    "tuple_target": ("module", lambda i, r: "FLAG, x%d = True, 1" % i, "app.tu%d"),
    "nested_target": ("module", lambda i, r: "(x%d, [FLAG]) = (1, [True])" % i, "app.tu%d"),
    "chain": ("module", lambda i, r: "x%d = FLAG = True" % i, "app.tu%d"),
    "chain_middle": ("module", lambda i, r: "x%d = FLAG = y%d = True" % (i, i), "app.tu%d"),
    "annotated": ("module", lambda i, r: "FLAG: bool = True", "app.tu%d"),
    "with_as": ("module", lambda i, r: "import contextlib\nwith contextlib.nullcontext(True) as FLAG%spass" % colon(r), "app.tu%d"),
    "for_else": ("module", lambda i, r: "for FLAG in [True]%spass\nelse%spass" % (colon(r), colon(r)), "app.tu%d"),
    "import_as": ("module", lambda i, r: "from os import sep as FLAG", "app.tu%d"),
    "class_global": ("module", lambda i, r: "class C%d:\n    global FLAG\n    FLAG = True" % i, "app.tu%d"),
    "try_else": ("module", lambda i, r: "try:\n    pass\nexcept ValueError:\n    pass\nelse:\n    FLAG = True", "app.tu%d"),
    "star_after": ("module", lambda i, r: ("import sys, types\nm%d = types.ModuleType('fx%d')\nm%d.FLAG = True\n"
                                           "sys.modules['fx%d'] = m%d\nfrom fx%d import *" % (i, i, i, i, i, i)), "app.tu%d"),
    "del_list": ("module", lambda i, r: "del (FLAG)\nfrom os import sep as FLAG", "app.tu%d"),
    "comprehension_leak": ("module", lambda i, r: "FLAG = [FLAG for FLAG in (True,)][0]", "app.tu%d"),
    "dict_globals": ("module", lambda i, r: "globals()['FL' 'AG'] = True", "app.tu%d"),
    "sys_modules": ("main", lambda i, r: "import sys, app.tu%d.importing\nsys.modules['app.tu%d.importing'].__dict__['FLAG'] = True" % (i, i), "app.tu%d.importing"),
    "del_reimport": ("module", lambda i, r: "del FLAG\nFLAG = True", "app.tu%d"),
    "type_alias_line": ("module", lambda i, r: "FLAG \\\n= True", "app.tu%d"),
    "paren_target": ("module", lambda i, r: "(FLAG) = True", "app.tu%d"),
    "comprehension_attr": ("main", lambda i, r: "import app.tu%d as a%d\n_c%d = [0 for a%d.FLAG in [True]]"
                           % (i, i, i, i), "app.tu%d"),
    "with_attr": ("main", lambda i, r: ("import contextlib\nimport app.tu%d as a%d\n"
                                        "with contextlib.nullcontext(True) as a%d.FLAG%spass"
                                        % (i, i, i, colon(r))), "app.tu%d"),
    "paren_attr": ("main", lambda i, r: "import app.tu%d as a%d\n(a%d\n .FLAG) = True" % (i, i, i),
                   "app.tu%d"),
    # A fullwidth F: CPython folds the name (NFKC) into FLAG.
    "nfkc_name": ("module", lambda i, r: "\uff26LAG = True", "app.tu%d"),
    "self_module_attr": ("module", lambda i, r: "import sys\nsys.modules[__name__].FLAG = True",
                         "app.tu%d"),
    "self_module_dict": ("module", lambda i, r: "import sys\nvars(sys.modules[__name__])['FL' 'AG'] = True",
                         "app.tu%d"),
    "exec_rebind": ("module", lambda i, r: "exec('FL' + 'AG = True')", "app.tu%d"),
}


def flag_construct(name):
    def construct(p, i, r):
        where, rebind, reader = FLAG_REBINDS[name]
        p.knob(i, "flag_rebound_" + name)
        defining = "FLAG = False\n"
        if where == "module":
            defining += rebind(i, r) + "\n"
        p.module("app/tu%d/__init__.py" % i, "from app.tu%d.importing import FLAG\n" % i)
        p.module("app/tu%d/importing.py" % i, defining)
        p.module("app/use%d.py" % i, "from %s import FLAG\n\nif FLAG:\n    from app import k%d\n"
                 "    k%d.f%d()\n" % (reader % i, i, i, i))
        code = "import app.use%d" % i
        if where == "main":
            code = rebind(i, r) + "\n" + code
        at_top(p, i, r, code)
    return construct


# A call of f<i> (its expression `c`, imported one of three ways) written
# one way at the top of a module that runs; f<i> returns None.
CALLS = {
    "semicolon": lambda i, r, c: "z%d = 0%s%s" % (i, semi(r), c),
    "if_header": lambda i, r, c: "if %s%s%s" % (true_cond(r), colon(r), c),
    "try_header": lambda i, r, c: "try%s%s\nexcept Exception%spass" % (colon(r), c, colon(r)),
    "decorator": lambda i, r, c: ("def deco%d(fn):\n    fn()\n    return fn\n\n\n@deco%d\n"
                                  "def handler%d():\n    return %s" % (i, i, i, c)),
    "route_decorator": lambda i, r, c: (
        "class Router%d:\n    def get(self, path):\n        def wrap(fn):\n            fn()\n"
        "            return fn\n        return wrap\n\n\nrouter%d = Router%d()\n\n\n"
        '@router%d.get("/p%d")\ndef route%d():\n    return %s' % (i, i, i, i, i, i, c)),
    "global": lambda i, r, c: ("def h%d():\n    global v%d\n    v%d = %s\n\n\nh%d()"
                               % (i, i, i, c, i)),
    "augmented": lambda i, r, c: "v%d = 0\nv%d += %s or 0" % (i, i, c),
    "del": lambda i, r, c: "v%d = [%s]\ndel v%d" % (i, c, i),
    "walrus": lambda i, r, c: "if (w%d := %s)%spass" % (i, c, colon(r)),
    "match_wildcard": lambda i, r, c: "match %d:\n    case _:\n        %s" % (r.randrange(4), c),
    "lambda": lambda i, r, c: "l%d = (lambda: %s)()" % (i, c),
    "class_body": lambda i, r, c: "class K%d:\n    a%d = %s" % (i, i, c),
    "fstring": lambda i, r, c: 's%d = f"{%s}"' % (i, c),
}


def call_construct(name):
    def construct(p, i, r):
        p.knob(i, "call_" + name)
        form = r.randrange(3)
        if form == 0:
            imports, c = "from app.k%d import f%d as g%d" % (i, i, i), "g%d()" % i
        elif form == 1:
            imports, c = "import app.k%d as m%d" % (i, i), "m%d.f%d()" % (i, i)
        else:
            imports, c = "from app.k%d import f%d" % (i, i), "f%d()" % i
        at_top(p, i, r, CALLS[name](i, r, c), imports=[imports])
    return construct


CONSTRUCTS = {name[2:]: fn for name, fn in sorted(globals().items()) if name.startswith("c_")}
CONSTRUCTS.update({"overwrite_" + n: overwrite_construct(n) for n in OVERWRITES})
CONSTRUCTS.update({"dict_" + n: dict_construct(n) for n in DICTS})
CONSTRUCTS.update({"import_" + n: import_construct(n) for n in IMPORTS})
CONSTRUCTS.update({"flag_rebound_" + n: flag_construct(n) for n in FLAG_REBINDS})
CONSTRUCTS.update({"backend_made_" + n: backend_made_construct(n) for n in BACKEND_MADE})
CONSTRUCTS.update({"stdlib_" + n: stdlib_loader_construct(n) for n in STDLIB_LOADERS})
CONSTRUCTS.update({"cond_" + n: condition_construct(n) for n in CONDITIONS})
CONSTRUCTS.update({"call_" + n: call_construct(n) for n in CALLS})
CONSTRUCTS.update({"platform_" + n: platform_construct(n)
                   for n in ("is_cuda", "is_rocm", "is_cpu", "is_cuda_alike")})


# --------------------------------------------------------------------------

# Constructs muhpatch gets wrong, {name: reason}: generated only when named
# (--constructs); their seeds in seeds/ say "known" and are reported, not
# counted.
KNOWN = {}

# Decoys (--decoys): text naming a dead site that reaches nothing (a
# comment, a docstring, a printed message), the retired mutation test's
# controls. CPython cannot judge precision; the check is that the verdicts
# of these dead sites are the same with the decoys and without.
DECOY_SPEC = ["not_imported", "never_called", "flag_false", "overwritten", "dict_key_never_read"]


def add_decoys(p):
    """Name every site of p where nothing reaches it."""
    for path, _, _ in p.sites:
        i = int(re.search(r"([0-9]+)\.py$", path).group(1))
        if path.startswith("app/d"):
            head, _, rest = p.files[path].partition("'OTHER': 1}\n")
            p.files[path] = (head + "'OTHER': 1}\n    # sink(config.pop('BLOCK'))\n"
                             "    print('BLOCK stays as tuned')\n" + rest)
            continue
        p.main("# import app.k%d" % i, "# k%d.f%d()" % (i, i), "# FLAG%d = True" % i,
               'def doc%d():\n    """Never imports app.k%d, calls f%d or sets FLAG%d."""'
               % (i, i, i, i),
               'print("app.k%d.f%d is off here; FLAG%d = True is not")' % (i, i, i))


def build(spec, root, platform="cuda", decoys=False):
    """spec: [construct name, ...], site i gets the i-th (1-based)."""
    p = Program(platform)
    rng = random.Random(0)
    for i, name in enumerate(spec, 1):
        CONSTRUCTS[name](p, i, rng)
    if decoys:
        add_decoys(p)
    p.write(root)
    return p


def check_decoys(muhpatch):
    """Failures of the decoy check: (construct, what is wrong)."""
    verdict = {}
    for with_decoys in (False, True):
        work = tempfile.mkdtemp(prefix="judge-")
        root = os.path.join(work, "tree")
        try:
            p = build(DECOY_SPEC, root, decoys=with_decoys)
            seen = observe(root, work, {})
            rows = verdicts(muhpatch, root, work, p.sites, "cuda", "")
            for path, value, construct in p.sites:
                row = rows.get((path, str(value)))
                v = (row["liveness"] or row["state"]) if row else "refused"
                verdict[construct, with_decoys] = (v, row["reason"] if row else "", value in seen)
        finally:
            shutil.rmtree(work)
    failures = []
    for construct in DECOY_SPEC:
        before, after = verdict[construct, False], verdict[construct, True]
        print("  %-22s %s; with decoys %s" % (construct, before[0], after[0]))
        if before[2] or after[2]:
            failures.append((construct, "CPython ran the site"))
        elif before[0] != "dead":
            failures.append((construct, "not dead without decoys: %s (%s)" % before[:2]))
        elif after[0] != before[0]:
            failures.append((construct, "the decoys made it %s (%s)" % after[:2]))
    return failures


def observe(root, work, assume):
    out = os.path.join(work, "seen.json")
    runner = os.path.join(work, "runner.py")
    with open(runner, "w") as fh:
        fh.write(RUNNER)
    env = {k: v for k, v in judge_env().items() if k != "VLLM_ATTENTION_BACKEND"}
    if assume.get("VLLM_ATTENTION_BACKEND") is not None:
        env["VLLM_ATTENTION_BACKEND"] = assume["VLLM_ATTENTION_BACKEND"]
    proc = subprocess.run([sys.executable, "-B", runner, root, out], capture_output=True,
                          text=True, env=env, timeout=60)
    if proc.returncode != 0:
        raise RuntimeError("the generated program failed under CPython:\n" + proc.stderr)
    with open(out) as fh:
        seen = set(json.load(fh))
    # A value printed was read too (a dict printed whole).
    return seen | {int(n) for n in re.findall(r"\b[0-9]+\b", proc.stdout)}


def verdicts(muhpatch, root, work, sites, platform, liveness):
    rules = os.path.join(work, "rules.yaml")
    with open(rules, "w") as fh:
        fh.write(RULES_HEAD % (platform, liveness))
        for prefix, rule in RULES.items():
            if any(path.startswith(prefix) for path, _, _ in sites):
                fh.write(rule)
    # 6: a rule failed (a site it refuses to rewrite, such as a value
    # computed from itself); its sites then have no verdict, which is no
    # claim that they are dead.
    proc = run_muhpatch(muhpatch, ["-q", "status", rules, root, "--format", "json"], ok=(0, 6))
    rows = json.loads(proc.stdout)
    return {(r["file"], r["now"]): r for r in rows if r["file"]}


def judge(muhpatch, spec, keep=None, assume=None):
    """Failures of one program under the declared assumptions `assume`
    (assumptions_for; none declared when None): (construct, site file,
    value, muhpatch's row)."""
    assume = assume or {}
    work = tempfile.mkdtemp(prefix="judge-")
    root = os.path.join(work, "tree")
    try:
        platform = assume.get("platform", "cuda")
        p = build(spec, root, platform)
        seen = observe(root, work, assume)
        rows = verdicts(muhpatch, root, work, p.sites, platform,
                        liveness_lines(assume, p.plugins))
        # A declared plugin is no broken assumption: nothing is excused.
        breaks = set() if assume.get("declare_plugins") else p.breaks
        failures, stats = [], []
        for path, value, construct in p.sites:
            row = rows.get((path, str(value)))
            verdict = (row["liveness"] or row["state"]) if row else "refused"
            ran = value in seen
            if ran and verdict == "dead" and any(b in row["reason"] for b in breaks):
                verdict = "dead, on an assumption the program breaks"
            if construct.startswith("backend_env"):
                construct += "[%s]" % (assume.get("VLLM_ATTENTION_BACKEND") or "unset")
            if construct.startswith("platform_") or construct.startswith("backend_env"):
                construct += "[%s]" % platform
            if construct == "plugin_installed" and assume.get("declare_plugins"):
                construct += "[declared]"
            stats.append((construct, ran, verdict))
            if ran and verdict == "dead":
                failures.append((construct, path, value, row))
        return failures, stats
    finally:
        if keep:
            shutil.copytree(work, keep, dirs_exist_ok=True)
        shutil.rmtree(work)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("muhpatch")
    ap.add_argument("--seeds", type=int, default=40)
    ap.add_argument("--sites", type=int, default=8)
    ap.add_argument("--keep", help="copy the last program and its outputs here")
    ap.add_argument("--replay", nargs="*", help="seed files to run instead of generated programs")
    ap.add_argument("--sweep", action="store_true",
                    help="the assumption-resting constructs under every declared assumption")
    ap.add_argument("--constructs", help="comma-separated: generate only these (known ones too)")
    ap.add_argument("--decoys", action="store_true",
                    help="check that text naming a dead site, reaching nothing, leaves it dead")
    args = ap.parse_args()
    if args.decoys:
        failures = check_decoys(args.muhpatch)
        for construct, why in failures:
            print("FAIL decoys: %s: %s" % (construct, why))
        print("decoys: %d dead sites; %d failures" % (len(DECOY_SPEC), len(failures)))
        return 1 if failures else 0
    programs = []  # (label, constructs, assumptions, known reason)
    if args.sweep:
        spec = ["backend_env", "backend_env_import", "backend_env_other", "plugin_installed",
                "never_called", "dict_key_never_read", "flag_false", "overwritten",
                "platform_is_cuda", "platform_is_rocm", "platform_is_cpu",
                "platform_is_cuda_alike"]
        for platform in sorted(set(PLATFORMS)):
            for env in sorted(set(ENV_VALUES), key=lambda v: v or ""):
                for declare_env in ([True] if env else [False, True]):
                    for declare_plugins in (False, True):
                        assume = {"VLLM_ATTENTION_BACKEND": env, "declare_env": declare_env,
                                  "declare_plugins": declare_plugins, "platform": platform}
                        programs.append(("sweep %s" % json.dumps(assume), spec, assume, None))
    elif args.replay is not None:
        for path in args.replay:
            with open(path) as fh:
                kept = json.load(fh)
            programs.append((os.path.basename(path), kept["constructs"],
                             kept.get("assumptions", {}), kept.get("known")))
    else:
        if args.constructs:
            names = args.constructs.split(",")
            unknown = [n for n in names if n not in CONSTRUCTS]
            if unknown:
                ap.error("no such construct: " + ", ".join(unknown))
        else:
            names = sorted(n for n in CONSTRUCTS if n not in KNOWN)
        for seed in range(1, args.seeds + 1):
            rng = random.Random(seed)
            programs.append(("seed %d" % seed, [rng.choice(names) for _ in range(args.sites)],
                             assumptions_for(seed), None))
    failed = known = 0
    table = {}
    for label, spec, assume, known_reason in programs:
        failures, stats = judge(args.muhpatch, spec, args.keep, assume)
        for construct, ran, verdict in stats:
            table.setdefault(construct, {}).setdefault((ran, verdict), 0)
            table[construct][(ran, verdict)] += 1
        if known_reason and not failures:
            print("NOTE %s is marked known (%s) but passes: drop the mark" % (label, known_reason))
        for construct, path, value, row in failures:
            if known_reason:
                known += 1
                print("KNOWN %s (%s): %s (%s = %d) ran under CPython but muhpatch says dead: %s"
                      % (label, known_reason, construct, path, value, row["reason"]))
                continue
            failed += 1
            # Minimized: the construct alone still fails?
            name = construct.split("[")[0]
            alone, _ = judge(args.muhpatch, [name], None, assume)
            seed = {"constructs": [name] if alone else spec, "assumptions": assume}
            print("FAIL %s: %s (%s = %d) ran under CPython but muhpatch says dead: %s" % (
                label, construct, path, value, row["reason"]))
            print("  seed: " + json.dumps(seed))
    print("%d programs, %d sites, %d constructs; %d failures%s" % (
        len(programs), sum(len(s) for _, s, _, _ in programs), len(table), failed,
        ", %d known" % known if known else ""))
    for construct in sorted(table):
        cells = ", ".join("%s/%s %d" % ("ran" if ran else "not run", v, n)
                          for (ran, v), n in sorted(table[construct].items()))
        print("  %-40s %s" % (construct, cells))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
