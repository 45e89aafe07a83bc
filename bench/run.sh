#!/usr/bin/env bash
# bench/run.sh: muhpatch against ast-grep and the I/O floor, end to end.
#
#   bash bench/run.sh            # everything; results in bench/out/results.md
#
# Builds muhpatch and the micro-benchmarks (Release) in bench/out/build,
# installs the pinned ast-grep into bench/node_modules, generates the two
# corpora under bench/out, checks that muhpatch and ast-grep find the same
# sites, times every tool side by side, runs the micro-benchmarks and writes
# bench/out/results.{md,json}. Idempotent: reruns reuse the build, the
# ast-grep install and the corpora when their inputs did not change.
# bench/README.md explains the method and the numbers.
#
# Environment (all optional):
#   MUHPATCH=PATH          use this muhpatch binary instead of building one
#   BENCH_SKIP_MICRO=1     skip the Google Benchmark micro-benchmarks
#   BENCH_SKIP_CORPUS=1    skip the ~100 MB corpus (enginex-sized tree only)
#   BENCH_REAL_TREE=DIR    the real enginex-vllm tree, copied to $BENCH_OUT/real
#                          and benched as tree `real` (default
#                          $MUHPATCH_SRC/../shared/targets/enginex-vllm, else
#                          /work/shared/targets/enginex-vllm; skipped with a
#                          message when absent)
#   BENCH_SKIP_REAL=1      skip the real tree
#   BENCH_REAL_ROUNDS=N    timed rounds on the real tree (default BENCH_ROUNDS)
#   BENCH_PHASE_REPS=N     repetitions of bench_phases (verify's phases, one at
#                          a time) on the real and enginex trees (default 15)
#   BENCH_ROUNDS=N         timed rounds on the enginex tree (default 7)
#   BENCH_BIG_ROUNDS=N     timed rounds on the big corpus (default 3)
#   BENCH_CORPUS_MB=N      size of the big corpus in MB of .py (default 100)
#   BENCH_PY_SOURCES="D.." Python trees to copy into the corpus (default: the
#                          system Python's stdlib and dist-packages)
#   BENCH_OUT=DIR          output directory (default bench/out)
#   MUHPATCH_SRC=DIR       muhpatch source tree to build and take rules/ and
#                          fixtures/ from (default: this checkout); e.g. a
#                          `git archive HEAD` export, to bench a fixed commit
#   MUHPATCH_LABEL=TEXT    how results.md names the muhpatch version (default:
#                          the commit of $MUHPATCH_SRC)
#   BENCH_RULES=FILE       rule file (default $MUHPATCH_SRC/rules/bi100.yaml)
set -euo pipefail

BENCH_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "${MUHPATCH_SRC:-$BENCH_DIR/..}" && pwd)
OUT=${BENCH_OUT:-$BENCH_DIR/out}
BUILD=${BENCH_BUILD_DIR:-$OUT/build}
RULES=$(realpath "${BENCH_RULES:-$ROOT/rules/bi100.yaml}")
AST_GREP_VERSION=0.51.1   # pinned; `npm view @ast-grep/cli version` on 2026-11-30
ROUNDS=${BENCH_ROUNDS:-7}
BIG_ROUNDS=${BENCH_BIG_ROUNDS:-3}
REAL_ROUNDS=${BENCH_REAL_ROUNDS:-$ROUNDS}
PHASE_REPS=${BENCH_PHASE_REPS:-15}
CORPUS_MB=${BENCH_CORPUS_MB:-100}
JOBS=$(nproc)

die() { echo "bench: error: $*" >&2; exit 1; }
step() { printf '\n== %s\n' "$*" >&2; }
need() {
  for tool in "$@"; do
    command -v "$tool" >/dev/null 2>&1 || die "'$tool' is required but not installed (Debian: $(pkg_of "$tool"))"
  done
}
pkg_of() {
  case "$1" in
    cmake) echo "apt-get install cmake" ;;
    c++) echo "apt-get install g++" ;;
    node|npm) echo "apt-get install nodejs npm" ;;
    python3) echo "apt-get install python3" ;;
    *) echo "apt-get install $1" ;;
  esac
}

need python3 find xargs cat grep sed cmp sort realpath nproc
mkdir -p "$OUT/logs"
SECONDS=0

# --- muhpatch and the micro-benchmarks ---------------------------------------
if [[ -n "${MUHPATCH:-}" ]]; then
  MUHPATCH=$(realpath "$MUHPATCH")
  [[ -x "$MUHPATCH" ]] || die "MUHPATCH=$MUHPATCH is not an executable"
fi
# bench_floor (bench/floor.cc) is always built: it is the floor verify is
# measured against (read every .py once, parse the knob files once); so is
# bench_phases (bench/phases.cc), which times verify's phases one by one.
if true; then
  need cmake c++
  step "building muhpatch (Release) in $BUILD  [log: $OUT/logs/build.log]"
  targets=(bench_floor bench_phases)
  [[ -z "${MUHPATCH:-}" ]] && targets+=(muhpatch)
  [[ -z "${BENCH_SKIP_MICRO:-}" ]] && targets+=(micro_benchmarks)
  # A build directory configured for another source tree (MUHPATCH_SRC
  # changed) cannot be reused; it is ours, under $OUT, so start it afresh.
  if [[ -f "$BUILD/CMakeCache.txt" ]] &&
     ! grep -qxF "CMAKE_HOME_DIRECTORY:INTERNAL=$ROOT" "$BUILD/CMakeCache.txt"; then
    rm -rf "$BUILD"
  fi
  {
    cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DMUHPATCH_BENCH=ON &&
      cmake --build "$BUILD" -j"$JOBS" --target "${targets[@]}"
  } >"$OUT/logs/build.log" 2>&1 || { tail -30 "$OUT/logs/build.log" >&2; die "build failed"; }
  [[ -z "${MUHPATCH:-}" ]] && MUHPATCH=$BUILD/muhpatch
fi
[[ -x "$MUHPATCH" ]] || die "no muhpatch binary at $MUHPATCH"
FLOOR=$BUILD/bench/bench_floor
PHASES=$BUILD/bench/bench_phases

# --- ast-grep -----------------------------------------------------------------
AST_GREP=$BENCH_DIR/node_modules/.bin/ast-grep
if [[ "$("$AST_GREP" --version 2>/dev/null || true)" != "ast-grep $AST_GREP_VERSION" ]]; then
  need npm node
  step "installing @ast-grep/cli@$AST_GREP_VERSION into $BENCH_DIR/node_modules"
  npm install --prefix "$BENCH_DIR" --no-save --no-package-lock --no-audit --no-fund \
    "@ast-grep/cli@$AST_GREP_VERSION" >"$OUT/logs/npm.log" 2>&1 ||
    { tail -20 "$OUT/logs/npm.log" >&2; die "npm install @ast-grep/cli@$AST_GREP_VERSION failed"; }
  [[ "$("$AST_GREP" --version 2>/dev/null || true)" == "ast-grep $AST_GREP_VERSION" ]] ||
    die "ast-grep $AST_GREP_VERSION did not install ($AST_GREP --version: $("$AST_GREP" --version 2>&1 || true))"
fi
# ast-grep honours .gitignore files, including /work/.../.gitignore's
# `/bench/out/` above the corpora; muhpatch reads no ignore files. Turn them
# off so both tools see the same files (neither reads dot-directories).
AG_SCAN=("$AST_GREP" scan --color never --no-ignore vcs --no-ignore parent --no-ignore dot
         --no-ignore exclude --no-ignore global)
AG_RULES=$BENCH_DIR/astgrep/bi100.yml

# --- corpora ------------------------------------------------------------------
step "generating corpora in $OUT  [enginex-sized tree; ${CORPUS_MB} MB corpus]"
py_sources=()
if [[ -n "${BENCH_PY_SOURCES:-}" ]]; then
  read -r -a py_sources <<<"$BENCH_PY_SOURCES"
else
  for d in /usr/lib/python3.[0-9]* /usr/lib/python3/dist-packages; do
    [[ -d "$d" ]] && py_sources+=("$d")
  done
  if [[ ${#py_sources[@]} -eq 0 ]]; then
    py_sources+=("$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')")
  fi
fi
gen_args=(--fixture "$ROOT/fixtures/enginex-vllm" --out "$OUT" --corpus-mb "$CORPUS_MB")
for d in "${py_sources[@]}"; do gen_args+=(--py-source "$d"); done
[[ -n "${BENCH_SKIP_CORPUS:-}" ]] && gen_args+=(--skip-corpus)
# The real tree (read-only, never part of the project): copied under $OUT.
REAL_SRC=
if [[ -z "${BENCH_SKIP_REAL:-}" ]]; then
  if [[ -n "${BENCH_REAL_TREE:-}" ]]; then
    REAL_SRC=$BENCH_REAL_TREE
  else
    for d in "$ROOT/../shared/targets/enginex-vllm" /work/shared/targets/enginex-vllm; do
      [[ -d "$d/vllm" ]] && { REAL_SRC=$d; break; }
    done
  fi
  if [[ -n "$REAL_SRC" && -d "$REAL_SRC/vllm" ]]; then
    gen_args+=(--real "$REAL_SRC")
  else
    echo "bench: real tree not found (${REAL_SRC:-../shared/targets/enginex-vllm}); skipping tree 'real'" >&2
    REAL_SRC=
  fi
fi
python3 "$BENCH_DIR/gen_corpus.py" "${gen_args[@]}" >"$OUT/corpora.json"
TREES=(enginex)
[[ -n "$REAL_SRC" ]] && TREES+=(real)
[[ -z "${BENCH_SKIP_CORPUS:-}" ]] && TREES+=(corpus)

# The knob files alone (every file a rule's `files:` names): what muhpatch costs without
# a directory walk over hundreds of other files.
rm -rf "$OUT/knobs"
while IFS= read -r f; do
  mkdir -p "$OUT/knobs/$(dirname "$f")" && cp "$OUT/enginex/$f" "$OUT/knobs/$f"
done < <(grep -E '^[[:space:]]+files:' "$RULES" | grep -oE 'vllm/[A-Za-z0-9_./-]+[.]py' | sort -u)
# Its own patch: without the tree's entry module the liveness verdicts (and so
# the rules' states) differ from the whole tree's.
(cd "$OUT/knobs" && "$MUHPATCH" diff "$RULES" .) >"$OUT/bi100-knobs.diff" 2>"$OUT/logs/diff-knobs.err" || true

# --- same sites? -------------------------------------------------------------
# (1) In scope: `muhpatch status --include-dead --format json` (one row per
#     site each rule finds, file:line) against ast-grep's scoped rules
#     (file:line:col, compared per line and rule), on every tree; the value
#     status shows at each site must be the text of ast-grep's $SITE there;
#     and every edit `verify --include-dead` reports must sit at one of
#     ast-grep's sites, column included (an append-to insert: per file and
#     rule).
# (2) Whole tree: verify searches every file for every query and reports any
#     match outside a rule's files (except `also-matches`). On the clean trees
#     there must be none, and ast-grep's whole-tree rules must find exactly
#     the scoped sites. On enginex-copies (two knob files copied elsewhere)
#     verify's foreign matches must be ast-grep's whole-tree matches minus its
#     scoped ones, compared as the set of (file, rule) pairs.
step "checking that muhpatch and ast-grep find the same sites"
SITES=$OUT/sites
rm -rf "$SITES" && mkdir -p "$SITES"
AG_WHOLE=$SITES/astgrep-whole-tree.yml
sed '/^files:/d' "$AG_RULES" >"$AG_WHOLE"
ag_sites() {  # dir rules out.txt [extra ast-grep args]
  local dir=$1 rules=$2 txt=$3; shift 3
  (cd "$dir" && "${AG_SCAN[@]}" "$@" -r "$rules" --json=stream .) >"${txt%.txt}.json"
  python3 "$BENCH_DIR/sites.py" astgrep <"${txt%.txt}.json" >"$txt"
}
mp_verify() {  # dir rules out.err expected-exit [extra muhpatch args]
  local dir=$1 rules=$2 err=$3 want=$4 rc=0; shift 4
  (cd "$dir" && "$MUHPATCH" verify "$rules" . "$@") >/dev/null 2>"$err" || rc=$?
  [[ $rc -eq $want ]] || { tail -20 "$err" >&2; die "muhpatch verify $(basename "$rules") on $dir exited $rc, expected $want"; }
}
same() {  # label a.txt b.txt [mode]
  python3 "$BENCH_DIR/sites.py" compare muhpatch "$2" ast-grep "$3" ${4:-} >"$SITES/$1.compare.txt" ||
    { cat "$SITES/$1.compare.txt" >&2; die "$1: muhpatch and ast-grep disagree (see $SITES)"; }
  echo "  $1: $(cat "$SITES/$1.compare.txt")" >&2
}
# Every site a query finds, live or dead: without --include-dead, status
# still lists a dead site (state `dead`) but verify leaves it alone.
DEAD_ARGS=()
"$MUHPATCH" status --help 2>&1 | grep -q -- '--include-dead' && DEAD_ARGS+=(--include-dead)
for tree in "${TREES[@]}"; do
  dir=$OUT/$tree
  rc=0; (cd "$dir" && "$MUHPATCH" status "$RULES" . "${DEAD_ARGS[@]}" --format json) \
    >"$SITES/$tree.muhpatch-status.json" 2>"$SITES/$tree.muhpatch-status.err" || rc=$?
  [[ $rc -eq 0 ]] || { tail -20 "$SITES/$tree.muhpatch-status.err" >&2; die "muhpatch status on $dir exited $rc, expected 0"; }
  python3 "$BENCH_DIR/sites.py" status <"$SITES/$tree.muhpatch-status.json" >"$SITES/$tree.muhpatch-scoped.txt"
  ag_sites "$dir" "$AG_RULES" "$SITES/$tree.astgrep-scoped.txt"
  same "$tree.scoped" "$SITES/$tree.muhpatch-scoped.txt" "$SITES/$tree.astgrep-scoped.txt" --lines
  python3 "$BENCH_DIR/sites.py" same-text "$SITES/$tree.muhpatch-status.json" "$SITES/$tree.astgrep-scoped.json" \
    >"$SITES/$tree.text.txt" || { cat "$SITES/$tree.text.txt" >&2; die "$tree: status's values are not ast-grep's \$SITE texts (see $SITES)"; }
  ag_sites "$dir" "$AG_WHOLE" "$SITES/$tree.astgrep-whole.txt"
  cmp -s "$SITES/$tree.astgrep-scoped.txt" "$SITES/$tree.astgrep-whole.txt" ||
    die "$tree: ast-grep finds knob sites outside the rules' files; the tree should have none (see $SITES)"
  # The real rules: what verify would rewrite, dead sites included (a subset
  # of the sites, at the same columns).
  mp_verify "$dir" "$RULES" "$SITES/$tree.muhpatch-edits.err" 1 "${DEAD_ARGS[@]}"
  python3 "$BENCH_DIR/sites.py" edits . "$SITES/$tree.astgrep-scoped.txt" <"$SITES/$tree.muhpatch-edits.err" >"$SITES/$tree.muhpatch-edits.txt"
  ! grep -q '^stray ' "$SITES/$tree.muhpatch-edits.txt" ||
    die "$tree: verify rewrites where ast-grep finds no site: $(grep '^stray ' "$SITES/$tree.muhpatch-edits.txt")"
  echo "  $tree: $(cat "$SITES/$tree.text.txt"); whole-tree search finds nothing outside the rules' files (both tools); verify${DEAD_ARGS[*]:+ ${DEAD_ARGS[*]}} rewrites $(wc -l <"$SITES/$tree.muhpatch-edits.txt") of the sites, each at an ast-grep site" >&2
done
dir=$OUT/enginex-copies
mp_verify "$dir" "$RULES" "$SITES/copies.muhpatch-foreign.err" 1
# verify also reports the in-scope drift of this pristine tree; keep the
# moved-knob findings ("... matches here, outside its files").
grep -F 'outside its files' "$SITES/copies.muhpatch-foreign.err" |
  python3 "$BENCH_DIR/sites.py" muhpatch . >"$SITES/copies.muhpatch-foreign.txt"
ag_sites "$dir" "$AG_RULES" "$SITES/copies.astgrep-scoped.txt"
ag_sites "$dir" "$AG_WHOLE" "$SITES/copies.astgrep-whole.txt"
python3 "$BENCH_DIR/sites.py" minus "$SITES/copies.astgrep-whole.txt" "$SITES/copies.astgrep-scoped.txt" >"$SITES/copies.astgrep-foreign.txt"
[[ -s "$SITES/copies.astgrep-foreign.txt" ]] || die "enginex-copies: ast-grep finds none of the planted copies"
# (per file and rule, as a set: verify's search reports each match of a
# rule's search query at its first capture, and for value-of and tiers rules
# that query matches more than the sites, e.g. every assignment of BLOCK in
# context_attention_fwd)
same copies.foreign "$SITES/copies.muhpatch-foreign.txt" "$SITES/copies.astgrep-foreign.txt" --files

# Thread counts. ast-grep: the same sites at -j1, -j2, -j8. muhpatch verify
# (if it has --threads): byte-identical stdout and stderr at 1, 2 and 8, on a
# clean tree and, as JSON, on the tree with planted copies.
for j in 1 2 8; do
  ag_sites "$OUT/enginex" "$AG_WHOLE" "$SITES/threads.astgrep-j$j.txt" -j "$j"
done
cmp -s "$SITES/threads.astgrep-j1.txt" "$SITES/threads.astgrep-j2.txt" &&
  cmp -s "$SITES/threads.astgrep-j1.txt" "$SITES/threads.astgrep-j8.txt" ||
  die "ast-grep's sites differ between -j1, -j2 and -j8"
# The committed patch verify checks: the corpus holds the enginex tree at its
# root and shares its patch; the real tree has its own.
PATCH=$OUT/bi100.diff
(cd "$OUT/enginex" && "$MUHPATCH" diff "$RULES" .) >"$PATCH" 2>"$OUT/logs/diff.err"
[[ -s "$PATCH" ]] || die "muhpatch diff printed no patch for the enginex tree"
patch_for() { if [[ $1 == real ]]; then echo "$OUT/bi100-real.diff"; else echo "$PATCH"; fi; }
if [[ -n "$REAL_SRC" ]]; then
  (cd "$OUT/real" && "$MUHPATCH" diff "$RULES" .) >"$(patch_for real)" 2>"$OUT/logs/diff-real.err"
  [[ -s "$(patch_for real)" ]] || die "muhpatch diff printed no patch for the real tree"
fi
HAS_THREADS=0
"$MUHPATCH" verify --help 2>&1 | grep -q -- '--threads' && HAS_THREADS=1
THREADS_RESULT="muhpatch verify has no --threads option"
if [[ $HAS_THREADS == 1 ]]; then
  for j in 1 2 8; do
    (cd "$OUT/enginex" && "$MUHPATCH" verify "$RULES" . --patch "$PATCH" --threads "$j") \
      >"$SITES/threads.clean-$j.out" 2>&1 || die "verify --threads $j fails on the clean tree"
    rc=0; (cd "$OUT/enginex-copies" && "$MUHPATCH" verify "$RULES" . --patch "$PATCH" --threads "$j" --format json) \
      >"$SITES/threads.copies-$j.json" 2>&1 || rc=$?
    [[ $rc -eq 1 ]] || die "verify --threads $j on enginex-copies exited $rc, expected 1"
  done
  for f in clean-2.out clean-8.out copies-2.json copies-8.json; do
    cmp -s "$SITES/threads.${f/-[28]./-1.}" "$SITES/threads.$f" ||
      die "muhpatch verify output differs between --threads 1 and ${f//[^0-9]/} ($SITES/threads.$f)"
  done
  THREADS_RESULT="byte-identical at --threads 1, 2 and 8 (clean tree: text; enginex-copies: JSON with $(grep -cF 'outside its files' "$SITES/copies.muhpatch-foreign.err") moved-knob findings)"
fi
echo "  threads: ast-grep sites identical at -j1/-j2/-j8; muhpatch: $THREADS_RESULT" >&2
echo "$THREADS_RESULT" >"$SITES/threads.result.txt"
for tree in "${TREES[@]}"; do
  (cd "$OUT/$tree" && "$MUHPATCH" verify "$RULES" . --patch "$(patch_for "$tree")") >/dev/null 2>"$OUT/logs/verify-$tree.err" ||
    { cat "$OUT/logs/verify-$tree.err" >&2; die "muhpatch verify --patch fails on the pristine $tree tree"; }
done

# --- timing -------------------------------------------------------------------
# One spec per tree; every command runs with cwd = the tree root (ast-grep's
# globs are relative to the scan root; muhpatch gets `.`). Pairs that do the
# same job: verify <-> ast-grep whole-tree rules (every query, every file);
# diff <-> ast-grep scoped rules + --globs (the rules' files only).
write_spec() {  # tree rounds phases(0|1)
  SPEC_DIR=$OUT/$1 SPEC_ROUNDS=$2 SPEC_PHASES=$3 SPEC_THREADS=$HAS_THREADS \
  SPEC_MUHPATCH=$MUHPATCH SPEC_FLOOR=$FLOOR SPEC_RULES=$RULES SPEC_PATCH=$(patch_for "$1") SPEC_KNOBS=$OUT/knobs SPEC_KNOBS_PATCH=$OUT/bi100-knobs.diff \
  SPEC_AG=$(printf '%s\n' "${AG_SCAN[@]}") SPEC_AG_SCOPED=$AG_RULES SPEC_AG_WHOLE=$AG_WHOLE \
  SPEC_GLOBS=$(sed -n 's/^files: \[\(.*\)\]$/\1/p' "$AG_RULES" | sort -u) \
  SPEC_LITERALS=$(python3 "$BENCH_DIR/sites.py" literals "$RULES") \
    python3 "$BENCH_DIR/timing_spec.py"
}

for tree in "${TREES[@]}"; do
  case $tree in
    enginex) r=$ROUNDS; p=1 ;;
    real) r=$REAL_ROUNDS; p=2 ;;
    *) r=$BIG_ROUNDS; p=0 ;;
  esac
  step "timing on $tree: 1 warm-up + $r rounds, commands interleaved"
  write_spec "$tree" "$r" "$p" >"$OUT/timing-$tree.spec.json"
  python3 "$BENCH_DIR/measure.py" "$OUT/timing-$tree.spec.json" "$OUT/timing-$tree.json"
done

# verify's phases one at a time (bench_phases: open, plan, liveness, search),
# after the side-by-side timing, on the real tree and the enginex tree.
for tree in "${TREES[@]}"; do
  [[ $tree == corpus ]] && continue
  step "verify's phases on $tree (bench_phases, $PHASE_REPS repetitions)"
  (cd "$OUT/$tree" && "$PHASES" "$RULES" . "$PHASE_REPS") >"$OUT/phases-$tree.md" 2>"$OUT/logs/phases-$tree.err" ||
    { tail -5 "$OUT/logs/phases-$tree.err" >&2; die "bench_phases failed on $tree"; }
done

# --- micro-benchmarks ---------------------------------------------------------
rm -f "$OUT"/micro_*.json
if [[ -z "${BENCH_SKIP_MICRO:-}" ]]; then
  step "micro-benchmarks (Google Benchmark)"
  for b in micro_unified_diff micro_parse_query micro_prefilter; do
    MUHBENCH_TREE=$OUT/enginex "$BUILD/bench/$b" --benchmark_min_time=0.2 --benchmark_out="$OUT/$b.json" \
      --benchmark_out_format=json >"$OUT/logs/$b.txt" 2>&1 ||
      { tail -20 "$OUT/logs/$b.txt" >&2; die "$b failed"; }
  done
fi

# --- report -------------------------------------------------------------------
python3 "$BENCH_DIR/report.py" --out "$OUT" --root "$ROOT" --muhpatch "$MUHPATCH" \
  --ast-grep "$AST_GREP" --rules "$RULES" --seconds "$SECONDS" "${TREES[@]}"
