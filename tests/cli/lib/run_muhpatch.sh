# Sourced by CLI tests that set $muhpatch and $test (the test's name).
# run CMD...: runs muhpatch with CMD, its stdout in ./out, its stderr in
# ./err, its exit status in $code (a failing status does not stop the test).
# fail MSG: stops the test, naming it.
run() {
  set +e
  "$muhpatch" "$@" >out 2>err
  code=$?
  set -e
}
fail() { echo "FAIL: $test: $*" >&2; exit 1; }
