#include "engine/rules/finder_kind.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace muh {

// Each kind's FinderKind is defined beside its finder (finder_*.cc).
FinderKind QueryKind();
FinderKind PatternKind();
FinderKind ValueOfKind();
FinderKind ArgumentOfKind();

const std::vector<FinderKind>& FinderKinds() {
  static const std::vector<FinderKind> kinds = {
      QueryKind(),
      PatternKind(),
      ValueOfKind(),
      ArgumentOfKind(),
  };
  return kinds;
}

bool PythonNameKey(YamlReader* reader, const RawScalar& s, const std::string& kind,
                   const YAML::Mark& mapping, const char* key, const char* what) {
  if (!s.present) {
    reader->Error(mapping, fmt::format("'{}' needs '{}': {}", kind, key, what));
    return false;
  }
  bool name = !s.value.empty() && !std::isdigit(static_cast<unsigned char>(s.value[0]));
  for (char c : s.value) name = name && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  if (!name) reader->Error(s.mark, fmt::format("'{}' is a Python name, got '{}'", key, s.value));
  return name;
}

const FinderKind* FinderKindOf(const std::string& key) {
  for (const FinderKind& k : FinderKinds()) {
    if (k.key == key || std::find(k.also.begin(), k.also.end(), key) != k.also.end()) return &k;
  }
  return nullptr;
}

}  // namespace muh
