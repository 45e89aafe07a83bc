#include "engine/pattern/pattern_node.h"

#include <algorithm>

#include "engine/python/ts_handles.h"

namespace muh {

std::vector<bool> SymbolsNamed(const std::string& type, bool named) {
  const TSLanguage* language = tree_sitter_python();
  const uint32_t count = ts_language_symbol_count(language);
  std::vector<bool> out(count, false);
  const TSSymbolType want = named ? TSSymbolTypeRegular : TSSymbolTypeAnonymous;
  for (TSSymbol sym = 0; sym < count; ++sym) {
    const char* n = ts_language_symbol_name(language, sym);
    if (n != nullptr && type == n && ts_language_symbol_type(language, sym) == want)
      out[sym] = true;
  }
  return out;
}

namespace {

uint32_t IdOf(std::vector<std::string>* names, const std::string& name) {
  auto it = std::find(names->begin(), names->end(), name);
  if (it != names->end()) return static_cast<uint32_t>(it - names->begin());
  names->push_back(name);
  return static_cast<uint32_t>(names->size() - 1);
}

void Number(PatternNode* n, std::vector<std::string>* names) {
  for (PatternNode& c : n->children) Number(&c, names);
  if (!n->capture.empty()) n->capture_id = IdOf(names, n->capture);
}

}  // namespace

void FinishPatternTree(PatternTree* tree) {
  tree->captures.clear();
  Number(&tree->root, &tree->captures);
  for (PatternConstraint& c : tree->constraints) {
    c.capture_id = IdOf(&tree->captures, c.capture);
    if (c.kind == PatternConstraint::Kind::kSameAs) c.other_id = IdOf(&tree->captures, c.other);
  }
}

}  // namespace muh
