// How a derived value came about, so that "why 64?" has an answer: the
// inputs used (with their confidence), the formula, the constraint that
// decided, and the neighbours that were rejected and why.
#pragma once

#include <string>
#include <vector>

#include "engine/model/facts.h"

namespace muh {

struct Rejected {
  std::string value;
  std::string reason;
};

struct Derivation {
  std::string quantity;  // the name rules use, e.g. "prefix_block_below_sm80"
  std::string value;     // Python source text; empty when `error` is set
  std::string formula;
  // The code that takes the value, where the facts it rests on are not its
  // own (a prebuilt kernel sized with Triton's facts), and how to measure it.
  std::string consumer;
  std::vector<std::string> inputs;  // "smem_per_block = 49152 bytes (conflicting)"
  std::string decided_by;
  // The check that keeps the value from breaking a kernel (shared memory,
  // registers, a prebuilt kernel's size), and the workload it was sized for.
  std::string safety;
  std::string sized_for;
  std::vector<Rejected> rejected;
  std::vector<std::string> warnings;  // facts the value rests on that are shaky
  std::string error;                  // no value satisfies the constraints
  // When a measurement decided `value` (measured_values.h): which file and
  // row, what was measured, and the model's own choice, which the rest of
  // the derivation explains.
  std::string measured;
  std::string model_value;

  // Records a fact as an input, warning when its confidence is shaky.
  void UseFact(const Fact& f);
  void UseInput(const std::string& name, long long number, const std::string& note);
};

Derivation NewDerivation(std::string quantity, std::string formula);

// A fact's value as people write it: "49152", "7.5".
std::string FormatNumber(double v);

// A multi-line explanation, indented by `indent` spaces.
std::string FormatDerivation(const Derivation& d, int indent);

}  // namespace muh
