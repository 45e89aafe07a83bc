#include "engine/query/hand_off.h"

namespace muh {

std::string_view HandOffReason(HandOff why) {
  switch (why) {
    case HandOff::kNone:
      return "no hand-off";
    case HandOff::kTreeSitterRequested:
      return "libtree-sitter's matcher was asked for";
    case HandOff::kOutsideSubset:
      return "the query is outside our matcher's subset";
    case HandOff::kSyntaxErrors:
      return "the tree has syntax errors";
    case HandOff::kFirstCandidateStep:
      return "a step libtree-sitter may commit to its first candidate has several";
    case HandOff::kAnchorAmongSemicolonStatements:
      return "an anchor among `;`-separated statements";
  }
  return "unknown hand-off";
}

}  // namespace muh
