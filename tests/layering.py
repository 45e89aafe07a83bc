#!/usr/bin/env python3
"""Checks that engine/'s layers depend downward only.

Each folder of engine/ is a layer; LAYERS lists what each may include. A
header or source that includes a file of a layer it may not reach fails the
test, naming the include and its line. Also fails on a folder that LAYERS
does not know, so a new layer must state its place here. Unit tests
(`*_test.cc`) are exempt: a differential test may use a higher layer to check
a lower one (pattern_sites_test runs patterns through the rules layer).
"""
import pathlib
import re
import sys

# layer -> layers it may include (besides itself)
LAYERS = {
    "base": [],
    "io": ["base"],  # the only layer that touches the disk
    "python": ["base"],
    "query": ["base", "python"],
    "model": ["base", "python"],
    "pattern": ["base", "python"],  # code patterns, compiled to syntax nodes and matched
    "rules": ["base", "python", "query", "pattern", "model", "liveness"],
    "patch": ["base"],
    "plan": ["base", "python", "query", "model", "liveness", "rules", "patch"],
    "liveness": ["base", "python", "query"],  # pure: strings in, verdicts out
    "search": ["base", "python", "query", "rules"],  # the whole-tree search: pure, bytes come by a function
    "app": ["base", "io", "python", "query", "model", "rules", "patch", "plan", "liveness", "search"],
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"engine/([a-z_]+)/')


def main() -> int:
    root = pathlib.Path(__file__).resolve().parent.parent / "engine"
    problems = []
    for path in sorted(root.rglob("*")):
        if path.suffix not in (".h", ".cc") or path.parent == root:
            if path.suffix in (".h", ".cc"):
                problems.append(f"{path.relative_to(root.parent)}: not in a layer folder")
            continue
        layer = path.relative_to(root).parts[0]
        if layer not in LAYERS:
            problems.append(f"{path.relative_to(root.parent)}: unknown layer '{layer}' (add it to tests/layering.py)")
            continue
        if path.name.endswith("_test.cc"):
            continue
        allowed = set(LAYERS[layer]) | {layer}
        for n, line in enumerate(path.read_text().splitlines(), 1):
            m = INCLUDE.match(line)
            if m and m.group(1) not in allowed:
                problems.append(
                    f"{path.relative_to(root.parent)}:{n}: layer '{layer}' includes "
                    f"'{m.group(1)}', which it may not reach (allowed: {', '.join(sorted(allowed))})")
    for p in problems:
        print(p)
    print(f"layering: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
