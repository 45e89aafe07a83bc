#!/usr/bin/env bash
# The GitHub Action (action.yml) and the pre-commit hook
# (.pre-commit-hooks.yaml) at the repository root, run as scripts on the
# fixture tree. For the Action, each `runs.steps[*].run` is executed with
# bash as a runner would: `${{ inputs.* }}`, `${{ github.action_path }}` and
# `${{ steps.ID.outputs.* }}` substituted into its env, GITHUB_ENV and
# GITHUB_OUTPUT honoured; the upload-sarif step (a `uses:`) is stood in for
# by a check that its sarif_file is a SARIF 2.1.0 log. The install step runs
# with the `muhpatch` input (this build), so the test builds nothing.
#   - pristine tree, the committed patch = diff's: every step passes;
#   - a stale patch: verify's step passes (exit-code 1), the SARIF is
#     uploaded with a `stale` result, then "Fail on drift" fails with 1;
#   - a rule file that does not exist: verify's step fails at once (exit 2).
# The hook's `entry` plus the args its header documents: exit 0 on the
# pristine tree with the committed patch, 1 with the stale one, quiet (-q).
# Needs python3's yaml module (Debian: python3-yaml; .ci/setup installs it).
#
# Usage: integrations.sh MUHPATCH
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "FAIL: integrations: $*" >&2; exit 1; }
ok() { echo "ok $*"; }
python3 -c 'import yaml' 2>/dev/null || { echo "skipped: python3's yaml module is missing"; exit 77; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp -a "$repo/fixtures/enginex-vllm" "$scratch/tree"
cp "$repo/rules/bi100.yaml" "$scratch/rules.yaml"
cd "$scratch"
"$muhpatch" diff rules.yaml tree >committed.diff 2>/dev/null
sed '0,/^+        NUM_WARPS = /s//+        NUM_WARPS = 9 + /' committed.diff >stale.diff
cmp -s committed.diff stale.diff && fail "could not make a stale patch"

cat >run_action.py <<'PY'
"""Runs action.yml's steps: python3 run_action.py ACTION.yml NAME=VALUE...
Prints one line per step, `STEP: ran|passed-sarif|failed N|skipped`, and
exits with the first failing step's code (0 when all pass)."""
import json, os, re, subprocess, sys, tempfile
import yaml

action = yaml.safe_load(open(sys.argv[1]))
inputs = {k: str(v.get("default", "")) for k, v in action["inputs"].items()}
for a in sys.argv[2:]:
    k, v = a.split("=", 1)
    assert k in inputs, f"unknown input {k}"
    inputs[k] = v
missing = [k for k, v in action["inputs"].items() if v.get("required") and not inputs[k]]
assert not missing, f"required inputs missing: {missing}"
assert action["runs"]["using"] == "composite"
outputs, env = {}, dict(os.environ)
tmp = tempfile.mkdtemp()
github_env, github_output = os.path.join(tmp, "env"), os.path.join(tmp, "output")

def expand(text):
    def one(m):
        e = m.group(1).strip()
        if e.startswith("inputs."):
            return inputs[e[7:]]
        if e == "github.action_path":
            return os.path.dirname(os.path.abspath(sys.argv[1]))
        s = re.fullmatch(r"steps\.([\w-]+)\.outputs\.([\w-]+)", e)
        if s:
            return outputs.get(s.group(1), {}).get(s.group(2), "")
        raise SystemExit(f"unsupported expression: {e}")
    return re.sub(r"\$\{\{(.*?)\}\}", one, str(text))

failed = 0
for step in action["runs"]["steps"]:
    name = step["name"]
    if "uses" in step:
        cond = step.get("if", "")
        if cond and "inputs.upload == 'true'" in cond and inputs["upload"] != "true":
            print(f"{name}: skipped"); continue
        if step["uses"].startswith("actions/cache@"):
            # Stood in for: the cache holds what the test left in `path`.
            m = re.fullmatch(r"\$\{\{ steps\.([\w-]+)\.outputs\.([\w-]+) != '' \}\}", cond)
            assert m, f"{name}: unsupported condition {cond!r}"
            if failed or not outputs.get(m.group(1), {}).get(m.group(2)):
                print(f"{name}: skipped"); continue
            key, path = expand(step["with"]["key"]), expand(step["with"]["path"])
            assert key and path, f"{name}: empty key or path"
            print(f"{name}: cache {key}"); continue
        assert step["uses"].startswith("github/codeql-action/upload-sarif@"), step["uses"]
        path = expand(step["with"]["sarif_file"])
        log = json.load(open(path))
        assert log["version"] == "2.1.0" and log["runs"][0]["tool"]["driver"]["name"] == "muhpatch"
        print(f"{name}: passed-sarif {path}"); continue
    if failed:
        print(f"{name}: skipped"); continue
    assert step.get("shell") == "bash", f"{name}: shell is not bash"
    open(github_env, "w").close(); open(github_output, "w").close()
    step_env = dict(env, GITHUB_ENV=github_env, GITHUB_OUTPUT=github_output)
    step_env.update({k: expand(v) for k, v in step.get("env", {}).items()})
    # shell: bash runs as `bash --noprofile --norc -eo pipefail {0}` on a runner.
    code = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]], env=step_env, stdout=sys.stderr).returncode
    for line in open(github_env):
        k, v = line.rstrip("\n").split("=", 1); env[k] = v
    outs = dict(line.rstrip("\n").split("=", 1) for line in open(github_output) if "=" in line)
    if "id" in step:
        outputs[step["id"]] = outs
    if code:
        print(f"{name}: failed {code}"); failed = code
    else:
        print(f"{name}: ran")
sys.exit(failed)
PY

action() {  # action WHAT WANT_CODE INPUTS...: runs the Action; sets $steps
  local code=0
  python3 run_action.py "$repo/action.yml" muhpatch="$muhpatch" "${@:3}" >steps.txt 2>steps.err || code=$?
  steps=$(cat steps.txt)
  [[ $code -eq $2 ]] || { cat steps.txt steps.err >&2; fail "$1: the Action exited $code, expected $2"; }
}
action "pristine, committed patch" 0 rules=rules.yaml tree=tree patch=committed.diff
[[ $steps == $'Key the build: ran\nRestore the cached build: skipped\nInstall muhpatch: ran\nVerify: ran\nUpload SARIF: passed-sarif muhpatch.sarif\nFail on drift: ran' ]] ||
  fail "pristine: steps were: $steps"
python3 -c 'import json; r = json.load(open("muhpatch.sarif"))["runs"][0]["results"]; assert not [x for x in r if x["level"] == "error"]' ||
  fail "pristine: the SARIF log has errors"
ok "Action on the pristine tree with the committed patch: every step passes, SARIF uploaded"

action "stale patch" 1 rules=rules.yaml tree=tree patch=stale.diff sarif=stale.sarif
[[ $steps == $'Key the build: ran\nRestore the cached build: skipped\nInstall muhpatch: ran\nVerify: ran\nUpload SARIF: passed-sarif stale.sarif\nFail on drift: failed 1' ]] ||
  fail "stale: steps were: $steps"
grep -q '"ruleId": "stale"' stale.sarif || fail "stale: no stale result in the SARIF log"
ok "Action with a stale patch: SARIF uploaded with a stale result, then the job fails with 1"

action "no rule file" 2 rules=nope.yaml tree=tree upload=false
[[ $steps == $'Key the build: ran\nRestore the cached build: skipped\nInstall muhpatch: ran\nVerify: failed 2\nUpload SARIF: skipped\nFail on drift: skipped' ]] ||
  fail "no rule file: steps were: $steps"
ok "Action with a missing rule file: verify's step fails with 2"

# Built from the action's source: a copy of what the key hashes, with the
# cache already holding a binary (this build), so that nothing is built.
mkdir -p action/.ci
cp -a "$repo/action.yml" "$repo/CMakeLists.txt" "$repo/engine" "$repo/grammars" "$repo/dist" action/
# .ci/setup stands in for a build that must not happen.
printf '#!/bin/sh\necho "setup ran" >&2; exit 9\n' >action/.ci/setup
cached_run() {  # cached_run: runs the copied Action without a muhpatch input; sets $steps
  local code=0
  python3 run_action.py action/action.yml rules=rules.yaml tree=tree patch=committed.diff upload=false \
    >steps.txt 2>steps.err || code=$?
  steps=$(cat steps.txt)
  [[ $code -eq 0 ]] || { cat steps.txt steps.err >&2; fail "cached build: the Action exited $code"; }
}
mkdir -p action/.muhpatch-build-cache && cp "$muhpatch" action/.muhpatch-build-cache/muhpatch
cached_run
key1=$(sed -n 's/^Restore the cached build: cache //p' steps.txt)
[[ $key1 =~ ^muhpatch-Linux-[a-z0-9_]+-[A-Za-z0-9]+-[0-9a-f]{24}$ ]] || fail "cached build: key '$key1'; steps were: $steps"
[[ $steps == $'Key the build: ran\nRestore the cached build: cache '"$key1"$'\nInstall muhpatch: ran\nVerify: ran\nUpload SARIF: skipped\nFail on drift: ran' ]] ||
  fail "cached build: steps were: $steps"
grep -q 'the cached build' steps.err && ! grep -q 'setup ran' steps.err || fail "cached build: setup ran, or the cache was not used"
echo '// changed' >>action/engine/app/main.cc
cached_run
key2=$(sed -n 's/^Restore the cached build: cache //p' steps.txt)
[[ -n $key2 && $key2 != "$key1" ]] || fail "cached build: a changed source keeps the key $key1"
ok "Action built from source: a warm run restores the cached binary and builds nothing; a source change changes the key"

# The pre-commit hook: entry + args, muhpatch on PATH.
mkdir bin && ln -s "$muhpatch" bin/muhpatch
hook() {  # hook PATCH: runs the hook's entry with the documented args; prints the exit code
  python3 - "$repo/.pre-commit-hooks.yaml" "$1" <<'PY'
import os, shlex, subprocess, sys
import yaml
hooks = yaml.safe_load(open(sys.argv[1]))
h = [h for h in hooks if h["id"] == "muhpatch-verify"][0]
assert h["language"] == "system" and h["pass_filenames"] is False
args = ["rules.yaml", "tree", "--patch", sys.argv[2]]
r = subprocess.run(shlex.split(h["entry"]) + args, capture_output=True, text=True)
sys.stderr.write(r.stderr)
print(r.returncode)
PY
}
PATH=$scratch/bin:$PATH
[[ $(hook committed.diff 2>hook.err) == 0 && ! -s hook.err ]] || { cat hook.err >&2; fail "hook: the committed patch is not clean, or -q printed"; }
[[ $(hook stale.diff 2>hook.err) == 1 ]] && grep -q '^verify: drift: stale.diff is stale' hook.err ||
  { cat hook.err >&2; fail "hook: a stale patch does not fail with 1"; }
ok "pre-commit hook: exit 0 with the committed patch (silent), 1 with a stale one"
