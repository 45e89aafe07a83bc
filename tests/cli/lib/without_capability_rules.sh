# Sourced by tests that run rules/bi100.yaml with --include-dead on the real
# tree. The tree pins its compute capability (vllm/platforms/cuda.py's
# get_physical_device_capability returns [9, 0]), so at the bi100 profile's
# 7.0 the two prefix-prefill rules, whose values are for devices below
# SM80, are refused (engine/plan/capability_wraps.h) and --include-dead
# fails. Tests about other rules drop them from their copy of the rule file.
#
#   without_capability_rules FILE   rewrites FILE in place
without_capability_rules() {
  python3 - "$1" <<'PY'
import re
import sys
path = sys.argv[1]
text = open(path).read()
out, n = re.subn(r"\n  - id: prefix-prefill-(block|num-warps)\n(?:    .*\n|\n(?=    ))*", "\n", text)
assert n == 2, n
open(path, "w").write(out)
PY
}
