#include "engine/model/derivation.h"

#include <fmt/format.h>

namespace muh {

std::string FormatNumber(double v) {
  if (v == static_cast<double>(static_cast<long long>(v))) {
    return std::to_string(static_cast<long long>(v));
  }
  return fmt::format("{}", v);
}

void Derivation::UseFact(const Fact& f) {
  std::string line = fmt::format(
      "{} = {}{} ({}; {}{})", f.name, FormatNumber(f.value), f.unit.empty() ? "" : " " + f.unit,
      ConfidenceName(f.confidence), f.source,
      f.passed_over.empty() ? ""
                            : fmt::format("; passed over: {}", fmt::join(f.passed_over, "; ")));
  for (const std::string& have : inputs) {
    if (have == line) return;
  }
  inputs.push_back(line);
  if (IsShaky(f.confidence)) {
    std::string w = fmt::format("rests on {} = {}, which is {}", f.name, FormatNumber(f.value),
                                ConfidenceName(f.confidence));
    if (!f.alternative.empty()) w += "; alternative: " + f.alternative;
    warnings.push_back(w);
  }
}

Derivation NewDerivation(std::string quantity, std::string formula) {
  Derivation d;
  d.quantity = std::move(quantity);
  d.formula = std::move(formula);
  return d;
}

void Derivation::UseInput(const std::string& name, long long number, const std::string& note) {
  inputs.push_back(fmt::format("{} = {} ({})", name, number, note));
}

std::string FormatDerivation(const Derivation& d, int indent) {
  std::string pad(static_cast<std::size_t>(indent), ' ');
  std::string out;
  if (!d.error.empty()) {
    out += fmt::format("{}{} = (none): {}\n", pad, d.quantity, d.error);
  } else {
    out += fmt::format("{}{} = {}{}\n", pad, d.quantity, d.value,
                       d.measured.empty() ? "" : "  (measured)");
  }
  if (!d.measured.empty()) {
    out += fmt::format("{}  measured: {}\n", pad, d.measured);
    out += fmt::format("{}  the model's own choice: {}, derived as follows\n", pad, d.model_value);
  }
  if (!d.consumer.empty()) out += fmt::format("{}  consumer: {}\n", pad, d.consumer);
  if (!d.formula.empty()) out += fmt::format("{}  formula: {}\n", pad, d.formula);
  for (const std::string& in : d.inputs) out += fmt::format("{}  input: {}\n", pad, in);
  if (!d.decided_by.empty()) out += fmt::format("{}  decided by: {}\n", pad, d.decided_by);
  if (!d.safety.empty()) out += fmt::format("{}  safety: {}\n", pad, d.safety);
  if (!d.sized_for.empty()) out += fmt::format("{}  sized for: {}\n", pad, d.sized_for);
  for (const Rejected& r : d.rejected) {
    out += fmt::format("{}  rejected {}: {}\n", pad, r.value, r.reason);
  }
  for (const std::string& w : d.warnings) out += fmt::format("{}  warning: {}\n", pad, w);
  return out;
}

}  // namespace muh
