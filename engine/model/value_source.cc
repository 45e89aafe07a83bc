#include "engine/model/value_source.h"

namespace muh {

const std::string* ConfigEntry::Get(std::string_view key) const {
  for (const auto& [k, v] : fields) {
    if (k == key) return &v;
  }
  return nullptr;
}

std::optional<Value> ValueSource::Call(std::string_view, const std::vector<std::string>&) const {
  return std::nullopt;
}

const Value* TableValues::Find(std::string_view name) const {
  auto it = values_.find(name);
  return it == values_.end() ? nullptr : &it->second;
}

std::vector<std::string> TableValues::Names() const {
  std::vector<std::string> names;
  for (const auto& [k, v] : values_) names.push_back(k);
  return names;
}

}  // namespace muh
