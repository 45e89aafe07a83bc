#!/usr/bin/env bash
# End to end on the miniature enginex tree (fixtures/enginex-vllm) with the
# shipped rules (rules/bi100.yaml):
#   - `diff` exits 0, prints exactly fixtures/cases/enginex_vllm/expected.diff
#     (and expected.stderr), touches exactly the expected files, sorted, with
#     no timestamps, and modifies nothing;
#   - `git apply --check` and `patch -p1 --dry-run` accept the diff on the
#     pristine tree (and reject it on the patched tree, which proves they
#     really looked at the files);
#   - the diff applied with `patch -p1` and with `git apply` is byte-for-byte
#     what `muhpatch apply` writes, and every untouched file stays untouched;
#   - every patched file compiles; the CRLF file stays CRLF and the file
#     without a final newline still has none;
#   - `apply` prints nothing on stdout, keeps file modes, and a second `diff`
#     (and a second `apply`) changes nothing.
#
# Usage: fixture_e2e.sh MUHPATCH
set -euo pipefail
muhpatch=$(realpath "$1")
repo=$(cd "$(dirname "$0")/../.." && pwd)
case_dir=$repo/fixtures/cases/enginex_vllm

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
fail() { echo "FAIL: fixture_e2e: $*" >&2; exit 1; }
ok() { echo "ok $*"; }

# The miniature tree's CRLF file is vllm/_custom_ops.py, whose one rule (the
# shared-memory limit) rewrites only from a measured fact: every run gets the
# measured card of fixtures/cases/enginex_vllm (--hw, right after the command).
card=$repo/fixtures/cases/enginex_vllm/measured-card.yaml
real_muhpatch=$muhpatch
muhpatch=$scratch/muhpatch-measured
printf '#!/usr/bin/env bash\ncmd=$1; shift\nexec "%s" "$cmd" --hw "%s" "$@"\n' "$real_muhpatch" "$card" >"$muhpatch"
chmod +x "$muhpatch"

# Keep the user's and the system's git configuration (core.autocrlf, ...) out of it.
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null HOME=$scratch

cp -a "$repo/fixtures/enginex-vllm" "$scratch/pristine"
cp "$repo/rules/bi100.yaml" "$scratch/rules.yaml"
cp -a "$scratch/pristine" "$scratch/tree"
cd "$scratch"

# The files the rules rewrite: those of the golden expected.diff, in path order
# (the `ok` line lists them; e.g. vllm/_custom_ops.py, vllm/attention/ops/
# {prefix_prefill,triton_flash_attention}.py, .../fused_moe/fused_moe.py), each
# named by a `files:` entry of the rules; and files that must not be touched.
mapfile -t expected_files < <(sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "$case_dir/expected.diff")
[[ ${#expected_files[@]} -gt 0 ]] || fail "expected.diff names no files"
for f in "${expected_files[@]}"; do
  grep -qE "^ *files: *$f *\$" rules.yaml || fail "expected.diff touches $f, which no rule's files: names"
done
untouched_files=(
  vllm/attention/backends/ipex_attn.py
  vllm/lora/ops/sgmv_shrink.py
  vllm/model_executor/layers/quantization/awq_triton.py
)
crlf_file=vllm/_custom_ops.py
no_eol_file=vllm/attention/ops/prefix_prefill.py
mode_file=${expected_files[0]}
for f in "$crlf_file" "$no_eol_file"; do
  printf '%s\n' "${expected_files[@]}" | grep -qxF "$f" ||
    fail "the diff no longer touches $f; the CRLF / no-final-newline checks would test nothing"
done

# The fixture properties this test relies on.
python3 - "pristine/$crlf_file" "pristine/$no_eol_file" <<'PY' || fail "fixture no longer has a CRLF file and a file without final newline"
import sys
crlf = open(sys.argv[1], 'rb').read()
assert crlf.count(b'\n') > 0 and crlf.count(b'\n') == crlf.count(b'\r\n'), 'not all-CRLF'
noeol = open(sys.argv[2], 'rb').read()
assert noeol and not noeol.endswith(b'\n'), 'ends with a newline'
PY

# --- diff -------------------------------------------------------------------
set +e
"$muhpatch" diff rules.yaml tree >out.diff 2>diff.err
code=$?
set -e
[[ $code -eq 0 ]] || { cat diff.err >&2; fail "diff exited $code, expected 0"; }
cmp -s "$case_dir/expected.diff" out.diff ||
  { diff -u "$case_dir/expected.diff" out.diff >&2 || true; fail "diff stdout differs from $case_dir/expected.diff"; }
ok "diff exits 0 and prints expected.diff byte for byte"
cmp -s "$case_dir/expected.stderr" diff.err ||
  { diff -u "$case_dir/expected.stderr" diff.err >&2 || true; fail "diff stderr differs from expected.stderr"; }
ok "diff stderr equals expected.stderr"
diff -r pristine tree >/dev/null || fail "diff modified the tree"
ok "diff modifies nothing"

# Which files the diff touches: exactly the expected ones, in path order.
mapfile -t git_headers < <(grep '^diff --git ' out.diff)
mapfile -t minus_headers < <(grep '^--- ' out.diff)
mapfile -t plus_headers < <(grep '^+++ ' out.diff)
[[ ${#git_headers[@]} -eq ${#expected_files[@]} ]] ||
  fail "diff has ${#git_headers[@]} file sections, expected ${#expected_files[@]}"
for i in "${!expected_files[@]}"; do
  f=${expected_files[$i]}
  [[ ${git_headers[$i]} == "diff --git a/$f b/$f" ]] || fail "file section $i is '${git_headers[$i]}', expected $f"
  [[ ${minus_headers[$i]} == "--- a/$f" ]] || fail "'${minus_headers[$i]}' is not '--- a/$f' (timestamp or wrong path?)"
  [[ ${plus_headers[$i]} == "+++ b/$f" ]] || fail "'${plus_headers[$i]}' is not '+++ b/$f' (timestamp or wrong path?)"
done
printf '%s\n' "${expected_files[@]}" | LC_ALL=C sort -c || fail "expected_files list itself is not sorted"
ok "diff touches exactly: ${expected_files[*]} (sorted, no timestamps)"
for f in "${untouched_files[@]}"; do
  [[ -f pristine/$f ]] || fail "fixture lost $f, the out-of-scope check is meaningless"
  if grep -qF "$f" out.diff; then fail "diff mentions out-of-scope file $f"; fi
done
ok "diff does not mention ${untouched_files[*]}"

# --- the diff is accepted by git apply and patch, on the pristine tree only --
cp -a pristine gitcheck
(cd gitcheck && git init -q . && git apply --check ../out.diff) ||
  fail "git apply --check rejects the diff on the pristine tree"
ok "git apply --check accepts the diff on the pristine tree"
cp -a pristine patchcheck
(cd patchcheck && patch -p1 --dry-run --batch <../out.diff >/dev/null) ||
  fail "patch -p1 --dry-run rejects the diff"
diff -r pristine patchcheck >/dev/null || fail "patch --dry-run changed files"
ok "patch -p1 --dry-run accepts the diff"

# --- apply --------------------------------------------------------------------
chmod 0755 "tree/$mode_file"
set +e
"$muhpatch" apply rules.yaml tree >apply.out 2>apply.err
code=$?
set -e
[[ $code -eq 0 ]] || { cat apply.err >&2; fail "apply exited $code, expected 0"; }
[[ -s apply.out ]] && { cat apply.out >&2; fail "apply wrote to stdout"; }
ok "apply exits 0 and prints nothing on stdout"
cmp -s "$case_dir/expected.stderr" apply.err ||
  { diff -u "$case_dir/expected.stderr" apply.err >&2 || true; fail "apply stderr differs from expected.stderr"; }
ok "apply stderr carries only the expected note"

mode=$(stat -c %a "tree/$mode_file")
[[ $mode == 755 ]] || fail "$mode_file has mode $mode after apply, expected 755"
for f in "${expected_files[@]}"; do
  [[ $f == "$mode_file" ]] && continue
  want=$(stat -c %a "pristine/$f")
  got=$(stat -c %a "tree/$f")
  [[ $got == "$want" ]] || fail "$f has mode $got after apply, expected $want"
done
ok "apply keeps file modes (0755 target stays 0755)"

# The same diff applied by patch -p1 and by git apply gives the same bytes.
cp -a pristine bypatch
(cd bypatch && patch -p1 --batch --no-backup-if-mismatch <../out.diff >/dev/null) || fail "patch -p1 failed"
diff -r bypatch tree >/dev/null || { diff -r bypatch tree >&2 || true; fail "patch -p1 result differs from muhpatch apply"; }
for f in "${expected_files[@]}"; do
  cmp -s "bypatch/$f" "tree/$f" || fail "$f: patch -p1 and apply differ"
  cmp -s "pristine/$f" "tree/$f" && fail "$f: apply did not change it"
done
ok "patch -p1 gives byte for byte what apply writes (diff -r)"
(cd gitcheck && git apply ../out.diff) || fail "git apply failed"
rm -rf gitcheck/.git
diff -r gitcheck tree >/dev/null || fail "git apply result differs from muhpatch apply"
ok "git apply gives byte for byte what apply writes"
for f in "${untouched_files[@]}"; do
  cmp -s "pristine/$f" "tree/$f" || fail "apply changed out-of-scope file $f"
done
ok "apply leaves ${untouched_files[*]} byte-identical"

# Applying twice is refused by git apply and patch: they checked real content.
cp -a tree patched_git
(cd patched_git && git init -q . && git apply --check ../out.diff 2>/dev/null) &&
  fail "git apply --check accepts the diff on the patched tree too"
(cd bypatch && patch -p1 --dry-run --forward --batch <../out.diff >/dev/null 2>&1) &&
  fail "patch --dry-run --forward accepts the diff on the patched tree too"
ok "git apply --check and patch --dry-run reject the diff on the patched tree"

# --- what the patched files look like ------------------------------------------
for f in "${expected_files[@]}"; do
  python3 -c 'import sys; compile(open(sys.argv[1],"rb").read(), sys.argv[1], "exec")' "tree/$f" ||
    fail "tree/$f does not compile after apply"
done
ok "every patched file compiles"

python3 - "pristine/$crlf_file" "tree/$crlf_file" out.diff "$crlf_file" <<'PY' || fail "$crlf_file lost its CRLF line endings"
import sys
before = open(sys.argv[1], 'rb').read()
after = open(sys.argv[2], 'rb').read()
assert before != after, 'apply did not change it'
n = after.count(b'\n')
assert n == after.count(b'\r\n'), 'has bare LF line endings'
# In the diff, every line of its hunks ends in CRLF too.
section, keep = [], False
for line in open(sys.argv[3], 'rb').read().split(b'\n'):
    if line.startswith(b'diff --git '):
        keep = line.split(b' ')[2] == b'a/' + sys.argv[4].encode()
    elif keep and line[:1] in (b' ', b'-', b'+') and not line.startswith((b'--- ', b'+++ ')):
        section.append(line)
assert section, 'no hunk lines for the file in the diff'
assert all(l.endswith(b'\r') for l in section), 'a diff line of the CRLF file lacks its CR'
assert any(l.startswith(b'+') for l in section), 'no added line'
PY
ok "$crlf_file is still CRLF throughout"
python3 - "pristine/$no_eol_file" "tree/$no_eol_file" <<'PY' || fail "$no_eol_file gained a final newline or lost its last line"
import sys
before = open(sys.argv[1], 'rb').read()
after = open(sys.argv[2], 'rb').read()
assert not after.endswith(b'\n'), 'now ends with a newline'
last = before.rsplit(b'\n', 1)[1]
assert last and after.endswith(b'\n' + last), 'last line changed'
PY
ok "$no_eol_file still has no final newline"

# --- idempotence ----------------------------------------------------------------
cp -a tree after_first_apply
set +e
"$muhpatch" diff rules.yaml tree >again.diff 2>again.err
code=$?
set -e
[[ $code -eq 0 ]] || { cat again.err >&2; fail "second diff exited $code, expected 0"; }
[[ -s again.diff ]] && { cat again.diff >&2; fail "second diff is not empty"; }
ok "second diff prints nothing and exits 0"

inode_before=$(stat -c %i "tree/$mode_file")
set +e
"$muhpatch" apply rules.yaml tree >apply2.out 2>apply2.err
code=$?
set -e
[[ $code -eq 0 ]] || { cat apply2.err >&2; fail "second apply exited $code, expected 0"; }
[[ -s apply2.out ]] && fail "second apply wrote to stdout"
diff -r after_first_apply tree >/dev/null || fail "second apply changed the tree"
[[ $(stat -c %i "tree/$mode_file") == "$inode_before" ]] || fail "second apply rewrote $mode_file (new inode)"
ok "second apply exits 0 and rewrites nothing"
