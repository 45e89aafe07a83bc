// The model's inputs in templates (input_values.h): `{{fact.NAME}}` for a
// hardware fact, `{{workload.NAME}}` for a workload entry. What the rule
// checker says about them: an unknown one, named with what exists; a plain
// name that is an input's without its prefix; and a template that mixes an
// input with a model quantity, whose kept or pinned values could then not
// be checked against one kernel domain (ValueSource::DomainProblem reads
// the template's first quantity). Pure.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "engine/rules/template.h"

namespace muh {

// The message for `name`, a `fact.`/`workload.` name that `inputs` (every
// input the model answers) lacks: "unknown hardware fact 'fact.x' (did you
// mean 'fact.y'?) (facts: fact.a, fact.b)".
std::string UnknownInput(std::string_view name, const std::vector<std::string>& inputs);

// For an unknown plain name that an input has after its prefix: " (the
// hardware fact is 'fact.warp_size')", else "".
std::string InputHint(std::string_view name, const std::vector<std::string>& inputs);

// Why `t` may not be written: it names an input and a quantity or function
// of the model or the file's `values:` ("" when it does not); `offset` is
// set to the later of the two parts.
std::string MixedInputs(const Template& t, std::size_t* offset);

}  // namespace muh
