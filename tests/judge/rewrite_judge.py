#!/usr/bin/env python3
"""The CPython judge of muhpatch's rewrites (issue 38 item 4).

A generator writes small enginex-like trees: the stub platform
(judgelib.PLATFORM_STUB), a tracer (vllm/judge_trace.py) and one module per
case (vllm/c<i>.py), each holding `def f(numel, flag)` with one knob shape
muhpatch rewrites, and a rule that targets it with a fixed value:

  value-of  the value of a variable (or of one key of a dict) on the path
            where a condition (`current_platform.has_device_capability(80)`,
            `is_hip()`, a parameter test) is false or true, written as a
            conditional expression, if/else blocks, a value shared by both
            paths (which muhpatch wraps as `X if C else NEW`), a chained or
            tuple assignment, a name bound in a nested helper, a loop, ...;
            `with:` is a number unique to the case.
  tiers     `if numel <= B1: config['BLOCK_SIZE_M'] = v1 elif ...`, the
            bounds literal or computed from module or function-local
            constants, some of them rebound at run time (a try-import, a
            `global` write, a later assignment, a star import);
            `with: "70{{@tier}}"`, so tier t is written 70t.

muhpatch diffs the tree; each rule either rewrites or is refused (a refusal
is no failure: its reason is recorded and must name file:line). The patch
is applied to a copy, and CPython runs every case function before and
after, for every answer of the stub (PLATFORM_ANSWERS) and every argument
the case lists, tracing the knob where the function first reads it
(`tr('k', KNOB)`). A rewrite fails the judge when:
  (a) on the rule's path (value-of: the runs where the condition goes the
      rule's way; tiers: every run that takes a tier), the knob's first read
      is not the new value (for tiers: 70t for the tier t CPython took, and
      the range muhpatch reports for tier t, `model --tree`, holds numel);
  (b) on any other path, a traced read, the return value or the exception
      differs from before;
  (c) an exception appears that was not there before (a wrap naming an
      unbound name raises NameError);
  and also when the patched file does not compile or the patch does not
  apply.

  rewrite_judge.py MUHPATCH [--programs N] [--cases K] [--first S] [--replay FILE...]
                  [--keep DIR] [--shapes NAME,...] [--verbose]

Program s (from --first, default 1) draws K cases with random.Random(s):
deterministic by seed. A failing case is printed as a seed (JSON) for
tests/judge/rewrite_seeds/; --replay runs seed files. A seed holding
"known": REASON is a known failure: reported, never counted (the CTest
gate skips it). Exit 1 on any failure. Standard library only.
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

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from judgelib import PLATFORM_ANSWERS, PLATFORM_STUB, RAISING_ANSWERS, run_muhpatch, run_python, write_files  # noqa: E402

TRACE = """EVENTS = []


def tr(label, value):
    EVENTS.append((label, value))
    return value
"""

# Runs every case function of a tree for every answer and argument; prints
# JSON: one record per run.
RUNNER = r"""import importlib, json, sys
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[3])
cases = json.loads(sys.argv[2])
sys.setrecursionlimit(200)
from judgelib import set_platform
import vllm.platforms as platforms
import vllm.judge_trace as trace
out = []
for case in cases:
    for env in case["envs"]:
        set_platform(platforms, env)
        for name in [m for m in sys.modules if m.startswith("vllm.c") or m.startswith("vllm.judge_c")]:
            del sys.modules[name]
            # and the package's attribute: `from vllm import c1` would find the stale module
            if "." not in name[5:] and hasattr(sys.modules["vllm"], name[5:]):
                delattr(sys.modules["vllm"], name[5:])
        del trace.EVENTS[:]
        rec = {"case": case["module"], "env": env}
        try:
            mod = importlib.import_module("vllm." + case["module"])
            fn = getattr(mod, case["function"])
            ret = fn(env["numel"], env["flag"])
            rec["ret"] = repr(ret)
            rec["exc"] = None
        except Exception as e:  # the judge compares them
            rec["ret"] = None
            rec["exc"] = "%s: %s" % (type(e).__name__, e)
        rec["events"] = [[l, repr(v)] for l, v in trace.EVENTS]
        out.append(rec)
print(json.dumps(out))
"""

COND = {
    # name: (text, value on a run, the import it needs)
    "cap": ("current_platform.has_device_capability(80)", lambda e: (e["cap"] or 0) >= 80,
            "from vllm.platforms import current_platform"),
    "hip": ("is_hip()", lambda e: e["hip"], "from vllm.platforms import is_hip"),
    "flag": ("flag", lambda e: e["flag"], ""),
    "small": ("numel <= 64", lambda e: e["numel"] <= 64, ""),
    # A local the function computes first (`ok = current_platform...`).
    "local": ("ok", lambda e: (e["cap"] or 0) >= 80, "from vllm.platforms import current_platform"),
}


class Case:
    """One module and its rule."""

    def __init__(self, shape, kind):
        self.shape = shape
        self.kind = kind  # "value-of" or "tiers"
        self.head = []  # module lines before the function
        self.tail = []  # module lines after it
        self.body = ""  # the function's body
        self.value_of_in = "f"  # value-of's in:
        self.knob = "BLOCK"
        self.key = None
        self.cond = None  # COND name
        self.when_true = False
        self.negated = False  # the rule says `not C` the other way
        self.new = None  # the value the rule writes (value-of)
        self.numels = [1, 64, 65, 5000]
        self.files = {}  # other files of the tree
        # The condition's value at the function's test, where the function
        # rebinds a name it reads first (rebind_cond_*); else COND's.
        self.test_value = None
        self.cond_text = None  # the rule's condition, where it is no COND's (state_*)

    def module_text(self):
        lines = list(self.head)
        body = "\n".join("    " + ln if ln else "" for ln in self.body.rstrip("\n").split("\n"))
        text = "\n".join(lines) + "\n\n\ndef f(numel, flag):\n" + body + "\n"
        if self.tail:
            text += "\n\n" + "\n".join(self.tail) + "\n"
        return text

    def on_rule_path(self, env):
        if self.kind == "tiers":
            return True
        return (self.test_value or COND[self.cond][1])(env) == self.when_true

    def rule(self, rid, path):
        if self.kind == "tiers":
            return ("  - id: %s\n    files: %s\n    pattern: config['BLOCK_SIZE_M'] = $value\n"
                    "    tiers:\n      variable: numel\n    expect: 1..8\n    replace: value\n"
                    "    with: \"70{{@tier}}\"\n" % (rid, path))
        key = "      key: %s\n" % self.key if self.key else ""
        when = "when-true" if self.when_true else "when-false"
        text = self.cond_text or COND[self.cond][0]
        if self.negated:  # the same path, said of `not C`
            when = "when-false" if self.when_true else "when-true"
            text = "not " + text if text.endswith(")") or " " not in text else "not (%s)" % text
        return ("  - id: %s\n    files: %s\n    value-of:\n      name: %s\n%s      in: %s\n"
                "      %s: %s\n    with: \"%s\"\n" % (
                    rid, path, self.knob, key, self.value_of_in, when, json.dumps(text), self.new))


# --------------------------------------------------------------------------
# value-of shapes. Each body has {N} (the knob), {C} (the condition), values
# {a} {b} {c} {d} unique to the case; `tr('k', {N})` is the function's first
# read of the knob. The rule's branch of a condition is not assumed: the
# rule says when-false or when-true at random.

VALUE_OF = {
    "cond_expr": "{N} = {a} if {C} else {b}\ntr('k', {N})\nreturn {N}",
    "if_else": "if {C}:\n    {N} = {a}\nelse:\n    {N} = {b}\ntr('k', {N})\nreturn {N}",
    "if_not": "if not {C}:\n    {N} = {b}\nelse:\n    {N} = {a}\ntr('k', {N})\nreturn {N}",
    "if_no_else": "{N} = {a}\nif {C}:\n    {N} = {b}\ntr('k', {N})\nreturn {N}",
    "shared": "{N} = {a}\nx = {c} if {C} else {d}\ntr('k', {N})\nreturn {N}, x",
    "shared_after_test": "x = {c} if {C} else {d}\n{N} = {a}\ntr('k', {N})\nreturn {N}, x",
    "shared_test_later": "{N} = {a}\ntr('k', {N})\nif {C}:\n    x = {c}\nelse:\n    x = {d}\nreturn x",
    "elif": "if numel > 4000:\n    {N} = {a}\nelif {C}:\n    {N} = {b}\nelse:\n    {N} = {c}\n"
            "tr('k', {N})\nreturn {N}",
    "nested_if": "if numel > 4000:\n    if {C}:\n        {N} = {a}\n    else:\n        {N} = {b}\n"
                 "else:\n    {N} = {c}\ntr('k', {N})\nreturn {N}",
    "other_cond": "if numel > 4000:\n    {N} = {a}\nelse:\n    {N} = {b}\nx = {c} if {C} else {d}\n"
                  "tr('k', {N})\nreturn {N}, x",
    "chained": "{N} = W = {a}\nx = {c} if {C} else {d}\ntr('k', {N})\ntr('w', W)\nreturn {N}, W, x",
    "chained_in_branch": "if {C}:\n    {N} = {a}\nelse:\n    {N} = W = {b}\n    tr('w', W)\n"
                         "tr('k', {N})\nreturn {N}",
    "tuple": "{N}, W = {a}, {b}\nx = {c} if {C} else {d}\ntr('k', {N})\ntr('w', W)\nreturn {N}, W, x",
    "tuple_other": "W, V = {a}, {b}\n{N} = {c} if {C} else {d}\ntr('k', {N})\ntr('w', (W, V))\n"
                   "return {N}, W, V",
    # `V += 1` reads V: where it is the first read, the value there is the
    # knob's (`V = tr('k', V) * 2` traces it).
    "augmented": "{N} = {a}\nx = {c} if {C} else {d}\ntr('k', {N})\n{N} += 1\ntr('x', {N})\n"
                 "return {N}, x",
    "augmented_first": "{N} = {a}\nx = {c} if {C} else {d}\n{N} += 1\ntr('x', {N})\nreturn {N}, x",
    "augmented_branch": "{N} = {a} if {C} else {b}\n{N} = tr('k', {N}) * 2\ntr('x', {N})\nreturn {N}",
    "walrus": "{N} = {a}\nif ({N} := {b}) > 0 and flag:\n    pass\nx = {c} if {C} else {d}\n"
              "tr('k', {N})\nreturn {N}, x",
    "for_target": "{N} = {a}\nfor {N} in ({b},):\n    pass\nx = {c} if {C} else {d}\ntr('k', {N})\n"
                  "return {N}, x",
    "for_body": "{N} = {a}\nfor _ in range(numel % 2):\n    {N} = {b}\nx = {c} if {C} else {d}\n"
                "tr('k', {N})\nreturn {N}, x",
    "while_break": "{N} = {a}\nwhile flag:\n    {N} = {b}\n    break\nx = {c} if {C} else {d}\n"
                   "tr('k', {N})\nreturn {N}, x",
    "with_target": "{N} = {a}\nwith contextlib.nullcontext({b}) as {N}:\n    pass\n"
                   "x = {c} if {C} else {d}\ntr('k', {N})\nreturn {N}, x",
    "try_except": "try:\n    {N} = {a}\n    if flag:\n        {N} = int('x')\nexcept ValueError:\n"
                  "    {N} = {b}\nx = {c} if {C} else {d}\ntr('k', {N})\nreturn {N}, x",
    # The test inside a `try` (or a suppressing `with`), the shared value
    # after it: where the query raises and is caught, a wrap would raise.
    "test_in_try": "try:\n    x = {c} if {C} else {d}\nexcept RuntimeError:\n    x = {d}\n{N} = {a}\n"
                   "tr('k', {N})\nreturn {N}, x",
    "value_in_handler": "try:\n    x = {c} if {C} else {d}\nexcept RuntimeError:\n    {N} = {a}\n"
                        "    x = {d}\nelse:\n    {N} = {a}\ntr('k', {N})\nreturn {N}, x",
    "test_in_suppress": "{N} = {a}\nx = {d}\nwith contextlib.suppress(RuntimeError):\n"
                        "    x = {c} if {C} else {d}\ntr('k', {N})\nreturn {N}, x",
    # Code between the test and the value changes what the condition's
    # platform name denotes: a store through it, or globals() rebinding it.
    "platform_store": "x = {c} if {C} else {d}\n_pin()\n{N} = {a}\ntr('k', {N})\nreturn {N}, x",
    "platform_globals": "x = {c} if {C} else {d}\n_swap()\n{N} = {a}\ntr('k', {N})\nreturn {N}, x",
    "try_in_branch": "if {C}:\n    {N} = {a}\nelse:\n    try:\n        {N} = {b}\n    finally:\n"
                     "        pass\ntr('k', {N})\nreturn {N}",
    "match": "{N} = {a}\nmatch flag:\n    case True:\n        {N} = {b}\nx = {c} if {C} else {d}\n"
             "tr('k', {N})\nreturn {N}, x",
    "del_rebind": "{N} = {a}\nif flag:\n    del {N}\n    {N} = {b}\nx = {c} if {C} else {d}\n"
                  "tr('k', {N})\nreturn {N}, x",
    "import_as": "{N} = {a}\nif flag:\n    from vllm.judge_consts import VAL as {N}\n"
                 "x = {c} if {C} else {d}\ntr('k', {N})\nreturn {N}, x",
    "nonlocal_helper": "{N} = {a}\ndef _set():\n    nonlocal {N}\n    {N} = {b}\nif flag:\n    _set()\n"
                       "x = {c} if {C} else {d}\ntr('k', {N})\nreturn {N}, x",
    "global_knob": "global {N}\n{N} = {a}\nx = {c} if {C} else {d}\ntr('k', {N})\nreturn {N}, x",
    "global_knob_helper": "{N} = {a} if {C} else {b}\n_bump()\ntr('k', {N})\nreturn {N}",
    "exec_rebind": "{N} = {a}\nx = {c} if {C} else {d}\nif flag:\n    {N} = eval('{b}')\n"
                   "tr('k', {N})\nreturn {N}, x",
    "loop_read": "{N} = {a}\nfor _ in range(2):\n    tr('k', {N})\n    {N} = {b} if {C} else {c}\n"
                 "return {N}",
    "read_in_branch": "{N} = {a} if {C} else {b}\nif flag:\n    return tr('k', {N})\n{N} = {c}\n"
                      "return tr('x', {N})",
    "early_return": "{N} = {a}\nif numel > 4000:\n    return tr('k', {N})\nif {C}:\n    {N} = {b}\n"
                    "return tr('x', {N})",
    "nested_def_value": "def _h():\n    {N} = {a} if {C} else {b}\n    return {N}\n{N} = _h()\n"
                        "tr('k', {N})\nreturn {N}",
    "name_value": "{N} = _DEFAULT\nx = {c} if {C} else {d}\ntr('k', {N})\nreturn {N}, x",
    "lambda_value": "{N} = (lambda: {a})()\nx = {c} if {C} else {d}\ntr('k', {N})\nreturn {N}, x",
    "computed_other": "{N} = {a} if flag else {b}\nx = {c} if {C} else {d}\ntr('k', {N})\nreturn {N}, x",
    # A conditional expression on `C and X` (or `X or C`): the path where C
    # goes one way still takes either value, as X says.
    "cond_and": "{N} = {a} if {C} and flag else {b}\ntr('k', {N})\nreturn {N}",
    "cond_or": "{N} = {a} if flag or {C} else {b}\ntr('k', {N})\nreturn {N}",
    "cond_nested_and": "{N} = {a} if not ({C} and flag) else {b}\ntr('k', {N})\nreturn {N}",
    "parenthesized": "{N} = ({a}) if ({C}) else ({b})\ntr('k', {N})\nreturn {N}",
    "rebind_cond_between": "{N} = {a}\n{R}\nx = {c} if {C} else {d}\ntr('k', {N})\nreturn {N}, x",
    "rebind_cond_after_test": "x = {c} if {C} else {d}\n{R}\n{N} = {a}\ntr('k', {N})\n"
                              "return {N}, x",
    "cond_in_helper_only": "def _t():\n    {IMPORT}\n    return {C}\n{N} = {a}\nx = {c} if _t() else {d}\n"
                           "tr('k', {N})\nreturn {N}, x",
    # The condition reads state that a call between the value and the test
    # changes: an attribute (S.ok) or a global (G) the module resets on import.
    "state_attr_by_call": "S.ok = not flag\n{N} = {a}\n_flip(flag)\nx = {c} if S.ok else {d}\n"
                          "tr('k', {N})\nreturn {N}, x",
    # The condition answers otherwise on a second call (True, then False):
    # a wrap that evaluates it again sees another answer than the test.
    "cond_side_effect": "{N} = {a}\nx = {c} if _next() else {d}\ntr('k', {N})\nreturn {N}, x",
    "state_global_by_call": "{N} = {a}\n_set_g(flag)\nx = {c} if G else {d}\ntr('k', {N})\n"
                            "return {N}, x",
    "cond_in_comprehension": "{N} = {a}\nx = [{c} if {C} else {d} for _ in range(1)][0]\n"
                             "tr('k', {N})\nreturn {N}, x",
    # Patterns that bind the knob's name again after its value.
    "nested_tuple_rebind": "{N} = {a}\nif flag:\n    (W, {N}), V = (1, {b}), 2\nx = {c} if {C} else {d}\n"
                           "tr('k', {N})\nreturn {N}, x",
    "star_rebind": "{N} = {a}\nif flag:\n    *_rest, {N} = [1, {b}]\nx = {c} if {C} else {d}\n"
                   "tr('k', {N})\nreturn {N}, x",
    "list_rebind": "{N} = {a}\nif flag:\n    [{N}] = [{b}]\nx = {c} if {C} else {d}\ntr('k', {N})\n"
                   "return {N}, x",
    "match_capture": "{N} = {a}\nmatch flag:\n    case True:\n        pass\n    case {N}:\n        pass\n"
                     "x = {c} if {C} else {d}\ntr('k', {N})\nreturn {N}, x",
    "match_misread": "{N} = {a}\nmatch [flag]:\n    case [{N}]:\n        pass\n"
                     "x = {c} if {C} else {d}\ntr('k', {N})\nreturn {N}, x",
    "if_and": "if {C} and flag:\n    {N} = {a}\nelse:\n    {N} = {b}\ntr('k', {N})\nreturn {N}",
    "if_or": "if {C} or flag:\n    {N} = {a}\nelse:\n    {N} = {b}\ntr('k', {N})\nreturn {N}",
    "nested_ternary": "{N} = {a} if {C} else ({b} if flag else {c})\ntr('k', {N})\nreturn {N}",
    "while_true": "while True:\n    {N} = {a} if {C} else {b}\n    if flag:\n        {N} = {c}\n"
                  "    break\ntr('k', {N})\nreturn {N}",
    "for_else": "{N} = {a}\nfor _ in range(numel % 2):\n    break\nelse:\n    {N} = {b}\n"
                "x = {c} if {C} else {d}\ntr('k', {N})\nreturn {N}, x",
    "lambda_late": "{N} = {a} if {C} else {b}\nget = lambda: {N}\nif flag:\n    {N} = {c}\n"
                   "tr('k', get())\nreturn {N}",
    "closure_late": "{N} = {a} if {C} else {b}\ndef get():\n    return {N}\nif flag:\n    {N} = {c}\n"
                    "tr('k', get())\nreturn {N}",
    "try_finally_return": "{N} = {a}\ntry:\n    if flag:\n        return tr('k', {N})\nfinally:\n"
                          "    {N} = {b}\nx = {c} if {C} else {d}\ntr('x', {N})\nreturn {N}, x",
    "break_mid": "{N} = {a}\nfor _ in range(1 + numel % 2):\n    {N} = {b} if {C} else {c}\n"
                 "    if flag:\n        break\n    {N} = {d}\ntr('k', {N})\nreturn {N}",
    "continue_mid": "{N} = {a}\nfor i in range(2):\n    {N} = {b} if {C} else {c}\n"
                    "    if flag or i == 1:\n        continue\n    {N} = {d}\ntr('k', {N})\nreturn {N}",
    "loop_second_iter_read": "{N} = {a}\nfor i in range(2):\n    if i == 1:\n        tr('k', {N})\n"
                             "    {N} = {b} if {C} else {c}\nreturn {N}",
    "closure_before_reassign": "{N} = {a} if {C} else {b}\ndef get():\n    return {N}\n"
                               "tr('k', get())\n{N} = {c}\nreturn {N}",
    "class_body_read": "{N} = {a} if {C} else {b}\nclass K:\n    v = {N}\ntr('k', K.v)\n{N} = {c}\n"
                       "return {N}",
    "second_def_same_name": "{N} = {a} if {C} else {b}\ntr('k', {N})\nreturn {N}",
    "dict_key_splat_after": "over = {'BLOCK_SIZE_M': {b}} if flag else {}\n"
                            "config = {'BLOCK_SIZE_M': {a}, **over}\nx = {c} if {C} else {d}\n"
                            "tr('k', config['BLOCK_SIZE_M'])\nreturn config, x",
    "dict_key_splat_before": "base = {'BLOCK_SIZE_M': {b}, 'X': 1}\n"
                             "config = {**base, 'BLOCK_SIZE_M': {a}}\nx = {c} if {C} else {d}\n"
                             "tr('k', config['BLOCK_SIZE_M'])\nreturn config, x",
    "dict_key_call": "config = dict(BLOCK_SIZE_M={a})\nx = {c} if {C} else {d}\n"
                     "tr('k', config['BLOCK_SIZE_M'])\nreturn config, x",
    "dict_key_in_branch": "if {C}:\n    config = {'BLOCK_SIZE_M': {a}}\nelse:\n"
                          "    config = {'BLOCK_SIZE_M': {b}}\n    if flag:\n"
                          "        config['BLOCK_SIZE_M'] = {c}\ntr('k', config['BLOCK_SIZE_M'])\n"
                          "return config",
    # Values of lower precedence than a conditional expression: a wrap
    # must parenthesise them.
    "tuple_value_shared": "{N} = {a}, {b}\nx = {c} if {C} else {d}\ntr('k', {N})\nreturn {N}, x",
    "lambda_value_shared": "{N} = lambda: {a}\nx = {c} if {C} else {d}\n"
                           "{N} = tr('k', {N} if isinstance({N}, int) else {N}())\nreturn {N}, x",
    "walrus_value_shared": "{N} = (y := {a})\nx = {c} if {C} else {d}\ntr('k', {N})\ntr('w', y)\n"
                           "return {N}, x",
    # Bindings of the function's own name that its flow walk does not
    # model: a `:=` in a nested def's default, a decorator, a lambda's
    # default or a subscript target. Each runs where it stands, in the
    # function's scope. And `except*`, a handler as `except` is.
    "walrus_def_default": "{N} = {a}\ndef g(y=({N} := {b})):\n    return y\n"
                          "x = {c} if {C} else {d}\ntr('k', {N})\nreturn {N}, x",
    "walrus_decorator": "{N} = {a}\n@(({N} := {b}) and (lambda fn: fn))\ndef g():\n    pass\n"
                        "x = {c} if {C} else {d}\ntr('k', {N})\nreturn {N}, x",
    "walrus_lambda_default": "{N} = {a}\nh = lambda y=({N} := {b}): y\n"
                             "x = {c} if {C} else {d}\ntr('k', {N})\nreturn {N}, x",
    "walrus_subscript_target": "{N} = {a}\nbox = [0]\nbox[({N} := {b}) * 0] = 1\n"
                               "x = {c} if {C} else {d}\ntr('k', {N})\nreturn {N}, x",
    "except_star": "{N} = {a}\ntry:\n    if flag:\n        raise ExceptionGroup('g', [ValueError({b})])\n"
                   "except* ValueError:\n    {N} = {b}\nx = {c} if {C} else {d}\n"
                   "tr('k', {N})\nreturn {N}, x",
    "except_star_as": "{N} = {a}\ntry:\n    if flag:\n        raise ExceptionGroup('g', [ValueError({b})])\n"
                      "except* ValueError as {N}:\n    pass\nx = {c} if {C} else {d}\n"
                      "tr('k', {N})\nreturn {N}, x",
    "cond_value_other_path": "{N} = {a} if {C} else {b}\nif flag:\n    {N} = {c}\ntr('k', {N})\n"
                             "return {N}",
    "early_return_cond": "if {C}:\n    return tr('x', 0)\n{N} = {a}\ntr('k', {N})\nreturn {N}",
    "raise_cond": "if not {C}:\n    {N} = {a}\nelse:\n    {N} = {b}\n    if flag:\n"
                  "        raise ValueError('x')\ntr('k', {N})\nreturn {N}",
    "annotated": "{N}: int = {a}\nx = {c} if {C} else {d}\n{N}: int\ntr('k', {N})\nreturn {N}, x",
    "assert_read": "{N} = {a} if {C} else {b}\nassert {N} > 0\ntr('k', {N})\nreturn {N}",
    # A ladder of capabilities: SM90 implies SM80.
    "cap_ladder": "if current_platform.has_device_capability(90):\n    {N} = {a}\n"
                  "elif current_platform.has_device_capability(80):\n    {N} = {b}\nelse:\n"
                  "    {N} = {c}\ntr('k', {N})\nreturn {N}",
    "cap_ladder_not": "if not current_platform.has_device_capability(80):\n    {N} = {c}\n"
                      "elif current_platform.has_device_capability(90):\n    {N} = {a}\nelse:\n"
                      "    {N} = {b}\ntr('k', {N})\nreturn {N}",
    "dict_key_whole": "config = {'BLOCK_SIZE_M': {a}, 'X': 1}\nif not {C}:\n"
                      "    config = {'BLOCK_SIZE_M': {b}, 'X': 2}\ntr('k', config['BLOCK_SIZE_M'])\n"
                      "return config",
    "dict_key_set": "config = {'BLOCK_SIZE_M': {a}, 'X': 1}\nif {C}:\n"
                    "    config['BLOCK_SIZE_M'] = {b}\ntr('k', config['BLOCK_SIZE_M'])\nreturn config",
    "dict_key_shared": "config = {'BLOCK_SIZE_M': {a}, 'X': 1}\nx = {c} if {C} else {d}\n"
                       "tr('k', config['BLOCK_SIZE_M'])\nreturn config, x",
    # A call or an alias that changes the dict after its first read changes
    # no value the rule names (the first read is the knob).
    "dict_key_update": "config = {'BLOCK_SIZE_M': {a}, 'X': 1}\nx = {c} if {C} else {d}\n"
                       "tr('k', config['BLOCK_SIZE_M'])\nif flag:\n"
                       "    config.update(BLOCK_SIZE_M={b})\ntr('x', config['BLOCK_SIZE_M'])\n"
                       "return config, x",
    "dict_key_alias": "config = {'BLOCK_SIZE_M': {a}, 'X': 1}\nx = {c} if {C} else {d}\n"
                      "tr('k', config['BLOCK_SIZE_M'])\nalias = config\nif flag:\n"
                      "    alias['BLOCK_SIZE_M'] = {b}\ntr('x', config['BLOCK_SIZE_M'])\n"
                      "return config, x",
    "dict_key_dup": "config = {'BLOCK_SIZE_M': {a}, 'BLOCK_SIZE_M': {b}}\nx = {c} if {C} else {d}\n"
                    "tr('k', config['BLOCK_SIZE_M'])\nreturn config, x",
    # The value reaches the traced call (the kernel) through a clamp, a
    # branch or a cast: a rewrite the clamp undoes must be refused, one a
    # cast passes through holds.
    "clamp_min": "{N} = {a} if {C} else {b}\ntr('k', min({N}, 64))\nreturn {N}",
    "clamp_alias": "{N} = {a}\nx = {c} if {C} else {d}\nv = {N}\nv = max(v, 8192)\ntr('k', v)\n"
                   "return {N}, x",
    "clamp_branch": "{N} = {a} if {C} else {b}\ntr('k', {N} if flag else 16)\nreturn {N}",
    # (Their key is one no other shape writes: a read of a key anywhere
    # counts for every dict that holds it.)
    "clamp_dict_key": "config = {'BLOCK_SIZE_K': {a}, 'X': 1}\nx = {c} if {C} else {d}\n"
                      "tr('k', min(config['BLOCK_SIZE_K'], 64))\nreturn config, x",
    "clamp_dict_get": "config = {'BLOCK_SIZE_K': {a}, 'X': 1}\nx = {c} if {C} else {d}\n"
                      "m = config.get('BLOCK_SIZE_K', 1)\ntr('k', m or 16)\nreturn config, x",
    "passed_int": "{N} = {a} if {C} else {b}\ntr('k', int({N}))\nreturn {N}",
    "passed_dict_int": "config = {'BLOCK_SIZE_M': {a}, 'X': 1}\nx = {c} if {C} else {d}\n"
                       "tr('k', int(config['BLOCK_SIZE_M']))\nreturn config, x",
}

# Rebindings of the condition's names (rebind_cond_*), by condition.
REBIND = {
    "cap": "current_platform = _Other()",
    "hip": "is_hip = lambda: not _real_is_hip()",
    "flag": "flag = not flag",
    "small": "numel = numel * 100",
    "local": "ok = not ok",
}

OTHER_PLATFORM = ["class _Other:", "    def has_device_capability(self, c):",
                  "        return not _real.has_device_capability(c)", "",
                  "", "from vllm.platforms import current_platform as _real",
                  "from vllm.platforms import is_hip as _real_is_hip"]


def value_of_case(shape, rng, i):
    c = Case(shape, "value-of")
    c.knob = rng.choice(["BLOCK", "NUM_WARPS"])
    c.cond = rng.choice(sorted(COND))
    if shape in ("computed_other", "tuple_other", "if_and", "if_or", "nested_ternary", "while_true",
                 "lambda_late", "closure_late", "try_finally_return", "dict_key_splat_after",
                 "dict_key_in_branch", "break_mid", "continue_mid", "raise_cond") and c.cond == "flag":
        c.cond = "cap"
    if shape in ("elif", "nested_if", "other_cond", "early_return") and c.cond == "small":
        c.cond = "hip"
    if shape.startswith("cap_ladder"):
        c.cond = "cap"
    if shape.startswith("state_") or shape == "cond_side_effect":
        c.cond = "flag"  # the body tests its own state, not a COND
    if shape in ("platform_store", "platform_globals") and c.cond not in ("cap", "local"):
        c.cond = "cap"  # the helpers change current_platform
    if shape == "cond_in_helper_only" and c.cond in ("flag", "small", "local"):
        c.cond = "cap"  # the helper takes no parameters
    if shape == "rebind_cond_after_test" and c.cond in ("cap", "hip", "local"):
        c.cond = "flag"  # a local rebound after the test would make the test raise
    if shape.startswith("rebind_cond"):
        c.test_value = {"cap": lambda e: not (e["cap"] or 0) >= 80, "hip": lambda e: not e["hip"],
                        "local": lambda e: not (e["cap"] or 0) >= 80,
                        "flag": lambda e: not e["flag"],
                        "small": lambda e: e["numel"] * 100 <= 64}[c.cond]
        if shape == "rebind_cond_after_test":  # the test comes before the rebinding
            c.test_value = None
    c.when_true = rng.random() < 0.5
    base = 100 * i
    vals = {"a": base + 1, "b": base + 2, "c": base + 3, "d": base + 4}
    c.new = 7000 + i
    text, _, imp = COND[c.cond]
    body = VALUE_OF[shape]
    body = body.replace("{R}", REBIND[c.cond]).replace("{IMPORT}", imp or "pass")
    if "dict_" in shape:
        c.knob, c.key = "config", "BLOCK_SIZE_K" if shape.startswith("clamp_") else "BLOCK_SIZE_M"
    body = body.replace("{N}", c.knob).replace("{C}", text)
    for k, v in vals.items():
        body = body.replace("{%s}" % k, str(v))
    if c.cond == "local":
        # Computed first, or (at random) only after the knob's value: a
        # wrap at the value would then read it unbound.
        if shape.startswith("shared") and rng.random() < 0.4:
            first, rest = body.split("\n", 1)
            body = first + "\nok = current_platform.has_device_capability(80)\n" + rest
        else:
            body = "ok = current_platform.has_device_capability(80)\n" + body
    c.body = body
    c.head = ["import contextlib", "from vllm.judge_trace import tr"]
    if imp and shape != "cond_in_helper_only":
        if rng.random() < 0.3:  # try-imported, as forks guard optional modules
            name = imp.split()[-1]
            c.head += ["try:", "    " + imp, "except ImportError:", "    %s = None" % name]
        else:
            c.head.append(imp)
    if shape == "cond_in_helper_only" and rng.random() < 0.5 and imp:
        c.head.append(imp)  # the module binds it too: the wrap is safe
    if shape.startswith("rebind_cond"):
        c.head += OTHER_PLATFORM
    if shape == "nested_def_value":
        c.value_of_in = rng.choice(["f", "_h"])
    if shape == "name_value":
        c.head.append("_DEFAULT = %d" % vals["a"])
    if shape == "platform_store":
        c.head += ["", "", "def _pin():", "    current_platform.cap = 70"]
    if shape == "platform_globals":
        c.head += ["", "", "class _Old:", "    def has_device_capability(self, capability):",
                   "        return False", "", "", "def _swap():",
                   "    globals()['current_platform'] = _Old()"]
    if shape in ("global_knob", "global_knob_helper"):
        c.head.append("%s = %d" % (c.knob, vals["c"]))
    if shape == "global_knob_helper":
        c.head.append("")
        c.head += ["", "def _bump():", "    global %s" % c.knob, "    %s = %d" % (c.knob, vals["d"])]
        c.body = "global %s\n" % c.knob + c.body
    if shape == "second_def_same_name":
        # Another `def f` (a method) with its own knob: value-of's `in: f`
        # names every def of that name.
        c.tail += ["class _K:", "    def f(self, numel, flag):",
                   "        %s = %d" % (c.knob, vals["d"]), "        x = 1 if %s else 2" % text,
                   "        return %s, x" % c.knob]
    if shape == "import_as":
        c.files["vllm/judge_consts.py"] = "VAL = %d\n" % vals["b"]
    if shape == "state_attr_by_call":
        c.cond_text, c.test_value = "S.ok", lambda e: e["flag"]
        c.head += ["", "", "class _S:", "    ok = False", "", "", "S = _S()", "", "",
                   "def _flip(v):", "    S.ok = v"]
    if shape == "cond_side_effect":
        c.cond_text, c.test_value = "_next()", lambda e: True
        c.head += ["_CALLS = [0]", "", "", "def _next():", "    _CALLS[0] += 1",
                   "    return _CALLS[0] == 1"]
    if shape == "state_global_by_call":
        c.cond_text, c.test_value = "G", lambda e: e["flag"]
        c.head += ["G = False", "", "", "def _set_g(v):", "    global G", "    G = v"]
    c.negated = rng.random() < 0.25  # drawn last: the seeds kept before it stay the same programs
    return c


# --------------------------------------------------------------------------
# tiers shapes: the chain's bounds, each an expression and the module or
# function text that gives its names their values.

def tiers_case(shape, rng, i):
    c = Case(shape, "tiers")
    c.head = ["from vllm.judge_trace import tr"]
    pre = []  # function lines before the chain
    b1, b2 = rng.choice([(64, 1024), (16, 256), (32, 4096), (8, 96)])
    e1, e2 = str(b1), str(b2)  # bound expressions
    real = [b1, b2]  # what CPython compares with (the judge checks this itself)
    others = []  # values a misread bound may take
    if shape == "literal":
        pass
    elif shape == "module_const":
        c.head += ["SMALL = %d" % b1]
        e1 = "SMALL"
    elif shape == "module_expr":
        c.head += ["_BLOCKS = %d" % (b2 // 16), "_SCALE = 16"]
        e2 = "_BLOCKS * _SCALE"
    elif shape == "local_const":
        pre += ["_MAX_BLOCKS = %d" % (b2 // 16)]
        e2 = "_MAX_BLOCKS * 16"
    elif shape == "local_shadows_module":
        c.head += ["LIM = %d" % (b2 * 4)]
        pre += ["LIM = %d" % b2]
        e2 = "LIM"
        others = [b2 * 4]
    elif shape == "module_shadowed_in_branch":
        c.head += ["LIM = %d" % b2]
        pre += ["if flag:", "    LIM = %d" % (b2 * 4), "else:", "    LIM = %d" % b2]
        e2 = "LIM"
        others = [b2 * 4]
    elif shape == "try_import":
        c.head += ["SMALL = %d" % b1, "try:", "    from vllm.judge_tuning import SMALL",
                   "except ImportError:", "    pass"]
        c.files["vllm/judge_tuning.py"] = "SMALL = %d\n" % (b1 * 3)
        e1 = "SMALL"
        others = [b1 * 3]
    elif shape == "try_import_missing":
        c.head += ["SMALL = %d" % b1, "try:", "    from vllm.judge_no_such import SMALL",
                   "except ImportError:", "    pass"]
        e1 = "SMALL"
    elif shape == "global_write":
        c.head += ["LIM = %d" % b2, "", "", "def _tune():", "    global LIM",
                   "    LIM = %d" % (b2 * 4), "", "", "_tune()"]
        e2 = "LIM"
        others = [b2 * 4]
    elif shape == "global_write_in_f":
        c.head += ["LIM = %d" % b2]
        pre += ["global LIM", "if flag:", "    LIM = %d" % (b2 * 4)]
        e2 = "LIM"
        others = [b2 * 4]
    elif shape == "later_assignment":
        c.head += ["LIM = %d" % b2]
        c.tail += ["LIM = %d" % (b2 * 4)]
        e2 = "LIM"
        others = [b2 * 4]
    elif shape == "augmented":
        c.head += ["LIM = %d" % b2, "LIM *= 2"]
        e2 = "LIM"
        others = [b2 * 2]
    elif shape == "pattern_rebind":
        # A tuple (or list, or nested) target at the top level binds it again.
        c.head += ["LIM = %d" % b2, "LIM, _other = %d, 1" % (b2 * 4)]
        e2 = "LIM"
        others = [b2 * 4]
    elif shape == "list_pattern_rebind":
        c.head += ["LIM = %d" % b2, "[LIM] = [%d]" % (b2 * 4)]
        e2 = "LIM"
        others = [b2 * 4]
    elif shape == "match_capture":
        c.head += ["LIM = %d" % b2, "match %d:" % (b2 * 4), "    case LIM:", "        pass"]
        e2 = "LIM"
        others = [b2 * 4]
    elif shape == "match_capture_list":
        # tree-sitter-python misreads this match statement as an annotation.
        c.head += ["LIM = %d" % b2, "match [%d]:" % (b2 * 4), "    case [LIM]:", "        pass"]
        e2 = "LIM"
        others = [b2 * 4]
    elif shape == "exec_rebind":
        c.head += ["LIM = %d" % b2, "exec('LIM = %d')" % (b2 * 4)]
        e2 = "LIM"
        others = [b2 * 4]
    elif shape == "star_import":
        c.head += ["SMALL = %d" % b1, "from vllm.judge_tuning import *"]
        c.files["vllm/judge_tuning.py"] = "SMALL = %d\n" % (b1 * 3)
        e1 = "SMALL"
        others = [b1 * 3]
    elif shape == "imported":
        c.head += ["from vllm.judge_tuning import SMALL"]
        c.files["vllm/judge_tuning.py"] = "SMALL = %d\n" % b1
        e1 = "SMALL"
    elif shape == "module_if":
        c.head += ["from vllm.platforms import current_platform", "LIM = %d" % b2,
                   "if current_platform.has_device_capability(80):", "    LIM = %d" % (b2 * 4)]
        e2 = "LIM"
        others = [b2 * 4]
    elif shape == "setattr_self":
        c.head += ["import sys", "LIM = %d" % b2,
                   "setattr(sys.modules[__name__], 'L' + 'IM', %d)" % (b2 * 4)]
        e2 = "LIM"
        others = [b2 * 4]
    elif shape == "other_module_attr":
        # Another module of the tree rebinds it through the module object.
        c.head += ["LIM = %d" % b2]
        c.tail += ["from vllm import judge_c%d_ovr" % i]
        c.files["vllm/judge_c%d_ovr.py" % i] = "import vllm.c%d as _m\n\n_m.LIM = %d\n" % (i, b2 * 4)
        e2 = "LIM"
        others = [b2 * 4]
    elif shape == "other_module_setattr":
        c.head += ["LIM = %d" % b2]
        c.tail += ["from vllm import judge_c%d_ovr" % i]
        c.files["vllm/judge_c%d_ovr.py" % i] = (
            "import sys\n\nsetattr(sys.modules['vllm.c%d'], 'LIM', %d)\n" % (i, b2 * 4))
        e2 = "LIM"
        others = [b2 * 4]
    elif shape == "module_dict_write":
        c.head += ["import sys", "LIM = %d" % b2, "sys.modules[__name__].__dict__['LIM'] = %d" % (b2 * 4)]
        e2 = "LIM"
        others = [b2 * 4]
    elif shape == "arith":
        # Integer arithmetic CPython and the evaluator must agree on.
        k = rng.choice([2, 3, 4])
        e1 = rng.choice(["%d * %d // %d" % (b1, k, k), "(%d + %d) - %d" % (b1, k, k),
                         "-%d + %d" % (k, b1 + k), "%d - -%d" % (b1 - k, k),
                         "%d %% %d + %d" % (b1 + 1, b1, b1 - 1), "2 ** %d" % (b1.bit_length() - 1),
                         "-2 ** 2 + %d" % (b1 + 4), "%d // -%d * -%d" % (b1, k, k), "-1 %% %d + 1" % b1])
        real = [eval(e1), b2]
        if real[0] >= b2 or real[0] <= 0:
            e1, real = str(b1), [b1, b2]
    elif shape == "local_from_param":
        pre += ["LIM = numel // 2 + %d" % b2]
        e2 = "LIM"
    elif shape == "local_after_chain":
        e2 = "LIM2"
        c.head += ["LIM2 = %d" % b2]
    elif shape == "nonlocal_rebound":
        pre += ["LIM = %d" % b2, "def _t():", "    nonlocal LIM", "    LIM = %d" % (b2 * 4),
                "if flag:", "    _t()"]
        e2 = "LIM"
        others = [b2 * 4]
    elif shape == "local_in_branch":
        pre += ["if flag:", "    LIM = %d" % (b2 * 4), "else:", "    LIM = %d" % b2]
        e2 = "LIM"
        others = [b2 * 4]
    elif shape == "main_guard":
        c.head += ["LIM = %d" % b2]
        c.tail += ["if __name__ == '__main__':", "    LIM = %d" % (b2 * 4)]
        e2 = "LIM"
    elif shape == "class_attr":
        c.head += ["class _T:", "    LIM = %d" % b2]
        e2 = "_T.LIM"
    elif shape == "const_chain":
        c.head += ["_A = %d" % (b2 // 2), "_B = _A * 2"]
        e2 = "_B"
    elif shape == "const_rebound_later_in_f":
        c.head += ["LIM = %d" % b2]
        e2 = "LIM"
        c.tail += ["", "def _later():", "    global LIM", "    LIM = %d" % (b2 * 4)]
        others = [b2 * 4]
    elif shape in ("chain_in_branch", "chain_in_loop", "two_chains", "chain_chained_value"):
        pass
    elif shape == "shift_bound":
        e1 = "1 << %d" % (b1.bit_length() - 1)
        real = [eval(e1), b2]
    elif shape == "paren_bound":
        e1 = "(((%d)))" % b1
    elif shape == "float_bound":
        e1 = "%d.5" % b1
        real = [b1 + 0.5, b2]
    elif shape == "cond_bound":
        c.head += ["from vllm.platforms import current_platform"]
        e1 = "%d if current_platform.is_rocm() else %d" % (b1 * 2, b1)
        others = [b1 * 2]
    elif shape == "call_bound":
        e1 = "int('%d')" % b1
    elif shape == "bool_arith_bound":
        e1 = "%d + True" % (b1 - 1)
    elif shape == "lt_chain":
        e1 = None
    elif shape == "no_else":
        pass
    else:
        raise KeyError(shape)
    cmp1 = "<=" if e1 is not None else "<"
    if e1 is None:
        e1 = str(b1)
    lines = list(pre)
    lines.append("config = {'BLOCK_SIZE_M': 5}")
    chain = ["if numel %s %s:" % (cmp1, e1), "    config['BLOCK_SIZE_M'] = 11",
             "elif numel <= %s:" % e2, "    config['BLOCK_SIZE_M'] = 12"]
    if shape != "no_else":
        chain += ["else:", "    config['BLOCK_SIZE_M'] = 13"]
    if shape == "chain_chained_value":
        chain[1] = "    config['BLOCK_SIZE_M'] = W = 11"
        lines.append("W = 0")
    if shape == "chain_in_branch":
        chain = ["if flag:"] + ["    " + ln for ln in chain]
    if shape == "chain_in_loop":
        chain = ["for _ in range(1 + numel % 2):"] + ["    " + ln for ln in chain]
    lines += chain
    if shape == "two_chains":  # a second chain on numel: its own tiers
        lines += ["other = {}", "if numel <= %d:" % (b1 * 2), "    other['BLOCK_SIZE_M'] = 21",
                  "else:", "    other['BLOCK_SIZE_M'] = 22", "tr('o', other['BLOCK_SIZE_M'])"]
    lines += ["tr('k', config['BLOCK_SIZE_M'])"]
    if shape == "chain_chained_value":
        lines += ["tr('w', W)"]
    lines += ["return config"]
    if shape == "local_after_chain":
        lines += ["LIM2 = 1"]
    c.body = "\n".join(lines)
    ns = set([1, 100000])
    for v in real + others + [b1, b2]:
        ns.update([v, v + 1])
    c.numels = sorted(n for n in ns if n > 0)
    return c


TIERS = ["literal", "module_const", "module_expr", "local_const", "local_shadows_module",
         "module_shadowed_in_branch", "try_import", "try_import_missing", "global_write",
         "global_write_in_f", "later_assignment", "augmented", "pattern_rebind",
         "list_pattern_rebind", "match_capture", "match_capture_list", "exec_rebind", "star_import", "imported",
         "module_if", "setattr_self", "other_module_attr", "other_module_setattr", "module_dict_write", "arith", "local_from_param",
         "local_after_chain", "nonlocal_rebound", "lt_chain", "no_else", "local_in_branch",
         "main_guard", "class_attr", "const_chain", "const_rebound_later_in_f", "chain_in_branch",
         "chain_in_loop", "two_chains", "chain_chained_value", "shift_bound", "paren_bound",
         "float_bound", "cond_bound", "call_bound", "bool_arith_bound"]

SHAPES = sorted(["value-of/" + s for s in VALUE_OF] + ["tiers/" + s for s in TIERS])

# Shapes muhpatch gets wrong, {shape: reason}: generated only when named
# (--shapes); their seeds in rewrite_seeds/ say "known" and are reported,
# not counted. None now.
KNOWN = {}


def make_case(shape, seed, i):
    rng = random.Random("%s/%d" % (shape, seed))
    kind, name = shape.split("/")
    return value_of_case(name, rng, i) if kind == "value-of" else tiers_case(name, rng, i)


# --------------------------------------------------------------------------

# The shapes whose code catches or suppresses an error of the test: there
# the code itself says the device query may raise, so a device whose query
# raises (RAISING_ANSWERS) runs too. Elsewhere a wrap rests on the stated
# assumption that the platform API answers, the same each call, and raises
# nothing (muhpatch-rules(5), value-of); a raising device would only show
# that assumption, not a fault.
CATCHES = {"test_in_try", "value_in_handler", "test_in_suppress"}


def envs(case):
    out = []
    raising = RAISING_ANSWERS if case.kind == "value-of" and case.shape in CATCHES else []
    for answer in PLATFORM_ANSWERS + raising:
        for numel in case.numels:
            for flag in (False, True):
                out.append(dict(answer, numel=numel, flag=flag))
    return out


def build(cases, root):
    files = {"vllm/__init__.py": "", "vllm/platforms/__init__.py": PLATFORM_STUB,
             "vllm/judge_trace.py": TRACE}
    rules = "version: 1\nrules:\n"
    for i, c in enumerate(cases, 1):
        path = "vllm/c%d.py" % i
        files[path] = c.module_text()
        files.update(c.files)
        rules += c.rule("r%d" % i, path)
    write_files(root, files)
    with open(os.path.join(os.path.dirname(root), "rules.yaml"), "w") as fh:
        fh.write(rules)


def observe(cases, root, work):
    runner = os.path.join(work, "runner.py")
    with open(runner, "w") as fh:
        fh.write(RUNNER)
    spec = [{"module": "c%d" % i, "function": "f", "envs": envs(c)} for i, c in enumerate(cases, 1)]
    recs = json.loads(run_python(runner, [root, json.dumps(spec), HERE]))
    out = {}
    for r in recs:
        env = r["env"]
        out[(r["case"], env["cap"], env["hip"], env["numel"], env["flag"])] = r
    return out


STATE = re.compile(r"^muhpatch: rule (r\d+): (.*)$")
RANGE = re.compile(r"rule '(r\d+)' at vllm/c\d+\.py:\d+ \[tier (\d+) of \d+: ([^,\]]*)")


def tier_ranges(muhpatch, rules, root):
    """{(rule, tier): (low exclusive or None, high inclusive or None)} from model --tree."""
    proc = run_muhpatch(muhpatch, ["-q", "model", rules, "--tree", root], ok=(0, 6))
    out = {}
    for m in RANGE.finditer(proc.stdout):
        text = m.group(3)
        lo = hi = None
        mm = re.search(r"(-?\d+) < \w+", text)
        if mm:
            lo = int(mm.group(1))
        mm = re.search(r"\w+ <= (-?\d+)", text)
        if mm:
            hi = int(mm.group(1))
        mm = re.search(r"\w+ > (-?\d+)", text)
        if mm:
            lo = int(mm.group(1))
        out[(m.group(1), int(m.group(2)))] = (lo, hi)
    return out


def judge(muhpatch, cases, keep=None):
    """(failures, per-case results) of one program. A result:
    (shape, state, detail) with state rewrites/refused/other."""
    work = tempfile.mkdtemp(prefix="rjudge-")
    root = os.path.join(work, "tree")
    try:
        build(cases, root)
        rules = os.path.join(work, "rules.yaml")
        before = observe(cases, root, work)
        proc = run_muhpatch(muhpatch, ["-q", "diff", "--include-dead", rules, root], ok=(0, 6))
        states, reasons = {}, {}
        for line in proc.stdout.splitlines():
            m = STATE.match(line)
            if m:
                states[m.group(1)] = m.group(2)
        for line in proc.stderr.splitlines():
            m = re.match(r"^(\S+?):(\d+):(\d+): error: rule '(r\d+)':? (.*)$", line)
            if m:
                reasons.setdefault(m.group(4), "%s:%s: %s" % (m.group(1), m.group(2), m.group(5)))
        failures, results = [], []
        patched = os.path.join(work, "after")
        shutil.copytree(root, patched)
        diff = "\n".join(ln for ln in proc.stdout.splitlines() if not ln.startswith("muhpatch: "))
        if diff.strip():
            p = subprocess.run(["patch", "-p1", "--quiet", "--no-backup-if-mismatch"], input=diff + "\n",
                               cwd=patched, capture_output=True, text=True)
            if p.returncode != 0:
                return [(0, "the patch does not apply: " + p.stdout + p.stderr)], []
        ranges = tier_ranges(muhpatch, rules, root) if any(c.kind == "tiers" for c in cases) else {}
        for i, c in enumerate(cases, 1):
            path = os.path.join(patched, "vllm/c%d.py" % i)
            try:
                compile(open(path).read(), path, "exec")
            except SyntaxError as e:
                failures.append((i, "the patched file does not compile: %s" % e))
        if failures:
            return failures, []
        after = observe(cases, patched, work)
        for i, c in enumerate(cases, 1):
            rid = "r%d" % i
            # With no rule rewriting, diff prints no state lines: an error
            # at the rule is its refusal.
            state = states.get(rid) or ("failed" if rid in reasons else "absent")
            if state.startswith("failed"):
                reason = reasons.get(rid, "")
                results.append((c.kind + "/" + c.shape, "refused", reason))
                if not re.match(r"^\S+\.py:\d+: ", reason):
                    failures.append((i, "refused without naming file:line: %r" % state))
                continue
            if not state.startswith("rewrites"):
                results.append((c.kind + "/" + c.shape, "other", state))
                continue
            checked = 0
            for env in envs(c):
                key = ("c%d" % i, env["cap"], env["hip"], env["numel"], env["flag"])
                b, a = before[key], after[key]
                why = check(c, rid, env, b, a, ranges)
                if why:
                    failures.append((i, "%s on %s: %s" % (why, env, describe(b, a))))
                    break
                checked += 1
                # What the run checked: the new value at the knob's first
                # read (on the rule's path), or the run unchanged (off it).
                if c.on_rule_path(env) and first(a, "k") is not None:
                    RUNS["new value"] += 1
                elif not c.on_rule_path(env):
                    RUNS["unchanged"] += 1
            results.append((c.kind + "/" + c.shape, "rewrites", "%d runs" % checked))
        return failures, results
    finally:
        if keep:
            shutil.copytree(work, keep, dirs_exist_ok=True)
        shutil.rmtree(work)


RUNS = {"new value": 0, "unchanged": 0}  # CPython runs compared, by what they checked


def describe(b, a):
    return "before %s, after %s" % (json.dumps({k: b[k] for k in ("events", "ret", "exc")}),
                                   json.dumps({k: a[k] for k in ("events", "ret", "exc")}))


def first(rec, label):
    for lab, v in rec["events"]:
        if lab == label:
            return v
    return None


# Traced reads of names that are never the knob (`tr('w', W)` of a name
# chained with it, `tr('o', ...)` of another chain): equal on every path.
UNTOUCHED = ("w", "o")


def check(c, rid, env, b, a, ranges):
    """Why the run breaks the rewrite's contract, or None."""
    if a["exc"] and a["exc"] != b["exc"]:
        return "(c) an exception that was not there before"
    if [e for e in a["events"] if e[0] in UNTOUCHED] != [e for e in b["events"] if e[0] in UNTOUCHED]:
        return "(b) a traced read of another name than the knob differs"
    if c.kind == "tiers":
        kb, ka = first(b, "k"), first(a, "k")
        if kb is None:
            return None if (a["events"], a["exc"]) == (b["events"], b["exc"]) else \
                "(b) the run reads no tier, yet differs"
        tier = {"11": 1, "12": 2, "13": 3}.get(kb)
        if tier is None:  # no tier taken: nothing may change
            return None if (a["events"], a["ret"], a["exc"]) == (b["events"], b["ret"], b["exc"]) \
                else "(b) a run that takes no tier differs"
        if ka != "70%d" % tier:
            return "(a) tier %d's value is %s, not 70%d" % (tier, ka, tier)
        lo, hi = ranges.get((rid, tier), (None, None))
        n = env["numel"]
        if (rid, tier) not in ranges or (lo is not None and n <= lo) or (hi is not None and n > hi):
            return "(a) numel=%d takes tier %d, whose range muhpatch reads as %s" % (
                n, tier, ranges.get((rid, tier)))
        return None
    if c.on_rule_path(env):
        kb, ka = first(b, "k"), first(a, "k")
        if ka is not None and ka != str(c.new):
            return "(a) on the rule's path the knob's first read is %s, not %s" % (ka, c.new)
        if (kb is None) != (ka is None):
            return "(a) on the rule's path the knob is read %s" % ("only after" if kb is None else "only before")
        return None
    if (a["events"], a["ret"], a["exc"]) != (b["events"], b["ret"], b["exc"]):
        return "(b) off the rule's path the run differs"
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("muhpatch")
    ap.add_argument("--programs", type=int, default=40)
    ap.add_argument("--cases", type=int, default=6)
    ap.add_argument("--first", type=int, default=1)
    ap.add_argument("--shapes", help="only these shapes (comma-separated)")
    ap.add_argument("--keep", help="copy the last program and its outputs here")
    ap.add_argument("--replay", nargs="*", help="seed files to run instead of generated programs")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--min-rewrites", type=int, default=1,
                    help="fail when fewer rewrites than this are checked (a muhpatch that "
                         "rewrites nothing must not pass)")
    args = ap.parse_args()
    programs = []  # (label, [(shape, seed)], known)
    if args.replay is not None:
        for path in args.replay:
            with open(path) as fh:
                seed = json.load(fh)
            programs.append((os.path.basename(path), [tuple(x) for x in seed["cases"]],
                             seed.get("known")))
    else:
        names = args.shapes.split(",") if args.shapes else [n for n in SHAPES if n not in KNOWN]
        for s in range(args.first, args.first + args.programs):
            rng = random.Random(s)
            programs.append(("program %d" % s, [(rng.choice(names), s) for _ in range(args.cases)], None))
    failed = known = 0
    table = {}
    for label, spec, known_reason in programs:
        cases = [make_case(shape, seed, i) for i, (shape, seed) in enumerate(spec, 1)]
        failures, results = judge(args.muhpatch, cases, args.keep)
        for shape, state, detail in results:
            table.setdefault(shape, {}).setdefault(state, 0)
            table[shape][state] += 1
            if args.verbose:
                print("  %s %s: %s %s" % (label, shape, state, detail))
        if known_reason and not failures:
            print("NOTE %s is marked known (%s) but passes: drop the mark" % (label, known_reason))
        for i, why in failures:
            one = [spec[i - 1]] if i else spec
            if known_reason:
                known += 1
                print("KNOWN %s (%s): %s" % (label, known_reason, why))
                continue
            failed += 1
            if i and len(spec) > 1:  # minimized: the case alone still fails?
                alone, _ = judge(args.muhpatch, [make_case(one[0][0], one[0][1], 1)])
                if not alone:
                    one = spec
            print("FAIL %s: case %d (%s): %s" % (label, i, spec[i - 1][0] if i else "-", why))
            print("  seed: " + json.dumps({"cases": one}))
    rewrites = sum(t.get("rewrites", 0) for t in table.values())
    refused = sum(t.get("refused", 0) for t in table.values())
    print("%d programs, %d cases (%d shapes): %d rewrites checked, %d refused; %d failures%s" % (
        len(programs), sum(len(s) for _, s, _ in programs), len(table), rewrites, refused, failed,
        ", %d known" % known if known else ""))
    print("CPython runs compared: %d saw the new value at the knob's first read on the rule's path, "
          "%d were unchanged off it" % (RUNS["new value"], RUNS["unchanged"]))
    for shape in sorted(table):
        print("  %-40s %s" % (shape, ", ".join("%s %d" % kv for kv in sorted(table[shape].items()))))
    if rewrites < args.min_rewrites:
        print("FAIL only %d rewrites checked, fewer than --min-rewrites %d: a case that used to "
              "rewrite no longer does" % (rewrites, args.min_rewrites))
        failed += 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
