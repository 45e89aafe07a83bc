#include "engine/rules/finder_kind.h"

namespace muh {

// Each kind's FinderKind is defined beside its finder (finder_*.cc).
FinderKind ValueOfKind();
FinderKind ArgumentOfKind();

const std::vector<FinderKind>& FinderKinds() {
  static const std::vector<FinderKind> kinds = {
      ValueOfKind(),
      ArgumentOfKind(),
  };
  return kinds;
}

const FinderKind* FinderKindOf(const std::string& key) {
  for (const FinderKind& k : FinderKinds()) {
    if (k.key == key) return &k;
  }
  return nullptr;
}

}  // namespace muh
