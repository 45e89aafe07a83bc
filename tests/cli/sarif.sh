#!/usr/bin/env bash
# `verify --format sarif` validated against the SARIF 2.1.0 JSON schema: a
# drifting tree (one result per finding, every level), a stale patch, and a
# clean tree (no result). The schema is the one npm's @microsoft/jest-sarif
# ships (lib/schemas/sarif-2.1.0-rtm.5.json, the 2.1.0 schema), checked
# against its pinned integrity; the validator is ajv-cli with ajv-formats.
# Both are installed with npm into the build folder (sarif-tools/) once.
# The schema is draft-04, so `ajv migrate` turns it into draft-07 first, and
# one pattern's lone ']' (literal in a JavaScript regex without the u flag,
# an error with it, which ajv 8 sets) is escaped: the same pattern.
# Without npm the test is skipped (exit 77).
#
# Usage: sarif.sh MUHPATCH
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
fail() { echo "FAIL: sarif: $*" >&2; exit 1; }
command -v npm >/dev/null || { echo "skipped: npm is not installed"; exit 77; }

schema_pkg=@microsoft/jest-sarif@1.0.0-beta.0
schema_sri=sha512-A1fOhPd6Ic5iDk4F9YPw1qNB4XF+7+IviR7xl8r2F6QzQkx5cpY9LsGk2rExiFIEcBbjpVnSmwWGBukASkiQ9A==
tools=$(dirname "$muhpatch")/sarif-tools
if [[ ! -f $tools/ready ]]; then
  rm -rf "$tools" && mkdir -p "$tools/pack"
  (cd "$tools/pack" && npm pack --silent "$schema_pkg" >/dev/null) || fail "npm pack $schema_pkg failed"
  tgz=$(ls "$tools"/pack/*.tgz)
  got=$(python3 -c 'import base64, hashlib, sys; print("sha512-" + base64.b64encode(hashlib.sha512(open(sys.argv[1], "rb").read()).digest()).decode())' "$tgz")
  [[ $got == "$schema_sri" ]] || fail "$schema_pkg: integrity $got, pinned $schema_sri"
  tar -xzf "$tgz" -C "$tools/pack" package/lib/schemas/sarif-2.1.0-rtm.5.json
  npm install --silent --no-audit --no-fund --prefix "$tools" ajv-cli@5.0.0 ajv-formats@3.0.1 >/dev/null ||
    fail "npm install ajv-cli failed"
  (cd "$tools" && ./node_modules/.bin/ajv migrate -s pack/package/lib/schemas/sarif-2.1.0-rtm.5.json \
    -o migrated.json >/dev/null) || fail "ajv migrate failed"
  sed 's/{2}]?\$/{2}\\\\]?$/' "$tools/migrated.json" >"$tools/sarif-2.1.0.json"
  touch "$tools/ready"
fi
validate() {  # validate FILE.json WHAT
  (cd "$tools" && ./node_modules/.bin/ajv validate --strict=false -c ajv-formats -s sarif-2.1.0.json -d "$1" >/dev/null 2>"$1.err") ||
    { cat "$1.err" >&2; fail "$2: not valid SARIF 2.1.0"; }
  echo "ok $2: valid SARIF 2.1.0"
}

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp -a "$repo/fixtures/enginex-vllm" "$scratch/tree"
cp "$repo/rules/bi100.yaml" "$scratch/rules.yaml"
cp "$repo/fixtures/cases/enginex_vllm/measured-card.yaml" "$scratch/card.yaml"
cd "$scratch"
set +e
"$muhpatch" verify --hw card.yaml rules.yaml tree --format sarif >drift.json 2>drift.err
code=$?
set -e
[[ $code -eq 1 ]] || fail "pristine tree: exit $code, expected 1"
validate "$scratch/drift.json" "verify --format sarif on a drifting tree"
[[ $(tail -n 1 drift.err) == "verify: drift: "* ]] || fail "the verdict is not on stderr"
python3 - drift.json <<'PY' || fail "the SARIF log does not hold the findings"
import json, sys
log = json.load(open(sys.argv[1]))
run = log["runs"][0]
rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
assert run["tool"]["driver"]["name"] == "muhpatch"
res = run["results"]
assert {r["level"] for r in res} == {"error", "note"}, {r["level"] for r in res}
for r in res:
    assert rules[r["ruleIndex"]] == r["ruleId"]
    if "locations" not in r:  # a note about the run itself (dead sites left alone)
        assert r["level"] == "note", r
        continue
    loc = r["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"].startswith("tree/vllm/"), loc
    assert loc["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
    assert loc["region"]["startLine"] > 0
site = [r for r in res if r["ruleId"] == "site"]
assert site and all(r["properties"]["muhpatch-rule"] for r in site)
PY
"$muhpatch" diff --hw card.yaml rules.yaml tree >committed.diff 2>/dev/null
sed -i '0,/^+    return 48 \* 1024/s//+    return 64 * 1024/' committed.diff
set +e
"$muhpatch" verify --hw card.yaml rules.yaml tree --patch committed.diff --format sarif >stale.json 2>/dev/null
set -e
validate "$scratch/stale.json" "verify --format sarif on a stale patch"
grep -q '"ruleId": "stale"' stale.json || fail "no stale result"
"$muhpatch" apply --hw card.yaml rules.yaml tree 2>/dev/null
"$muhpatch" verify --hw card.yaml rules.yaml tree --format sarif >clean.json 2>/dev/null || fail "patched tree: not clean"
validate "$scratch/clean.json" "verify --format sarif on a clean tree"
python3 -c 'import json,sys; assert all(r["level"] == "note" for r in json.load(open(sys.argv[1]))["runs"][0]["results"])' clean.json ||
  fail "a clean tree has error results"
