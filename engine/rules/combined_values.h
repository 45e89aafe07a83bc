// The values a rule file's templates resolve against: the file's own
// `values:` table first, then the model's quantities and functions. A name
// in both is refused when the rules are checked (rule_checker.h).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model/value_source.h"

namespace muh {

class CombinedValues : public ValueSource {
 public:
  CombinedValues(std::shared_ptr<const ValueSource> table, std::shared_ptr<const ValueSource> model)
      : table_(std::move(table)), model_(std::move(model)) {}
  const Value* Find(std::string_view name) const override {
    const Value* v = table_->Find(name);
    return v != nullptr ? v : model_->Find(name);
  }
  std::vector<std::string> Names() const override {
    std::vector<std::string> names = table_->Names();
    for (const std::string& n : model_->Names()) names.push_back(n);
    std::sort(names.begin(), names.end());
    return names;
  }
  std::vector<std::string> InputNames() const override { return model_->InputNames(); }
  std::optional<Value> Call(std::string_view name,
                            const std::vector<std::string>& args) const override {
    return model_->Call(name, args);
  }
  std::vector<std::string> Functions() const override { return model_->Functions(); }
  std::string DomainProblem(std::string_view name, const std::string& value) const override {
    return model_->DomainProblem(name, value);
  }
  std::vector<std::string> AccountedTransforms(std::string_view name) const override {
    return model_->AccountedTransforms(name);
  }

 private:
  std::shared_ptr<const ValueSource> table_;
  std::shared_ptr<const ValueSource> model_;
};

}  // namespace muh
