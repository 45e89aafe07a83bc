#!/usr/bin/env python3
"""Regenerates the seed corpora under tests/fuzz/corpus/ from the rule files,
the rule tests and the fixtures. A developer tool (needs PyYAML); CI only
reads the committed seeds. Run from anywhere: python3 tests/fuzz/make_seeds.py

  fuzz_rule_loader/  rules/bi100.yaml and every fixtures/cases/**/rules.yaml
  fuzz_query/        QUERY NUL PYTHON: each query of rules/bi100.yaml with the
                     snippets tests/rules/bi100.tests.yaml gives its rule, plus
                     a few hand-written predicate cases
  fuzz_edit_diff/    small Python texts: LF, CRLF, mixed, BOM, no final
                     newline, empty, and lines that look like diff syntax
  fuzz_plan/         RULES NUL PYTHON: rules/bi100.yaml alone (the target's
                     built-in sample) and over each knob file of
                     fixtures/enginex-vllm; each golden case's rules (bi100
                     cut to its --rule ids, or its rules.yaml) over its
                     tree's files joined into one; a few hand-written ones

Seeds named regress-* (reproducers of fixed findings, moved here from
tests/fuzz/crashes/) are left alone.
"""
import pathlib

import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests/fuzz/corpus"
MAX_PY = 1500  # bytes of a fixture kept in a seed; the fuzzers like small inputs


def write(target, name, data):
    path = CORPUS / target / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else data.encode())


def cut(data, limit=MAX_PY):
    """The first whole lines of `data` up to `limit` bytes."""
    if len(data) <= limit:
        return data
    end = data.rfind(b"\n", 0, limit)
    return data[: end + 1] if end > 0 else data[:limit]


# Hand-written rule files: fuzz_rule_loader seeds, and fuzz_plan seeds with
# Python of their own.
TABLE_VALUES_YAML = """version: 1
values:
  smem: 48
  flag: true
  entries:
    - {BLOCK_M: 64, BLOCK_N: 32, num_stages: 1, num_warps: 4}
rules:
  - id: a
    files: [a.py, "src/**/*.py"]
    query: '((integer) @v (#any-of? @v "1" "2"))'
    replace: "@v"
    with: "{{smem}} * 1024  # {{@v}} {{flag}}"
    expect: 2
  - id: b
    files: b.py
    query: '(list (call) @last .) @l'
    append-to: l
    entries: entries
  - id: c
    files: c.py
    query: '(expression_statement (assignment left: (identifier) @n) (#match? @n "^use_"))@s'
    delete: s
    done-when: '(module)@m'
    preconditions:
      - name: p
        absent: '((identifier) @x (#eq? @x "raise"))'
        required: false
"""

MODEL_CALLS_YAML = """version: 1
workload: {head_dim: 64, dtype: bfloat16, topk: 2}
search_spaces:
  s:
    kernel: attention
    max_new: 2
    ignore: [w]
    dims: {BLOCK_M: [16, 64], BLOCK_N: [32], w: [0, 1], num_stages: [1, 2], num_warps: [2, 4]}
rules:
  - id: m
    files: f.py
    query: '(comparison_operator (identifier) (integer) @bound) @c'
    replace: bound
    with: "{{moe_block_m_for_numel(@bound)}} + {{partition_size}}"
  - id: n
    files: f.py
    query: '(list) @l'
    append-to: l
    entries: s
"""


def rule_loader():
    write("fuzz_rule_loader", "bi100.yaml", (ROOT / "rules/bi100.yaml").read_bytes())
    for f in sorted((ROOT / "fixtures/cases").glob("**/rules.yaml")):
        name = "-".join(f.relative_to(ROOT / "fixtures/cases").parts[:-1])
        write("fuzz_rule_loader", name + ".yaml", f.read_bytes())
    write("fuzz_rule_loader", "table-values.yaml", TABLE_VALUES_YAML)
    write("fuzz_rule_loader", "model-calls.yaml", MODEL_CALLS_YAML)


def query():
    rules = yaml.safe_load((ROOT / "rules/bi100.yaml").read_text())["rules"]
    tests = yaml.safe_load((ROOT / "tests/rules/bi100.tests.yaml").read_text())["tests"]
    snippets = {}
    for t in tests:
        for kind in ("match", "no-match"):
            for case in t.get(kind) or []:
                snippets.setdefault(t["rule"], []).append(case["code"])
    for r in rules:
        # A rule that names its knob by pattern, value-of or tiers has no
        # query text of its own here.
        queries = [("query", r["query"])] if "query" in r else []
        if "done-when" in r:
            queries.append(("done", r["done-when"]))
        for i, p in enumerate(r.get("preconditions") or []):
            queries.append((f"pre{i}", p.get("present") or p.get("absent")))
        codes = snippets.get(r["id"]) or [""]
        for qname, q in queries:
            for i, code in enumerate(codes[:2] if qname == "query" else codes[:1]):
                write("fuzz_query", f"{r['id']}-{qname}-{i}", q.encode() + b"\0" + code.encode())
    # The query alone: run over the target's built-in sample.
    write("fuzz_query", "sample-partition", next(r["query"] for r in rules if "query" in r))
    hand = {
        "match-any-of": ('((assignment left: (identifier) @n right: (integer) @v)'
                         ' (#match? @n "^[A-Z_]+$") (#any-of? @v "8" "16"))',
                         "BLOCK = 8\nNUM_WARPS = 16\nx = 8\n"),
        "not-eq-captures": ('((comparison_operator (identifier) @a (identifier) @b) (#not-eq? @a @b))',
                            "if a < b:\n    pass\nif c == c:\n    pass\n"),
        "quantified": ('(argument_list (keyword_argument name: (identifier) @k)* @kw)',
                       "f(a=1, b=2)\ng()\n"),
        "alternation-anchor": ('(block . [(expression_statement) (raise_statement)] @first)',
                               "def f():\n    raise X\n\ndef g():\n    x = 1\n"),
        "crlf-bom": ('((string) @s (#eq? @s "\'a\'"))', "\ufeffx = 'a'\r\ny = 'b'\r\n"),
        "syntax-error": ('(ERROR) @e', "def f(:\n    return (1,\n"),
        "unknown-predicate": ('((identifier) @x (#set! x "y"))', "x\n"),
        # The search's excerpt (statement_excerpt.h): statements around the
        # knob's that a blanked neighbour must not change.
        "excerpt-statements": ('((assignment left: (identifier) @n right: (_) @v) (#eq? @n "KNOB"))',
                               "# head\nimport os\n@dec\n# c\ndef f():\n    KNOB = 1\n"
                               "# col0 comment\n    return KNOB\nif A:\n    KNOB = 2\nelif B:\n"
                               "    pass\nelse:\n    KNOB = 3\ntry:\n    x = 1\nexcept E:\n    pass\n"
                               "S = \'\'\'\nKNOB = 4\n\'\'\'\nT = (1,\n2)\nKNOB = 5\n"),
    }
    for name, (q, code) in hand.items():
        write("fuzz_query", name, q.encode() + b"\0" + code.encode())
    for name, (q, code) in DIFF.items():
        write("fuzz_query", "diff-" + name, q.encode() + b"\0" + code.encode())


# Differential seeds (diff-*): queries in the subset our own matcher
# (engine/query/query_ast.h) handles, which fuzz_query also runs with libtree-sitter
# and compares. One or more per construct of the subset, over Python with
# comments and anonymous tokens between siblings.
DIFF_PY = """# lead
def f(a, b=1, *c) -> int:
    # first
    x = 1  # after x
    if a == b:
        y = g(a, "s", b)  # trailing
    elif a:
        pass
    else:
        return x
    h(1, # one
      2, 3)
    X = y = 2
    BLOCK += 4
    # last


class C(B):
    z: int = 3
    w = z
"""
DIFF_ERR_PY = "def f(:\n    g(1,\nh(2)\nx = = 3\nif a b:\n    y = 1\n"
PARTIAL_PY = (
    "import triton\n\nBLOCK = 64  # top\n\n@triton.jit\ndef k(BLOCK: int):\n"
    "    return BLOCK\n\nif cond:\n    NUM_WARPS = 4\nelse:\n    BLOCK = (1,\n"
    "2)\n\ns = '''\nBLOCK = 9\n'''\nclass C:\n    BLOCK = 1; x = BLOCK\n"
    "y = f(a,\n      BLOCK=2) \\\n    + 1\n"
)
DIFF = {
    # Also the partial-parse check: statement-local queries with literals.
    "partial-identifier": ('((identifier) @n (#eq? @n "BLOCK"))', PARTIAL_PY),
    "partial-module": ("(module (expression_statement (assignment left: (identifier) @n"
                       ' right: (_) @v)) (#eq? @n "BLOCK"))', PARTIAL_PY),
    "partial-keyword": ('(keyword_argument name: (identifier) @k value: (_) @v (#eq? @k "BLOCK"))',
                        PARTIAL_PY),
    "partial-decorated": ("(decorated_definition (decorator (attribute) @d) definition:"
                          ' (function_definition name: (identifier) @f) (#eq? @d "triton.jit"))',
                          PARTIAL_PY),
    "fields": ("(assignment left: (identifier) @l right: (_) @r)", DIFF_PY),
    "fields-nested": ("(function_definition name: (identifier) @n"
                      " parameters: (parameters (identifier) @p) body: (block (_) @s))", DIFF_PY),
    "field-anonymous": ("(binary_operator operator: \"+\" @op) (comparison_operator \"==\" @op)",
                        "a + b\nc - d\ne == f\n"),
    "negated-field": ("(assignment left: (_) @l !type)", DIFF_PY),
    "negated-fields": ("(function_definition !return_type !type_parameters name: (_) @n)",
                       "def f(): pass\ndef g() -> int: pass\ndef h[T](): pass\n"),
    "negated-field-if": ("(if_statement !alternative condition: (_) @c)",
                         DIFF_PY + "if q:\n    pass\n"),
    "anchor-first": ("(block . (_) @first)", DIFF_PY),
    "anchor-first-comment": ("(block . (comment) @c) (block (comment) @d . (_) @e)",
                             "if a:\n    pass\n    # c\n    x\nwhile b:\n    # first\n    y\n"),
    "anchor-last": ("(block (_) @last .)", DIFF_PY),
    "anchor-last-comment": ("(block (comment) @c .)", DIFF_PY),
    "anchor-between": ("(argument_list (_) @a . (_) @b)", DIFF_PY),
    "anchor-between-named": ("(block (expression_statement) @a . (if_statement) @b)",
                             DIFF_PY + "if q:\n    x = 1\n    if x:\n        pass\n    g()\n"
                             "    # c\n    if y:\n        pass\n"),
    "anchor-only": ("(argument_list . (_) @only .)", "f(a)\ng(a, b)\nh(# c\n  a)\nk()\n"),
    "anchor-field": ("(call function: (_) @f . arguments: (argument_list . (integer) @i))", DIFF_PY),
    "anchor-module": ("(module . (_) @first) (module (_) @last .)", DIFF_PY),
    "anchor-params": ("(parameters . (identifier) @p . (default_parameter) @d)", DIFF_PY),
    "wildcard": ("(argument_list _ @t)", "g(a, 'b', # c\n  1)\n"),
    "wildcard-mixed": ("(binary_operator _ @l \"+\" _ @r)", "a + b\nc * d + 1\n"),
    "any-named": ("(_ (identifier) @i (integer) @n)", DIFF_PY),
    "any-named-anonymous-child": ('(_ "is" @t) @p (_ (identifier) @i "=" @eq) @q',
                                  "c is d\nx = a if b else c\n"),
    "any-named-nested": ("(expression_statement (_ (_) @inner) @outer)", DIFF_PY),
    "anonymous-if": ("(if_statement \"if\" @kw condition: (_) @c \":\" @colon)", DIFF_PY),
    "anonymous-eq": ("(assignment \"=\" @eq right: (_) @r)", DIFF_PY),
    "anonymous-op": ("(augmented_assignment \"+=\" @op) (else_clause \"else\" @e)", DIFF_PY),
    "alternation": ("(argument_list [(identifier) (integer) (string)] @arg)", DIFF_PY),
    "alternation-captures": ("(assignment left: (identifier) @n"
                             " right: [(integer) @v (call function: (identifier) @v)])", DIFF_PY),
    "alternation-anonymous": ("(_ [\"if\" \"elif\" \"else\"] @kw)", DIFF_PY),
    "alternation-nested": ("(block [(expression_statement [(assignment) (call)] @e)"
                           " (return_statement (_) @e)] @s)", DIFF_PY),
    "multi-pattern": ("(identifier) @id (integer) @int ((string) @s (#eq? @s \"\\\"s\\\"\"))"
                      " (call function: (identifier) @id)", DIFF_PY),
    "group-eq": ('((identifier) @a (#eq? @a "x"))', DIFF_PY),
    "group-any-of": ('((assignment left: (identifier) @n) @s (#any-of? @n "x" "X" "w"))', DIFF_PY),
    "unanchored-two": ("(argument_list (_) @a (_) @b)", DIFF_PY),
    "unanchored-three": ("(argument_list (_) @a (_) @b (_) @c)", "f(a, b, c, d, e)\ng(1, 2)\n"),
    "unanchored-typed": ("(block (expression_statement) @e (_) @any)", DIFF_PY),
    "unanchored-uncaptured": ("(argument_list (identifier) (identifier) @second)",
                              "f(a, b, c)\ng(a, 1, b)\n"),
    "repeated-capture": ("(argument_list (identifier) @x (identifier) @x)", "f(a, b, c)\n"),
    "repeated-capture-fields": ("(comparison_operator (_) @x (_) @x)", DIFF_PY),
    "repeated-capture-eq": ("((argument_list (identifier) @x (identifier) @y) (#eq? @x @y))",
                            "f(a, a, b, a)\n"),
    "predicate-prune": ('((assignment left: (identifier) @n right: (integer) @v)'
                        ' (#match? @n "^[A-Z_]+$") (#not-eq? @v "1"))',
                        DIFF_PY + "BLOCK = 8\nN = 1\nlow = 2\n"),
    "predicate-not-match": ('((identifier) @i (#not-match? @i "^[a-c]"))', DIFF_PY),
    "predicate-repeated": ('((argument_list (_) @x (_) @x) (#eq? @x "1"))', "f(1, 1, 2)\n"),
    "error-python": ("(call function: (identifier) @f)", DIFF_ERR_PY),
    "error-python-any": ("(_ (identifier) @i)", DIFF_ERR_PY),
    "error-python-anchor": ("(_ . (_) @a) (assignment left: (_) @l right: (_) @r)", DIFF_ERR_PY),
    "strings": ("(string . (string_start) (string_content) @c . (string_end))",
                "a = 'x'\nb = f'{y}z'\nc = ''\n"),
    "repeated-field": ("(import_statement name: (dotted_name) @n)"
                       " (comparison_operator operators: _ @op)", "import a, b.c, d\nx = a < b <= c\n"),
    "impossible-structure": ("(identifier (identifier) @x)", "a\n"),
}


def edit_diff():
    texts = {
        "empty.py": b"",
        "one-line.py": b"x = 1\n",
        "no-final-newline.py": b"import os\n\nBLOCK = 32\nNUM_WARPS = 8",
        "crlf.py": b"def f():\r\n    return 32 * 1024\r\n\r\nx = 1\r\n",
        "mixed-eol.py": b"a = 1\r\nb = 2\nc = 3\r\nd = 4",
        "bom.py": b"\xef\xbb\xbf# -*- coding: utf-8 -*-\nX = 512\n",
        "cr-only.py": b"a = 1\rb = 2\r",
        "diff-lookalikes.py": (b"--- a/f.py\n+++ b/f.py\n@@ -1 +1 @@\n"
                               b"\\ No newline at end of file\ndiff --git a/x b/x\n- x\n+ y\n \n"),
        "repeated-lines.py": b"pass\n" * 12 + b"x = 1\n" + b"pass\n" * 12,
        "blank-lines.py": b"\n\n\nx = 1\n\n\n\ny = 2\n\n",
    }
    # The CRLF and BOM variants are derived as the golden cases' setup.sh
    # scripts derive them, from the partition_size tree.
    paged = (ROOT / "fixtures/cases/partition_size/tree/vllm/attention/ops/paged_attn.py").read_bytes()
    texts["fixture-crlf.py"] = cut(paged.replace(b"\n", b"\r\n"))
    texts["fixture-bom.py"] = cut(b"\xef\xbb\xbf" + paged)
    ops = (ROOT / "fixtures/cases/no_final_newline/tree/vllm/_custom_ops.py").read_bytes()
    texts["fixture-no-final-newline.py"] = ops[-MAX_PY:]
    for name, data in texts.items():
        write("fuzz_edit_diff", name, data)


# fuzz_plan: RULES NUL PYTHON. The target puts the one Python file at every
# path the rules name, so a case's files are joined into one.
PLAN_KNOBS = [  # fixtures/enginex-vllm's files that rules/bi100.yaml rewrites
    "vllm/attention/ops/paged_attn.py",
    "vllm/_custom_ops.py",
    "vllm/attention/ops/prefix_prefill.py",
    "vllm/model_executor/layers/fused_moe/fused_moe.py",
    "vllm/attention/ops/triton_flash_attention.py",
]
# Cases whose rule file LoadRules refuses (fuzz_rule_loader's seeds cover
# them), whose point the one-file tree cannot make (a symlink, invalid
# UTF-8, which ends the run before planning; --set: the target uses the
# built-in profile) or that another seed already is.
PLAN_SKIP = {"errors/bad_predicate", "errors/malformed_yaml", "errors/query_syntax",
             "errors/non_utf8", "errors/search_space_too_big", "errors/symlink_escape",
             "errors/unknown_capture", "errors/unknown_key", "errors/unknown_value",
             "enginex_vllm", "model_warp32"}
# What each case's setup.sh does to its tree, applied to the joined Python.
PLAN_SETUP = {
    "crlf": lambda py: py.replace(b"\n", b"\r\n"),
    "bom": lambda py: b"\xef\xbb\xbf" + py,
    "prefix_prefill": lambda py: py if py.endswith(b"\n") else py + b"\n",
}
MAX_PLAN = 60 * 1024  # bytes of a seed


class _BlockDumper(yaml.SafeDumper):
    pass


_BlockDumper.add_representer(
    str, lambda d, s: d.represent_scalar("tag:yaml.org,2002:str", s, style="|" if "\n" in s else None))


def join_py(paths):
    out = b""
    for p in paths:
        data = p.read_bytes()
        if out and not out.endswith(b"\n"):
            out += b"\n"
        out += data
    return out


def rule_files(rules_yaml, ids=None):
    """The literal files the rules (only `ids`, when given) and their
    preconditions name, in order."""
    def listed(v):
        return [v] if isinstance(v, str) else list(v or [])
    files = []
    for r in yaml.safe_load(rules_yaml).get("rules") or []:
        if ids and r["id"] not in ids:
            continue
        names = listed(r.get("files"))
        for p in r.get("preconditions") or []:
            names += listed(p.get("files"))
        files += [f for f in names if f not in files]
    return files


def plan_seed(name, rules, py):
    data = (rules if isinstance(rules, bytes) else rules.encode()) + b"\0" + py
    assert len(data) <= MAX_PLAN, (name, len(data))
    write("fuzz_plan", name, data)


def plan():
    cases = ROOT / "fixtures/cases"
    bi100 = (ROOT / "rules/bi100.yaml").read_bytes()
    enginex = ROOT / "fixtures/enginex-vllm"
    write("fuzz_plan", "bi100", bi100)  # over the target's built-in sample
    for knob in PLAN_KNOBS:
        plan_seed("bi100-" + pathlib.Path(knob).stem, bi100, (enginex / knob).read_bytes())
    for d in sorted(p.parent for p in cases.glob("**/args")) + sorted(
            p.parent for p in cases.glob("errors/*/rules.yaml")):
        case = d.relative_to(cases).as_posix()
        if case in PLAN_SKIP or (d / "args").exists() and case.startswith("errors/"):
            continue
        args = (d / "args").read_text().split() if (d / "args").exists() else []
        ids = [args[i + 1] for i, a in enumerate(args) if a == "--rule"]
        if (d / "rules.yaml").exists():
            rules = (d / "rules.yaml").read_bytes()
        else:  # rules.link: bi100, only the rules `--rule` selects
            data = yaml.safe_load(bi100)
            if ids:
                data["rules"] = [r for r in data["rules"] if r["id"] in ids]
            rules = yaml.dump(data, Dumper=_BlockDumper, sort_keys=False, width=200).encode()
        tree = d / "tree" if (d / "tree").is_dir() else ROOT / (d / "tree.link").read_text().strip()
        overlay = {}  # tree-relative path -> the file the case puts there
        if (d / "overlay.link").exists():
            o = ROOT / (d / "overlay.link").read_text().strip()
            overlay[o.as_posix().split("/tree/", 1)[1]] = o
        py_paths = [overlay.get(f, tree / f) for f in rule_files(rules, ids)]
        py_paths = [p for p in py_paths if p.is_file()]
        py = join_py(py_paths)
        if case in PLAN_SETUP:
            py = PLAN_SETUP[case](py)
        plan_seed("case-" + case.replace("/", "-"), rules, py)
    plan_seed("hand-table-values", TABLE_VALUES_YAML,
              b"x = 1\ny = 2\nconfigs = [triton.Config({'BLOCK_M': 64}, num_warps=4)]\nuse_v1 = True\n")
    plan_seed("hand-model-calls", MODEL_CALLS_YAML,
              b"if numel <= 64:\n    pass\nconfigs = [\n    triton.Config({'BLOCK_M': 16, 'BLOCK_N': 32, 'w': 0},"
              b" num_stages=1, num_warps=2),\n]\n")
    plan_seed("hand-delete-lines", """version: 1
values:
  size: 1024
rules:
  - id: drop
    files: "**/*.py"
    query: '((expression_statement (assignment left: (identifier) @n)) @s (#eq? @n "use_v1"))'
    delete: s
    expect: 1
  - id: size
    files: [a.py, vllm/_custom_ops.py]
    query: '((assignment left: (identifier) @n right: (_) @v) (#eq? @n "SIZE"))'
    replace: v
    with: "{{size}}  # was {{@v}}"
""", b"def f():\n    use_v1 = True\r\n    SIZE = 32 * 1024\n    return SIZE")


def main():
    # Regression seeds (regress-*, reproducers of fixed findings) are kept.
    for f in CORPUS.glob("*/*"):
        if not f.name.startswith("regress-"):
            f.unlink()
    rule_loader()
    query()
    edit_diff()
    plan()
    total = sum(f.stat().st_size for f in CORPUS.rglob("*") if f.is_file())
    count = sum(1 for f in CORPUS.rglob("*") if f.is_file())
    print(f"{count} seeds, {total} bytes under {CORPUS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
