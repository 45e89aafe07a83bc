#!/usr/bin/env bash
# Runs the README's commands as written. Every ```console block is a
# transcript: `$ COMMAND` lines, each followed by what it prints on stdout
# (a line `...` stands for any number of lines). A command ending in
# `# exits N` must exit N, every other one 0. The blocks run in order in one
# bash, from a scratch copy of the repository's rules/, tests/rules/ and
# fixtures/enginex-vllm/ with build/muhpatch the binary under test, as a
# reader runs them from the repository root after the quick start. The
# quick start's diff runs there too (its setup and ctest are what CI runs
# anyway); the exit-code table must list exactly the codes of
# engine/base/exit_codes.h; the CI recipe's Action step gives only inputs
# action.yml has (and every required one), and its pre-commit hook exists
# and passes, with the README's args, on a fixture tree whose patch was
# committed as the README's CI transcript says: pristine (`diff > PATCH`),
# then patched (`apply`, `diff --base-patch PATCH -o PATCH`); the same on a
# copy of the real tree when ../shared has it.
#
# Usage: readme.sh MUHPATCH
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

mkdir -p "$scratch/repo/build" "$scratch/repo/tests" "$scratch/repo/fixtures"
cp -a "$repo/rules" "$scratch/repo/rules"
cp -a "$repo/tests/rules" "$scratch/repo/tests/rules"
cp -a "$repo/fixtures/enginex-vllm" "$scratch/repo/fixtures/enginex-vllm"
ln -s "$muhpatch" "$scratch/repo/build/muhpatch"

python3 - "$repo" "$scratch" <<'PY'
import os, re, shlex, shutil, subprocess, sys

repo, scratch = sys.argv[1], sys.argv[2]
readme, exit_codes = f"{repo}/README.md", f"{repo}/engine/base/exit_codes.h"
text = open(readme, encoding="utf-8").read()
problems = []

def fail(msg):
    problems.append(msg)

# The README's length: the front page, not a manual.
lines = text.count("\n")
if lines > 250:
    fail(f"README.md has {lines} lines, more than 250")

blocks = re.findall(r"^```(\w*)\n(.*?)^```$", text, re.S | re.M)

# The quick start: the two commands, and its diff as written (after setup).
quick = [b for lang, b in blocks if lang == "sh" and ".ci/setup" in b]
want_quick = ("bash .ci/setup && build/muhpatch diff rules/bi100.yaml fixtures/enginex-vllm\n"
              "cmake --build build -j2 && ctest --test-dir build --output-on-failure -j2\n")
if quick != [want_quick]:
    fail(f"the quick start is not the two commands:\n{quick}")
else:
    cmd = quick[0].splitlines()[0].split(" && ", 1)[1]
    r = subprocess.run(["bash", "-c", cmd], cwd=f"{scratch}/repo", capture_output=True, text=True)
    if r.returncode != 0 or not r.stdout.startswith("muhpatch: rule ") or "\ndiff --git a/" not in r.stdout:
        fail(f"quick start `{cmd}`: exit {r.returncode}, stdout starts {r.stdout[:80]!r}")
    elif r.stderr.count("\n") > 3:
        fail(f"quick start `{cmd}`: {r.stderr.count(chr(10))} lines on stderr, more than 3:\n{r.stderr}")
    else:
        print(f"ok quick start: {cmd} (exit 0, {r.stdout.count(chr(10))} lines)")

# The transcripts.
steps = []  # (command, expected exit, expected stdout lines)
for lang, body in blocks:
    if lang != "console":
        continue
    for line in body.splitlines():
        if line.startswith("$ "):
            cmd = line[2:]
            m = re.search(r"#\s*exits (\d+)\s*$", cmd)
            steps.append([cmd, int(m.group(1)) if m else 0, []])
        elif not steps:
            fail(f"a console block starts with output, not a command: {line!r}")
        else:
            steps[-1][2].append(line)
if len(steps) < 8:
    fail(f"only {len(steps)} commands in the README's console blocks")
for name in ("diff", "apply", "verify", "status", "model", "test"):
    if not any(re.match(rf"(muhpatch|build/muhpatch)( -[a-z]+)* {name} ", s[0]) for s in steps):
        fail(f"no example of `muhpatch {name}`")

# One bash runs them all, in order (cd and export carry over).
script = ["set -u"]
for i, (cmd, _, _) in enumerate(steps):
    script.append(f"{{ {cmd}\n}} >{scratch}/out.{i} 2>{scratch}/err.{i} </dev/null; echo $? >{scratch}/code.{i}")
subprocess.run(["bash", "-c", "\n".join(script)], cwd=f"{scratch}/repo", check=False,
               env={"PATH": "/usr/bin:/bin", "HOME": scratch, "LC_ALL": "C.UTF-8"})

def matches(want, got):
    # `...` is any number of lines; every other line is exact.
    pattern = "".join("(?:.*\n)*" if w == "..." else re.escape(w) + "\n" for w in want)
    return re.fullmatch(pattern, got) is not None

for i, (cmd, want_code, want_out) in enumerate(steps):
    try:
        code = int(open(f"{scratch}/code.{i}").read())
        out = open(f"{scratch}/out.{i}", encoding="utf-8", errors="replace").read()
        err = open(f"{scratch}/err.{i}", encoding="utf-8", errors="replace").read()
    except FileNotFoundError:
        fail(f"`{cmd}` did not run")
        continue
    if code != want_code:
        fail(f"`{cmd}`: exit {code}, the README says {want_code}\nstderr:\n{err}")
    elif not matches(want_out, out):
        fail(f"`{cmd}`: stdout is not what the README shows\n--- README\n" + "\n".join(want_out) +
             f"\n--- stdout\n{out}")
    else:
        print(f"ok $ {cmd}")

# The exit-code table lists the codes the code defines, no more, no less.
defined = sorted(int(c) for c in re.findall(r"kExit\w+ = (\d+)", open(exit_codes).read()))
table = re.search(r"^## Exit codes\n(.*?)(?=^## )", text, re.S | re.M)
listed = sorted(int(c) for c in re.findall(r"^\| (\d+) \|", table.group(1), re.M)) if table else []
if listed != defined:
    fail(f"the exit-code table lists {listed}, engine/base/exit_codes.h defines {defined}")
else:
    print(f"ok the exit-code table lists {listed}, as exit_codes.h")

# The CI recipe: the Action's inputs exist (the required ones given), the
# hook exists, and the hook's entry with the README's args passes on the
# fixture tree once the patch is committed as the README says.
try:
    import yaml
except ImportError:
    yaml = None
    fail("python3's yaml module is missing (Debian: python3-yaml; .ci/setup installs it)")
if yaml:
    docs = [yaml.safe_load(b) for lang, b in blocks if lang == "yaml"]
    action = yaml.safe_load(open(f"{repo}/action.yml"))
    steps_using = [st for d in docs if isinstance(d, dict) and "jobs" in d
                   for job in d["jobs"].values() for st in job["steps"]
                   if "muhpatch@" in st.get("uses", "")]
    if len(steps_using) != 1:
        fail(f"expected one workflow step using the Action, found {len(steps_using)}")
    else:
        given = set(steps_using[0].get("with", {}))
        inputs = action["inputs"]
        unknown = given - set(inputs)
        missing = {k for k, v in inputs.items() if v.get("required")} - given
        if unknown or missing:
            fail(f"the Action step gives unknown inputs {sorted(unknown)} and lacks required {sorted(missing)}")
        else:
            print(f"ok the Action step's inputs {sorted(given)} are action.yml's, the required ones given")
    hooks = {h["id"]: h for h in yaml.safe_load(open(f"{repo}/.pre-commit-hooks.yaml"))}
    used = [h for d in docs if isinstance(d, dict) and "repos" in d
            for r in d["repos"] for h in r["hooks"]]
    if len(used) != 1 or used[0]["id"] not in hooks:
        fail(f"the pre-commit config names {[h.get('id') for h in used]}, the hooks are {sorted(hooks)}")
    else:
        ci_text = re.search(r"^## In CI\n(.*?)(?=^## )", text, re.S | re.M)
        ci_text = ci_text.group(1) if ci_text else ""
        commit = re.search(r"^\$ (muhpatch diff [^\n]*> *patches/\S+)$", ci_text, re.M)
        record = re.search(r"^\$ (muhpatch diff --base-patch patches/\S+ -o patches/\S+ [^\n]*)$",
                           ci_text, re.M)
        apply = re.search(r"^\$ (muhpatch apply [^\n]*)$", ci_text, re.M)
        env = {"PATH": f"{scratch}/repo/build:/usr/bin:/bin", "HOME": scratch}
        real = os.path.normpath(f"{repo}/../shared/targets/enginex-vllm")
        trees = [("fixture tree", f"{repo}/fixtures/enginex-vllm")]
        if os.path.isdir(f"{real}/vllm"):
            trees.append(("real tree", real))
        else:
            print(f"note: the real tree is not at {real}; the CI recipe ran on the fixture only")
        if not (commit and apply and record):
            fail("the CI section's transcript does not show both layouts: `muhpatch diff ... > "
                 "patches/...` (pristine), `muhpatch apply` and `muhpatch diff --base-patch "
                 "patches/... -o patches/...` (patched)")
            trees = []
        hook = hooks[used[0]["id"]]
        argv = shlex.split(hook["entry"]) + [str(a) for a in used[0].get("args", [])]
        for n, (tree_name, source) in enumerate(trees):
            ci = f"{scratch}/ci{n}"
            os.makedirs(f"{ci}/patches")
            shutil.copytree(f"{repo}/rules", f"{ci}/rules")
            shutil.copytree(source, f"{ci}/enginex-vllm")
            subprocess.run(["chmod", "-R", "u+w", f"{ci}/enginex-vllm"], check=True)
            # The pristine layout, then the patched one: each made as the
            # README says, then the hook with the README's args.
            for layout, cmds in (("pristine", [commit]), ("patched", [apply, record])):
                rs = [subprocess.run(["bash", "-c", c.group(1)], cwd=ci, env=env,
                                     capture_output=True, text=True) for c in cmds]
                v = subprocess.run(argv, cwd=ci, env=env, capture_output=True, text=True)
                made = ", then ".join(f"`{c.group(1)}`" for c in cmds)
                patch_path = commit.group(1).rsplit(">", 1)[1].strip()
                patch = open(f"{ci}/{patch_path}", encoding="utf-8").read()
                if layout == "pristine":
                    recorded = patch
                elif patch != recorded or "\n+" not in patch:
                    fail(f"the CI recipe ({tree_name}): the patched fork's record is not the "
                         f"pristine fork's patch ({len(patch)} bytes, {len(recorded)} before)")
                if any(r.returncode != 0 for r in rs) or v.returncode != 0:
                    fail(f"the CI recipe ({layout} fork, {tree_name}): {made} exit "
                         f"{[r.returncode for r in rs]}, then `{' '.join(argv)}` exit "
                         f"{v.returncode}\n{''.join(r.stderr for r in rs)}{v.stderr}")
                else:
                    print(f"ok the CI recipe ({layout} fork, {tree_name}): {made}, then the hook "
                          f"`{' '.join(argv)}` passes")

for p in problems:
    print("FAIL: readme: " + p, file=sys.stderr)
sys.exit(1 if problems else 0)
PY
