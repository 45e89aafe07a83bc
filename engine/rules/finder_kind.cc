#include "engine/rules/finder_kind.h"

namespace muh {

FinderKind ValueOfKind();  // finder_value_of.cc

const std::vector<FinderKind>& FinderKinds() {
  static const std::vector<FinderKind> kinds = {
      ValueOfKind(),
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
