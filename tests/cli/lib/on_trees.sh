# Sourced by CLI tests that check one case on the fixture tree and on a copy
# of the real tree. on_trees FN: runs `FN NAME SOURCE` for the fixture tree
# and, when ../shared has it, for the real tree (FN copies SOURCE before it
# writes); otherwise says the real tree was not checked. Needs $repo.
on_trees() {
  local fn=$1
  "$fn" "fixture tree" "$repo/fixtures/enginex-vllm"
  local real=$repo/../shared/targets/enginex-vllm
  if [[ -d $real/vllm ]]; then
    "$fn" "real tree" "$real"
  else
    echo "note: the real tree is not at $real; checked the fixture only"
  fi
}
