#include "engine/rules/raw_value_of.h"

namespace muh {

namespace {

const std::vector<std::string> kValueOfKeys = {"name", "key", "in", "when-false", "when-true"};

}  // namespace

void ReadValueOf(YamlReader* l, const YAML::Node& key, const YAML::Node& node, RawValueOf* out) {
  out->present = true;
  out->key_mark = key.Mark();
  out->mark = node.Mark();
  if (!node.IsMap()) {
    l->Error(node.Mark(),
             "'value-of' must be a mapping: {name: VARIABLE, in: FUNCTION, when-false: CONDITION}");
    return;
  }
  l->CheckKeys(node, kValueOfKeys, "value-of");
  for (const auto& kv : node) {
    std::string k = kv.first.as<std::string>();
    RawScalar* into = k == "name"         ? &out->name
                      : k == "key"        ? &out->key
                      : k == "in"         ? &out->in
                      : k == "when-false" ? &out->when_false
                      : k == "when-true"  ? &out->when_true
                                          : nullptr;
    if (into != nullptr) l->Scalar(kv.first, kv.second, into);
  }
}

}  // namespace muh
