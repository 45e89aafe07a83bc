#include "engine/rules/template_inputs.h"

#include <fmt/format.h>

#include <algorithm>

#include "engine/base/edit_distance.h"
#include "engine/model/input_values.h"

namespace muh {

namespace {

bool Prefixed(std::string_view name, std::string_view prefix) {
  return name.substr(0, prefix.size()) == prefix;
}

}  // namespace

std::string UnknownInput(std::string_view name, const std::vector<std::string>& inputs) {
  bool fact = Prefixed(name, kFactPrefix);
  std::string_view prefix = fact ? kFactPrefix : kWorkloadPrefix;
  std::vector<std::string> known;
  for (const std::string& n : inputs) {
    if (Prefixed(n, prefix)) known.push_back(n);
  }
  return fmt::format("unknown {} '{}'{} ({}: {})", fact ? "hardware fact" : "workload quantity",
                     name, DidYouMean(name, known), fact ? "facts" : "workload",
                     known.empty() ? "none" : fmt::format("{}", fmt::join(known, ", ")));
}

std::string InputHint(std::string_view name, const std::vector<std::string>& inputs) {
  for (std::string_view prefix : {kFactPrefix, kWorkloadPrefix}) {
    std::string input = std::string(prefix) + std::string(name);
    for (const std::string& n : inputs) {
      if (n == input) {
        return fmt::format(" (the {} is '{}')",
                           prefix == kFactPrefix ? "hardware fact" : "workload quantity", n);
      }
    }
  }
  return "";
}

std::string MixedInputs(const Template& t, std::size_t* offset) {
  const TemplatePart* input = nullptr;
  const TemplatePart* other = nullptr;
  for (const TemplatePart& p : t.parts()) {
    bool named = p.kind == TemplatePart::Kind::kValue || p.kind == TemplatePart::Kind::kCall;
    if (!named) continue;
    bool is_input = p.kind == TemplatePart::Kind::kValue && IsInputName(p.text);
    const TemplatePart*& slot = is_input ? input : other;
    if (slot == nullptr) slot = &p;
  }
  if (input == nullptr || other == nullptr) return "";
  *offset = std::max(input->offset, other->offset);
  return fmt::format(
      "'{}' and '{}' in one template: a template names inputs of the model (fact.NAME, "
      "workload.NAME) or its quantities, not both (a kept or pinned value is checked against "
      "one kernel domain)",
      input->text, other->text);
}

}  // namespace muh
