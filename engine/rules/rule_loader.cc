#include "engine/rules/rule_loader.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>

#include "engine/rules/rule_checker.h"

namespace muh {

namespace {

// Runs one step with yaml-cpp's exceptions turned into a located error, and
// the step's errors sorted by position.
template <typename Step>
bool Guarded(const std::string& display_path, std::vector<Diagnostic>* errors, Step step) {
  std::size_t errors_before = errors->size();
  bool ok = false;
  try {
    ok = step();
  } catch (const YAML::Exception& e) {
    errors->push_back(MakeError(display_path, e.mark.line + 1, e.mark.column + 1,
                                "unexpected YAML structure: " + e.msg));
    ok = false;
  }
  std::stable_sort(errors->begin() + static_cast<std::ptrdiff_t>(errors_before), errors->end(),
                   [](const Diagnostic& a, const Diagnostic& b) {
                     return a.line != b.line ? a.line < b.line : a.column < b.column;
                   });
  return ok && errors->size() == errors_before;
}

}  // namespace

bool ReadRules(const std::string& display_path, const std::string& text, RawRuleFile* out,
               std::vector<Diagnostic>* errors) {
  return Guarded(display_path, errors,
                 [&] { return ReadRuleFile(display_path, text, out, errors); });
}

bool CheckRules(const RawRuleFile& raw, std::shared_ptr<const ValueSource> model, RuleSet* out,
                std::vector<Diagnostic>* errors, QueryCache* queries) {
  return Guarded(raw.path, errors,
                 [&] { return CheckRuleFile(raw, std::move(model), out, errors, queries); });
}

bool LoadRules(const std::string& display_path, const std::string& text,
               std::shared_ptr<const ValueSource> model, RuleSet* out,
               std::vector<Diagnostic>* errors) {
  RawRuleFile raw;
  out->path = display_path;
  return ReadRules(display_path, text, &raw, errors) &&
         CheckRules(raw, std::move(model), out, errors);
}

}  // namespace muh
