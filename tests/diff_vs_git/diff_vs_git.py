#!/usr/bin/env python3
"""Differential test: muhpatch's hunks against `git diff --no-index`.

Generates random edit sets on small Python-like files (tier chains whose new
values equal a neighbour's old one, repeated and blank lines, indentation,
CRLF, a last line without newline, a few large files), renders each pair with
tests/diff_vs_git/unified_diff_tool (muhpatch's UnifiedDiff) and with git's
defaults (no user or system config), and compares everything from the first
`@@` on. A mismatch prints the case and both diffs and fails. Deterministic
for a seed: diff_vs_git.py TOOL [--seed N] [--count N]. Exits 77 without git.
"""
import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile

VALUES = ["16", "32", "64", "128", "256", "1024"]
WORDS = ["x", "y", "block_m", "num_warps", "config", "BLOCK", "tile"]


def tier_chain(rng):
    """A numel <= B chain; each tier sets a few knobs. Returns lines and the
    positions of the value lines, in order."""
    lines, values = [], []
    indent = "    " * rng.randint(0, 2)
    lines.append(f"{indent}def get_config(numel, M):\n")
    knobs = rng.sample(["block_m", "block_n", "block_k", "num_warps", "stages"], rng.randint(1, 3))
    for t in range(rng.randint(2, 6)):
        head = "if" if t == 0 else "elif"
        lines.append(f"{indent}    {head} numel <= {rng.choice(VALUES)}:\n")
        for k in knobs:
            values.append(len(lines))
            lines.append(f"{indent}        {k} = {rng.choice(VALUES)}\n")
        if rng.random() < 0.3:
            lines.append("\n")
    lines.append(f"{indent}    else:\n")
    for k in knobs:
        values.append(len(lines))
        lines.append(f"{indent}        {k} = {rng.choice(VALUES)}\n")
    lines.append(f"{indent}    return dict(BLOCK_SIZE_M=block_m)\n")
    return lines, values


def random_line(rng):
    r = rng.random()
    if r < 0.15:
        return "\n"
    if r < 0.2:
        return "    \n"
    if r < 0.3:
        return rng.choice(["}\n", "    return x\n", "else:\n", "    pass\n"])
    indent = " " * (4 * rng.randint(0, 3)) if rng.random() < 0.9 else "\t" * rng.randint(1, 2)
    if r < 0.45:
        return f"{indent}if {rng.choice(WORDS)} <= {rng.choice(VALUES)}:\n"
    if r < 0.55:
        return f"{indent}def {rng.choice(WORDS)}():\n"
    return f"{indent}{rng.choice(WORDS)} = {rng.choice(VALUES)}\n"


def edit_values(rng, lines, values):
    """Rewrites values; often the new value is a neighbour's old one."""
    new = list(lines)
    for pos in rng.sample(values, rng.randint(1, len(values))):
        i = values.index(pos)
        if rng.random() < 0.6 and len(values) > 1:
            src = values[i + 1] if i + 1 < len(values) and rng.random() < 0.5 else values[i - 1]
            value = lines[src].rsplit("= ", 1)[1]
        else:
            value = rng.choice(VALUES) + "\n"
        new[pos] = lines[pos].rsplit("= ", 1)[0] + "= " + value
    return new


def edit_lines(rng, lines, pool):
    new = list(lines)
    for _ in range(rng.randint(1, 6)):
        op = rng.random()
        at = rng.randint(0, len(new))
        if op < 0.3 and at < len(new):
            del new[at]
        elif op < 0.5 and at < len(new):
            new.insert(at, new[at])  # duplicate a line
        elif op < 0.7 and at < len(new):
            new[at] = rng.choice(pool)
        elif op < 0.8 and at < len(new):
            j = rng.randint(0, len(new) - 1)
            new.insert(j, new.pop(at))
        else:
            new.insert(at, rng.choice(pool))
    return new


def make_case(rng, n):
    kind = n % 5
    if kind in (0, 1):
        old, values = tier_chain(rng)
        pad = [random_line(rng) for _ in range(rng.randint(0, 8))]
        old = pad[: len(pad) // 2] + old + pad[len(pad) // 2:]
        values = [v + len(pad) // 2 for v in values]
        new = edit_values(rng, old, values)
        if kind == 1:
            new = edit_lines(rng, new, old + [random_line(rng)])
    elif kind == 2:
        pool = [random_line(rng) for _ in range(rng.randint(2, 6))]
        old = [rng.choice(pool) for _ in range(rng.randint(0, 30))]
        new = edit_lines(rng, old, pool)
    elif kind == 3:
        old = [random_line(rng) for _ in range(rng.randint(1, 40))]
        new = edit_lines(rng, old, old + [random_line(rng)])
    elif n % 500 == 9:
        # Large enough that git's cost cut-offs (above 256) come into play.
        pool = [random_line(rng) for _ in range(60)]
        old = [rng.choice(pool) for _ in range(3000)]
        new = list(old)
        for _ in range(800):
            new[rng.randrange(len(new))] = rng.choice(pool)
            new.insert(rng.randrange(len(new)), rng.choice(pool))
            del new[rng.randrange(len(new))]
    else:
        size = rng.choice([60, 200, 600]) if n % 50 == 4 else rng.randint(5, 60)
        pool = [random_line(rng) for _ in range(rng.randint(3, 20))]
        old = [rng.choice(pool) for _ in range(size)]
        new = [rng.choice(pool) for _ in range(size)] if n % 50 == 4 else edit_lines(rng, old, pool)
    old_text, new_text = "".join(old), "".join(new)
    if rng.random() < 0.1:
        old_text, new_text = old_text.replace("\n", "\r\n"), new_text.replace("\n", "\r\n")
    if rng.random() < 0.1 and old_text:
        old_text = old_text.rstrip("\n")
    if rng.random() < 0.1 and new_text:
        new_text = new_text.rstrip("\n")
    return old_text, new_text


def hunks(diff):
    """The diff from its first `@@` line on."""
    at = diff.find("\n@@ ")
    return diff[at + 1:] if at != -1 else diff


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tool")
    parser.add_argument("--seed", type=int, default=40)
    parser.add_argument("--count", type=int, default=2000)
    args = parser.parse_args()
    git = shutil.which("git")
    if not git:
        print("skipped: git is not on PATH")
        return 77
    rng = random.Random(args.seed)
    scratch = tempfile.mkdtemp()
    env = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull, HOME=scratch)
    try:
        cases, files = [], []
        for n in range(args.count):
            old_text, new_text = make_case(rng, n)
            if old_text == new_text:
                continue
            old_path = os.path.join(scratch, f"{n}.old")
            new_path = os.path.join(scratch, f"{n}.new")
            with open(old_path, "w", newline="") as f:
                f.write(old_text)
            with open(new_path, "w", newline="") as f:
                f.write(new_text)
            cases.append((n, old_text, new_text))
            files += [old_path, new_path]
        ours = subprocess.run([args.tool] + files, check=True, stdout=subprocess.PIPE).stdout
        ours = ours.decode().split("=== ")[1:]
        failures = 0
        for (n, old_text, new_text), mine in zip(cases, ours):
            mine = mine.split("\n", 1)[1]
            theirs = subprocess.run(
                [git, "diff", "--no-index", "--no-color", "--", f"{n}.old", f"{n}.new"],
                cwd=scratch, env=env, stdout=subprocess.PIPE).stdout.decode()
            if hunks(mine) != hunks(theirs):
                failures += 1
                if failures <= 3:
                    print(f"case {n} differs\n--- old\n{old_text!r}\n--- new\n{new_text!r}")
                    print(f"--- git\n{hunks(theirs)}--- muhpatch\n{hunks(mine)}")
        print(f"diff_vs_git: {len(cases)} cases, {failures} differ from git")
        return 1 if failures or len(ours) != len(cases) else 0
    finally:
        shutil.rmtree(scratch)


if __name__ == "__main__":
    sys.exit(main())
