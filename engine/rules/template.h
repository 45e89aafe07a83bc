// Replacement templates: literal text with `{{name}}` for a named value
// (a model quantity, a `values:` entry, or an input of the model:
// `{{fact.NAME}}`, `{{workload.NAME}}`, input_values.h), `{{@capture}}` for
// the text of a query capture, and `{{name(@a, @b)}}` for a value computed
// from captured text. `{{` cannot be escaped because Python
// never needs it in the knobs we rewrite.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "engine/model/value_source.h"
#include "engine/query/query.h"

namespace muh {

struct TemplatePart {
  enum class Kind { kText, kValue, kCapture, kCall };
  Kind kind = Kind::kText;
  std::string text;               // literal text, value name, capture or function name
  std::size_t offset = 0;         // where the part starts in the template source
  std::vector<std::string> args;  // kCall: capture names, without '@'
};

class Template {
 public:
  // Parses `source`. On failure sets `error` and `error_offset`.
  static bool Parse(std::string_view source, Template* out, std::string* error,
                    std::size_t* error_offset);

  const std::vector<TemplatePart>& parts() const { return parts_; }
  // Names of values / captures the template refers to, in order of use.
  std::vector<const TemplatePart*> References(TemplatePart::Kind kind) const;

  // Fills the template. Every referenced name must exist (checked at load).
  // Returns false with `error` when a value cannot be given (model error),
  // or when a template whose knob is an input of the model (`fact.NAME`,
  // `workload.NAME`) makes of it a value outside the input's domain.
  // When `why` is given, the derivations of the values used are appended.
  bool Expand(const QueryMatch& match, const ValueSource& values, std::string* out,
              std::string* error, std::string* why = nullptr) const;

 private:
  bool InputValueFits(const ValueSource& values, const std::string* out, std::string* error) const;

  std::vector<TemplatePart> parts_;
};

}  // namespace muh
