// What the patch muhpatch wrote before says about the tree (--patch FILE on
// diff, apply, status and verify): the lines of each file that hold one of
// its `+` lines. A site there holds muhpatch's own value, never a hand-tuned
// one. An input of the plan, like the liveness verdicts.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace muh {

// The `+` lines of one file, valid only for the bytes they were found in
// (`content_hash`): the plan ignores them for any other content (the
// idempotence re-plan, a tree with a patch undone).
struct WrittenLines {
  std::size_t content_hash = 0;
  std::vector<std::pair<std::size_t, std::size_t>> ranges;  // [begin, end) bytes
};

// By tree path.
using WrittenByMuhpatch = std::map<std::string, WrittenLines>;

// No patch given: an empty map that lives as long as the program.
inline const WrittenByMuhpatch& NothingWritten() {
  static const WrittenByMuhpatch kNone;
  return kNone;
}

}  // namespace muh
