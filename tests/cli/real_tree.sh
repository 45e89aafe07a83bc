#!/usr/bin/env bash
# rules/bi100.yaml on the real enginex-vllm tree (../shared/targets/enginex-vllm
# beside the checkout, read-only; see its README). Every run works on copies
# in a scratch folder. Three copies are checked:
#   lf    the tree as published;
#   crlf  its twin with every LF-only line turned into CRLF (the one CRLF
#         file stays as it is);
#   v2    the LF tree with paged_attention_v2's bare `raise` replaced by a
#         call of a v2 kernel, so the paged-attention rules plan instead of being
#         skipped by their precondition.
# For each copy:
#   - `status` prints the outcome table in tests/cli/real_tree/ (rule id,
#     file:line, value now, the model's value, what diff does with the site);
#   - `diff` exits 0, prints a patch touching exactly the expected files with
#     the expected number of hunks, and modifies nothing;
#   - the rules that rewrite, that are skipped and that find their value
#     already in place are exactly the sets stated below (from the `writes`
#     and `skipped` notes of `diff --explain` and the summary line); diff's
#     stderr is that summary line alone, and -v lists every rule left alone;
#   - `git apply --check` (in a git repo made from the copy) and
#     `patch -p1 --dry-run` accept the patch;
#   - `verify --patch P` on the pristine copy exits 0 (so the whole-tree
#     search finds no knob outside its files but the `also-matches` copies);
#   - `apply` exits 0, changes exactly the expected files, byte for byte what
#     `patch -p1` gives, and every patched file passes `python3 -m py_compile`;
#   - a second `apply` exits 0 and changes nothing (hashes of every file);
#   - `verify` and `verify --patch P` on the patched copy exit 0.
# For crlf: its patch is the lf patch with a CR before every hunk line's LF,
# and the patched files are still CRLF throughout.
# Only outcomes are asserted and printed (exit codes, paths, counts, rule
# ids); no line of the tree is written anywhere outside the scratch folder.
# Without the real tree the test prints why and exits 77 (CTest: skipped).
#
# Usage: real_tree.sh MUHPATCH
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
real=$repo/../shared/targets/enginex-vllm
if [[ ! -d $real/vllm ]]; then
  echo "skip: real_tree: the real enginex-vllm tree is not at $real (../shared/targets/enginex-vllm beside the checkout)"
  exit 77
fi
real=$(realpath "$real")

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: real_tree: $*" >&2; exit 1; }
ok() { echo "ok $*"; }
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=$scratch
export PYTHONPYCACHEPREFIX=$scratch/pycache  # py_compile writes no __pycache__ into the copies
cp "$repo/rules/bi100.yaml" "$scratch/rules.yaml"
cd "$scratch"

mapfile -t all_rules < <(sed -n 's/^  - id: *\([^ ]*\) *$/\1/p' rules.yaml | LC_ALL=C sort)
[[ ${#all_rules[@]} -eq 15 ]] || fail "rules.yaml has ${#all_rules[@]} rules, this test states the outcome of 15"

# What the rules do on the published tree: paged_attention_v2 is a bare
# raise, so the four paged-attention rules are skipped. The liveness
# analysis finds the other knobs dead on the served platform but the three
# fused-MoE tiers (one rule for the chain): prefix-prefill is imported only under HAS_TRITON = False,
# the autotune list only by the ROCm backend, the dicts' BLOCK_SIZE_M is
# overwritten by the tiers, and no code that runs reads their N and K. diff
# leaves those alone. The shared-memory function is unknown (nothing calls
# it by name, but its module takes globals()) and already at its value.
lf_rewrite="fused-moe-tier-block-m"
lf_skipped="paged-attn-partition-size paged-attn-use-v1-override paged-attn-v1-max-context
  paged-attn-v1-min-work"
lf_dead="flash-attn-autotune-configs fused-moe-default-block-k
  fused-moe-default-block-m fused-moe-default-block-n fused-moe-small-m-block-k
  fused-moe-small-m-block-m fused-moe-small-m-block-n prefix-prefill-block prefix-prefill-num-warps"
lf_files="vllm/model_executor/layers/fused_moe/fused_moe.py"
lf_hunks=1
# With v2 implemented: the v1 thresholds and the override change too (the
# heuristic is live once the override rule deletes `use_v1 = True`);
# _PARTITION_SIZE keeps the 512 the prebuilt v2 kernel is built for.
v2_rewrite="$lf_rewrite paged-attn-use-v1-override paged-attn-v1-max-context paged-attn-v1-min-work"
v2_skipped=""
v2_dead=$lf_dead
v2_files="$lf_files vllm/attention/ops/paged_attn.py"
v2_hunks=2

words() { tr -s ' \n' '\n\n' <<<"$1" | sed '/^$/d' | LC_ALL=C sort -u; }

# The copies, made writable (the shared tree is read-only).
for c in lf crlf v2; do
  cp -a "$real" "$c"
  chmod -R u+w "$c"
done
python3 - crlf <<'PY' || fail "could not make the CRLF twin"
import pathlib, re, sys
for p in sorted(pathlib.Path(sys.argv[1]).rglob('*')):
    if p.is_file() and not p.is_symlink():
        b = p.read_bytes()
        nb = re.sub(rb'(?<!\r)\n', b'\r\n', b)
        if nb != b:
            p.write_bytes(nb)
PY
python3 - v2/vllm/_custom_ops.py <<'PY' || fail "could not give the v2 copy a paged_attention_v2 body"
import re, sys
path = sys.argv[1]
src = open(path, encoding='utf-8').read()
at = src.index('def paged_attention_v2(')
body = re.compile(r'raise NotImplementedError\(\)').search(src, at)
assert body, 'no raise in paged_attention_v2'
# A stand-in body that launches a v2 kernel, as upstream's does (the
# precondition asks for such a call, not merely for no bare raise).
src = src[:body.start()] + 'torch.ops._C.paged_attention_v2(out, exp_sum, max_logits, tmp_out, query)' + src[body.end():]
open(path, 'w', encoding='utf-8').write(src)
PY
ok "copies of the real tree: lf, crlf (LF-only lines made CRLF), v2 (paged_attention_v2 given a body)"

hashes() { (cd "$1" && find . -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum); }

check() {
  local name=$1 want_rewrite want_skipped want_files want_hunks want_dead
  want_rewrite=$(words "$2")
  want_skipped=$(words "$3")
  want_files=$(words "$4")
  want_hunks=$5
  want_dead=$(words "$6")
  local t=$name.work code
  cp -a "$name" "$t"

  # --- diff ------------------------------------------------------------------
  set +e
  "$muhpatch" diff rules.yaml "$t" >"$name.diff" 2>"$name.diff.err"
  code=$?
  set -e
  [[ $code -eq 0 ]] || { cat "$name.diff.err" >&2; fail "$name: diff exited $code, expected 0"; }
  [[ -s $name.diff ]] || fail "$name: diff printed nothing"
  diff -r "$name" "$t" >/dev/null || fail "$name: diff modified the tree"
  local files hunks
  files=$(sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "$name.diff" | LC_ALL=C sort -u)
  [[ $files == "$want_files" ]] || fail "$name: the patch touches $(echo $files), expected $(echo $want_files)"
  hunks=$(grep -c '^@@ ' "$name.diff")
  [[ $hunks -eq $want_hunks ]] || fail "$name: the patch has $hunks hunks, expected $want_hunks"
  ok "$name: diff exits 0, modifies nothing, $hunks hunks in $(wc -w <<<"$files") files: $(echo $files)"

  # --- which rules rewrite, are skipped, are already at their value ------------
  set +e
  "$muhpatch" diff -v --explain rules.yaml "$t" >/dev/null 2>"$name.explain.err"
  code=$?
  set -e
  [[ $code -eq 0 ]] || fail "$name: diff -v --explain exited $code"
  local rewrite skipped at_value want_at_value summary
  rewrite=$(sed -n "s/.*: note: rule '\([^']*\)' writes .*/\1/p" "$name.explain.err" | LC_ALL=C sort -u)
  skipped=$(sed -n "s/.*: note: rule '\([^']*\)' skipped: .*/\1/p" "$name.explain.err" | LC_ALL=C sort -u)
  [[ $rewrite == "$want_rewrite" ]] ||
    fail "$name: rules that rewrite: $(echo $rewrite); expected: $(echo $want_rewrite)"
  [[ $skipped == "$want_skipped" ]] ||
    fail "$name: rules skipped: $(echo $skipped); expected: $(echo $want_skipped)"
  local dead
  dead=$(sed -n 's/^muhpatch: rule \([^:]*\): dead\(; left: [^\r]*\)\{0,1\}\r\{0,1\}$/\1/p' "$name.diff" | LC_ALL=C sort -u)
  [[ $dead == "$want_dead" ]] ||
    fail "$name: rules left alone as dead: $(echo $dead); expected: $(echo $want_dead)"
  at_value=$(printf '%s\n' "${all_rules[@]}" | LC_ALL=C comm -23 - <(printf '%s\n%s\n%s\n' "$rewrite" "$skipped" "$dead" | sed '/^$/d' | LC_ALL=C sort))
  local n_at n_left
  n_at=$(wc -w <<<"$at_value")
  n_left=$((n_at + $(wc -w <<<"$skipped") + $(wc -w <<<"$dead")))
  summary="15 rules: $(wc -w <<<"$rewrite") rewrite"
  [[ $n_at -eq 1 ]] && summary+=", 1 already at its value"
  [[ $n_at -gt 1 ]] && summary+=", $n_at already at their value"
  [[ -n $skipped ]] && summary+=", $(wc -w <<<"$skipped") skipped"
  [[ -n $dead ]] && summary+=", $(wc -w <<<"$dead") dead"
  # Then the sites by liveness; under -v the line does not offer -v.
  local sites
  sites=$(sed -n "s/^muhpatch: $summary; \([0-9]* sites: [0-9]* live, [0-9]* dead, [0-9]* unknown\) (\`muhpatch status\` says why each is left alone)\$/\1/p" "$name.explain.err")
  [[ -n $sites ]] || fail "$name: no summary line '$summary; N sites: ...' in diff -v"
  summary+="; $sites (-v lists the $n_left left alone; \`muhpatch status\` says why)"
  # Quiet by default: no rule fails and every site's liveness is known, so
  # diff's stderr is the summary line alone.
  [[ $(cat "$name.diff.err") == "muhpatch: $summary" ]] ||
    { cat "$name.diff.err" >&2; fail "$name: diff's stderr is not the one summary line"; }
  # -v lists each rule left alone at its knob, with its reason.
  local listed
  # (A rule that rewrites may list some sites at value too: the tier family's bounds.)
  listed=$(sed -n "s/.*: note: rule '\([^']*\)' \(skipped\|left alone\|at its value\).*/\1/p" "$name.explain.err" |
    LC_ALL=C sort -u | LC_ALL=C comm -23 - <(tr ' ' '\n' <<<"$rewrite" | sed '/^$/d' | LC_ALL=C sort))
  [[ $(wc -w <<<"$listed") -eq $n_left ]] ||
    fail "$name: diff -v lists $(wc -w <<<"$listed") rules left alone, expected $n_left"
  ok "$name: $summary; rewrite: $(echo $rewrite); skipped: $(echo ${skipped:-none}); dead: $(echo ${dead:-none}); at value: $(echo ${at_value:-none})"

  # --- the outcome table: status against its golden --------------------------------
  # tests/cli/real_tree/NAME.status holds ids, paths, lines and values only
  # (the twin's table is the LF one's). MUHPATCH_UPDATE_GOLDENS=1 rewrites it.
  local golden=$repo/tests/cli/real_tree/${name/crlf/lf}.status
  set +e
  "$muhpatch" status rules.yaml "$t" >"$name.status" 2>"$name.status.err"
  code=$?
  set -e
  [[ $code -eq 0 ]] || { cat "$name.status.err" >&2; fail "$name: status exited $code"; }
  if [[ ${MUHPATCH_UPDATE_GOLDENS:-} == 1 && $name != crlf ]]; then
    cp "$name.status" "$golden"
  fi
  diff -u "$golden" "$name.status" >&2 || fail "$name: status differs from $golden"
  ok "$name: status matches its golden outcome table ($(($(wc -l <"$name.status") - 1)) sites)"

  # --- the patch applies with git and patch ------------------------------------
  cp -a "$name" "$name.git"
  (cd "$name.git" && git init -q . && git apply --check "../$name.diff") ||
    fail "$name: git apply --check rejects the patch"
  (cd "$name" && patch -p1 --dry-run --batch --quiet <"../$name.diff" >/dev/null) ||
    fail "$name: patch -p1 --dry-run rejects the patch"
  ok "$name: git apply --check and patch -p1 --dry-run accept the patch"

  # --- verify on the pristine copy ---------------------------------------------
  set +e
  "$muhpatch" verify rules.yaml "$t" --patch "$name.diff" >"$name.verify.out" 2>"$name.verify.err"
  code=$?
  set -e
  [[ $code -eq 0 ]] || { cat "$name.verify.out" "$name.verify.err" >&2; fail "$name: verify --patch on the pristine tree exited $code"; }
  diff -r "$name" "$t" >/dev/null || fail "$name: verify modified the tree"
  ok "$name: verify --patch on the pristine tree exits 0"

  # --- apply -------------------------------------------------------------------
  set +e
  "$muhpatch" apply rules.yaml "$t" >"$name.apply.out" 2>"$name.apply.err"
  code=$?
  set -e
  [[ $code -eq 0 ]] || { cat "$name.apply.err" >&2; fail "$name: apply exited $code"; }
  [[ -s $name.apply.out ]] && fail "$name: apply wrote to stdout"
  local changed
  diff -rq "$name" "$t" >"$name.changed" || true
  changed=$(sed -n "s|^Files $name/\([^ ]*\) and .* differ\$|\1|p" "$name.changed" | LC_ALL=C sort)
  [[ $(wc -l <"$name.changed") -eq $(wc -w <<<"$changed") ]] || fail "$name: apply added or removed files"
  [[ $changed == "$want_files" ]] || fail "$name: apply changed $(echo $changed), expected $(echo $want_files)"
  cp -a "$name" "$name.bypatch"
  (cd "$name.bypatch" && patch -p1 --batch --quiet --no-backup-if-mismatch <"../$name.diff" >/dev/null) ||
    fail "$name: patch -p1 failed"
  diff -r "$name.bypatch" "$t" >/dev/null || fail "$name: patch -p1 gives other bytes than apply"
  local f
  for f in $changed; do
    python3 -m py_compile "$t/$f" 2>/dev/null || fail "$name: $f does not py_compile after apply"
  done
  ok "$name: apply exits 0, changes exactly the patched files as patch -p1 does, each py_compiles"

  # --- a second apply changes nothing ----------------------------------------------
  hashes "$t" >"$name.h1"
  set +e
  "$muhpatch" apply rules.yaml "$t" >/dev/null 2>"$name.apply2.err"
  code=$?
  set -e
  [[ $code -eq 0 ]] || { cat "$name.apply2.err" >&2; fail "$name: second apply exited $code"; }
  hashes "$t" >"$name.h2"
  cmp -s "$name.h1" "$name.h2" || fail "$name: second apply changed files"
  ok "$name: second apply exits 0, every file hash unchanged"

  # --- verify on the patched copy ----------------------------------------------------
  for args in "" "--patch $name.diff"; do
    set +e
    # shellcheck disable=SC2086
    "$muhpatch" verify rules.yaml "$t" $args >"$name.verify2.out" 2>"$name.verify2.err"
    code=$?
    set -e
    [[ $code -eq 0 ]] ||
      { cat "$name.verify2.out" "$name.verify2.err" >&2; fail "$name: verify ${args:-(no --patch)} on the patched tree exited $code"; }
  done
  hashes "$t" >"$name.h3"
  cmp -s "$name.h1" "$name.h3" || fail "$name: verify changed files"
  ok "$name: verify and verify --patch on the patched tree exit 0"

  # --- one tier of the patched copy edited back (lf only) ----------------------------
  # It holds part of the patch: verify's advice writes the site again (a
  # refresh from this tree would drop the other tiers' changes).
  [[ $name == lf ]] || return 0
  local moe=vllm/model_executor/layers/fused_moe/fused_moe.py first line
  first=$(grep -m1 "^-        config\['BLOCK_SIZE_M'\] = " "$name.diff" | sed 's/.*= //')
  line=$(grep -n -m1 "^        config\['BLOCK_SIZE_M'\] = 16$" "$t/$moe" | cut -d: -f1)
  [[ -n $first && -n $line ]] || fail "$name: no tier to edit back"
  cp "$name.diff" "$name.kept.diff"
  sed -i "${line}s/= 16\$/= $first/" "$t/$moe"
  set +e
  "$muhpatch" -q verify rules.yaml "$t" --patch "$name.diff" 2>"$name.back.err"
  code=$?
  set -e
  [[ $code -eq 1 ]] || { cat "$name.back.err" >&2; fail "$name: a tier edited back: verify exited $code"; }
  grep -q "^$t/$moe:$line:[0-9]*: error: drift: rule 'fused-moe-tier-block-m' finds '$first' where the model derives '16'; next: muhpatch apply rules.yaml $t$" "$name.back.err" &&
    grep -q "the tree holds part of the patch, and a patch made from it would drop the rest; next: muhpatch apply rules.yaml $t$" "$name.back.err" ||
    { cat "$name.back.err" >&2; fail "$name: a tier edited back: no site finding, or advice other than apply"; }
  "$muhpatch" -q apply rules.yaml "$t" 2>/dev/null
  "$muhpatch" -q verify rules.yaml "$t" --patch "$name.diff" 2>/dev/null || fail "$name: a tier edited back: verify is not clean after the advised apply"
  cmp -s "$name.diff" "$name.kept.diff" || fail "$name: a tier edited back: the patch changed"
  ok "$name: a tier of the patched tree edited back: found at line $line, and the advised apply restores it, the patch untouched"
}

check lf "$lf_rewrite" "$lf_skipped" "$lf_files" "$lf_hunks" "$lf_dead"
check crlf "$lf_rewrite" "$lf_skipped" "$lf_files" "$lf_hunks" "$lf_dead"
check v2 "$v2_rewrite" "$v2_skipped" "$v2_files" "$v2_hunks" "$v2_dead"

# The CRLF twin's patch is the LF patch with CRs in its hunk lines, and the
# files it patched are still CRLF throughout.
python3 - lf.diff crlf.diff crlf.work $lf_files <<'PY' || fail "crlf: the CRLF patch or patched files are not the LF ones with CRLF"
import sys
lf = open(sys.argv[1], 'rb').read()
crlf = open(sys.argv[2], 'rb').read()
assert crlf != lf, 'the CRLF patch has no CR at all'
assert crlf.replace(b'\r\n', b'\n') == lf, 'the CRLF patch is not the LF patch plus CRs'
for line in crlf.split(b'\n'):
    if line[:1] in (b' ', b'-', b'+') and not line.startswith((b'--- ', b'+++ ')):
        assert line.endswith(b'\r'), 'a hunk line without its CR'
for f in sys.argv[4:]:
    data = open(sys.argv[3] + '/' + f, 'rb').read()
    assert data.count(b'\n') == data.count(b'\r\n'), f + ' has a bare LF after apply'
PY
ok "crlf: its patch is the LF patch with CRLF hunk lines; the patched files stay CRLF"

# NUM_WARPS = 8 written twice in context_attention_fwd (prefix_prefill is
# dead on the served platform). The rule names its knob by what it is
# (value-of: the value NUM_WARPS holds where the launch reads it, below
# SM80), so its site is the second write, the one that runs; the first is
# overwritten and no site. No rule fails: status shows the site at the
# copy's line, dead as before, diff exits 0 and the committed patch still
# verifies clean. (A query that matches the overwritten write is caught as a
# site multiplied: evolution/site_multiplied.)
cp -a lf twice && chmod -R u+w twice
python3 - twice/vllm/attention/ops/prefix_prefill.py <<'PY' || fail "could not write NUM_WARPS twice"
import sys
path = sys.argv[1]
src = open(path, encoding='utf-8').read()
line = '        NUM_WARPS = 8\n'
assert src.count(line) == 1, 'NUM_WARPS = 8 is not written once'
open(path, 'w', encoding='utf-8').write(src.replace(line, line + line))
PY
copy_line=$(grep -n '^        NUM_WARPS = 8$' twice/vllm/attention/ops/prefix_prefill.py | sed -n '2s/:.*//p')
set +e
"$muhpatch" status rules.yaml twice >twice.status 2>/dev/null
code=$?
set -e
[[ $code -eq 0 ]] || { cat twice.status >&2; fail "NUM_WARPS twice: status exited $code, expected 0"; }
grep -q "^prefix-prefill-num-warps  *vllm/attention/ops/prefix_prefill.py:$copy_line .* dead" twice.status ||
  { cat twice.status >&2; fail "NUM_WARPS twice: status has no dead row at the copy's line $copy_line"; }
[[ $(grep -c '^prefix-prefill-num-warps ' twice.status) -eq 1 ]] || fail "NUM_WARPS twice: more than one row"
set +e
"$muhpatch" diff rules.yaml twice >/dev/null 2>twice.diff.err
code=$?
"$muhpatch" verify rules.yaml twice --patch lf.diff >/dev/null 2>twice.verify.err
vcode=$?
set -e
[[ $code -eq 0 ]] || { cat twice.diff.err >&2; fail "NUM_WARPS twice: diff exited $code, expected 0"; }
[[ $vcode -eq 0 ]] || { cat twice.verify.err >&2; fail "NUM_WARPS twice: verify --patch lf.diff exited $vcode, expected 0"; }
ok "NUM_WARPS = 8 written twice: the rule's site is the write that runs (line $copy_line, dead); status, diff and verify --patch exit 0"

# Issue 39: the flash-attention autotune site is dead only while
# VLLM_ATTENTION_BACKEND is unset (vLLM's default), and says so; declared
# ROCM_FLASH in the rule file or in the serving command, it is live, and
# verify reports the flip as drift naming the assumption.
grep -q "^flash-attn-autotune-configs .* dead .*assuming platform cuda, compute capability 7.0, VLLM_ATTENTION_BACKEND unset (vLLM's default) and the environment the tree writes by its callers' keys (vllm/executor/ray_utils.py:94, vllm/utils.py:611) copies the serving process's own" \
  <("$muhpatch" status rules.yaml lf 2>/dev/null) || fail "unset: the autotune site is not dead naming the assumption"
sed 's/^  platform: cuda.*$/  platform: cuda\n  environment:\n    VLLM_ATTENTION_BACKEND: ROCM_FLASH/' rules.yaml >rocm.yaml
grep -q "VLLM_ATTENTION_BACKEND: ROCM_FLASH" rocm.yaml || fail "could not declare the variable"
echo "VLLM_ATTENTION_BACKEND=ROCM_FLASH vllm serve /models/m --max-num-seqs 64" >serve.txt
for how in "rocm.yaml lf" "rules.yaml lf --serve-args serve.txt"; do
  # shellcheck disable=SC2086
  "$muhpatch" status $how >rocm.status 2>/dev/null || true
  grep -qE "^flash-attn-autotune-configs .* (live|unknown) " rocm.status ||
    { cat rocm.status >&2; fail "ROCM_FLASH ($how): the autotune site is still dead"; }
done
set +e
"$muhpatch" verify rocm.yaml lf --patch lf.diff >/dev/null 2>rocm.verify.err
code=$?
set -e
[[ $code -eq 1 ]] || fail "verify under ROCM_FLASH: exit $code, expected 1"
grep -q "drift: rule 'flash-attn-autotune-configs' was 'dead' when lf.diff was made and is 'rewrites' now, resting on VLLM_ATTENTION_BACKEND=ROCM_FLASH (rule file)" rocm.verify.err ||
  { cat rocm.verify.err >&2; fail "verify under ROCM_FLASH does not name the assumption"; }
ok "the autotune site: dead 'assuming VLLM_ATTENTION_BACKEND unset (vLLM's default)'; live with ROCM_FLASH in the rule file or the serving command; verify names the flip's assumption"

# envs.py binding the variable's name at its top level shadows its lazy
# __getattr__ (a helper probe of 2893764): the backend is then not the
# default's, and the autotune site is not dead.
cp -a lf envs_bound
chmod -R u+w envs_bound
sed -i 's/^def __getattr__(name: str):/VLLM_ATTENTION_BACKEND = "ROCM_FLASH"\n\n\ndef __getattr__(name: str):/' envs_bound/vllm/envs.py
grep -q '^VLLM_ATTENTION_BACKEND = "ROCM_FLASH"$' envs_bound/vllm/envs.py || fail "envs.py: could not bind the name"
"$muhpatch" status rules.yaml envs_bound >envs.status 2>/dev/null || true
grep -qE "^flash-attn-autotune-configs .* (live|unknown) " envs.status ||
  { cat envs.status >&2; fail "envs.py binds VLLM_ATTENTION_BACKEND: the autotune site is still dead"; }
ok "envs.py binding VLLM_ATTENTION_BACKEND at its top level: the autotune site is not dead"

# A parameter named like a module flag (a helper probe of 2178177): the
# test inside the function reads the parameter (True by default), so the
# dicts' N and K, read there, are not dead, though the module's flag is False.
cp -a lf shadow
chmod -R u+w shadow
python3 - shadow/vllm/model_executor/layers/fused_moe/fused_moe.py <<'PY' || fail "could not add the flag and the parameter"
import sys
path = sys.argv[1]
src = open(path).read()
flag = "logger = init_logger(__name__)\n"
sig = "use_fp8_w8a8: bool, use_int8_w8a16: bool) -> None:\n    ops.invoke_fused_moe_kernel("
assert src.count(flag) == 1 and src.count(sig) == 1
src = src.replace(flag, flag + "\npass_nk_tiles = False\n")
src = src.replace(sig, "use_fp8_w8a8: bool, use_int8_w8a16: bool,\n"
                  "                            pass_nk_tiles: bool = True) -> None:\n"
                  "    if pass_nk_tiles:\n"
                  "        ops.set_moe_tiles(config['BLOCK_SIZE_N'], config['BLOCK_SIZE_K'])\n"
                  "    ops.invoke_fused_moe_kernel(")
open(path, "w").write(src)
PY
"$muhpatch" status rules.yaml shadow >shadow.status 2>/dev/null || true
for rule in fused-moe-default-block-n fused-moe-default-block-k fused-moe-small-m-block-n fused-moe-small-m-block-k; do
  grep -qE "^$rule .* (live|unknown) " shadow.status ||
    { cat shadow.status >&2; fail "a parameter shadows the module flag: $rule is still dead"; }
done
grep -qE "^fused-moe-default-block-n .* dead " <("$muhpatch" status rules.yaml lf 2>/dev/null) ||
  fail "the published tree: fused-moe-default-block-n is not dead"
ok "a parameter named like a module flag False: the dicts' N and K read under it are not dead"

# The dicts' consumer decorated (a helper probe of 2178177): its wrapper
# reads every key (`**args[12]`), so a key nothing else reads is not dead.
cp -a lf decorated
chmod -R u+w decorated
python3 - decorated/vllm/model_executor/layers/fused_moe/fused_moe.py <<'PY' || fail "could not decorate the kernel's caller"
import sys
path = sys.argv[1]
src = open(path).read()
head = "\ndef invoke_fused_moe_kernel("
assert src.count(head) == 1
src = src.replace(head, "\ndef _push_tiles(fn):\n\n    def wrapper(*args, **kwargs):\n"
                  "        ops.set_moe_tiles(**args[12])\n        return fn(*args, **kwargs)\n\n"
                  "    return wrapper\n\n\n@_push_tiles" + head)
open(path, "w").write(src)
PY
"$muhpatch" status rules.yaml decorated >decorated.status 2>/dev/null || true
grep -qE "^fused-moe-default-block-k .* unknown " decorated.status ||
  { cat decorated.status >&2; fail "the consumer decorated: fused-moe-default-block-k is not unknown"; }
ok "the dicts' consumer decorated: a key only its wrapper may read is unknown, not dead"

# The tier value clamped where it is used (a helper probe of 2178177):
# `max(config['BLOCK_SIZE_M'], 32)` where the alignment op and the kernel's
# binding take it. CPython: the kernel gets max(16, 32) = 32, not the 16
# the rule writes. The rule fails, at the first clamp, and writes nothing.
cp -a lf clamped
chmod -R u+w clamped
python3 - clamped <<'PY' || fail "could not clamp the reads"
import sys
root = sys.argv[1]
for rel, old in (("vllm/_custom_ops.py", "        top_k,\n        config['BLOCK_SIZE_M']\n"),
                 ("vllm/model_executor/layers/fused_moe/fused_moe.py",
                  "moe_align_block_size(curr_topk_ids, config['BLOCK_SIZE_M'], E)")):
    path = root + "/" + rel
    src = open(path).read()
    assert src.count(old) == 1, rel
    open(path, "w").write(src.replace(old, old.replace("config['BLOCK_SIZE_M']",
                                                       "max(config['BLOCK_SIZE_M'], 32)")))
PY
rc=0
"$muhpatch" diff rules.yaml clamped >clamped.diff 2>clamped.err || rc=$?
[[ $rc -eq 6 ]] || { cat clamped.err >&2; fail "clamped reads: diff exit $rc, want 6"; }
grep -qF "clamped/vllm/_custom_ops.py:785:9: error: rule 'fused-moe-tier-block-m': the value its site writes (vllm/model_executor/layers/fused_moe/fused_moe.py:357, '16') is read here and changed before a call takes it (\`max(config['BLOCK_SIZE_M'], 32)\`)" clamped.err ||
  { cat clamped.err >&2; fail "clamped reads: no error at the clamp"; }
if grep -q "BLOCK_SIZE_M'\] = 16" clamped.diff; then fail "clamped reads: the tiers were rewritten"; fi
ok "the tier value clamped where the kernel's binding takes it: the rule fails at the clamp"

# Triton turned on as upstream does (a helper probe of 1c9f191). The tree
# pins its compute capability: vllm/platforms/cuda.py's
# get_physical_device_capability returns [9, 0], so CPython's
# has_device_capability(80) is True on the BI-V100 and the prefix-prefill
# kernel launches with the SM80 tiles. The rules whose values are for
# devices below SM80 fail, naming that definition; a branch on the
# capability is not dead.
cp -a lf triton_on
chmod -R u+w triton_on
sed -i 's/^HAS_TRITON = False$/HAS_TRITON = find_spec("triton") is not None/' triton_on/vllm/triton_utils/importing.py
grep -q '^HAS_TRITON = find_spec' triton_on/vllm/triton_utils/importing.py || fail "could not turn Triton on"
rc=0
"$muhpatch" diff rules.yaml triton_on >triton_on.diff 2>triton_on.err || rc=$?
[[ $rc -eq 6 ]] || { cat triton_on.err >&2; fail "Triton on: diff exit $rc, want 6"; }
for rule in prefix-prefill-block prefix-prefill-num-warps; do
  grep -qF "error: rule '$rule' would write" triton_on.err ||
    { cat triton_on.err >&2; fail "Triton on: $rule is not refused"; }
done
grep -qF "a test the tree answers itself: the tree's get_physical_device_capability() returns [9,0] whatever the device (vllm/platforms/cuda.py:49)" triton_on.err ||
  { cat triton_on.err >&2; fail "Triton on: the refusal does not name cuda.py:49"; }
python3 - triton_on/vllm/attention/ops/paged_attn.py <<'PY' || fail "could not gate the import on the capability"
import sys
path = sys.argv[1]
src = open(path).read()
assert src.count("\nif HAS_TRITON:\n") == 1
open(path, "w").write(src.replace("\nif HAS_TRITON:\n", "\nfrom vllm.platforms import current_platform\n"
                                  "if HAS_TRITON and current_platform.has_device_capability(80):\n"))
PY
"$muhpatch" status rules.yaml triton_on >triton_on.status 2>/dev/null || true
grep -qE "^prefix-prefill-block " triton_on.status || { cat triton_on.status >&2; fail "no prefix-prefill-block row"; }
if grep -qE "^prefix-prefill-block .* dead" triton_on.status; then
  cat triton_on.status >&2; fail "the import gated on has_device_capability(80): the site is still dead"
fi
ok "Triton on: the tree's pinned capability refuses the below-SM80 rules, and decides no branch"

# The shared-memory function's name bound to another function after its def
# (a helper probe of 1c9f191): CPython's callers never run the def's
# `return`, so the tree states no shared-memory fact there.
cp -a lf smem_rebound
chmod -R u+w smem_rebound
python3 - smem_rebound/vllm/_custom_ops.py <<'PY' || fail "could not rebind the smem function"
import sys
path = sys.argv[1]
src = open(path).read()
old = "def get_max_shared_memory_per_block_device_attribute(device: int) -> int:\n    return 32 * 1024\n"
assert src.count(old) == 1
src = src.replace(old, old.replace("32 * 1024", "48 * 1024") +
                  "\n\ndef _optin(device: int) -> int:\n    return get_device_attribute(97, device)\n\n\n"
                  "get_max_shared_memory_per_block_device_attribute = _optin\n")
open(path, "w").write(src)
PY
"$muhpatch" model rules.yaml --tree smem_rebound >smem_rebound.model 2>smem_rebound.err || fail "model --tree failed"
grep -qF "smem_rebound/vllm/_custom_ops.py:899:1: note: smem_per_block is not read from line 892 (\`return 48 * 1024\`)" smem_rebound.err ||
  { cat smem_rebound.err >&2; fail "the rebound smem function: no note"; }
if grep -q "the tree's value" smem_rebound.model; then
  cat smem_rebound.model >&2; fail "the rebound smem function's return is still the tree's fact"
fi
ok "the smem function's name bound again after its def: its return states no fact"
