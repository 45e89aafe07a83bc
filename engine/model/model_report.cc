#include "engine/model/model_report.h"

#include <fmt/format.h>

namespace muh {

std::string FormatModelReport(const ModelValues& model, bool explain) {
  std::string out = fmt::format("profile {}\n", model.profile().name());
  for (const Fact& f : model.profile().facts()) {
    out += fmt::format("  {} = {}{}  [{}{}] {}\n", f.name, FormatNumber(f.value),
                       f.unit.empty() ? "" : " " + f.unit, ConfidenceName(f.confidence),
                       f.user_given ? ", given by the user" : "", f.source);
    if (!f.alternative.empty()) out += fmt::format("      alternative: {}\n", f.alternative);
  }
  if (const MeasuredKnobs* m = model.measured()) {
    out += fmt::format("measurements {}{}: {} knob rows\n", m->path,
                       m->data.device.empty() ? "" : " (" + m->data.device + ")",
                       m->data.knobs.size());
  }
  out += "workload\n";
  for (const WorkloadItem& w : model.workload().items()) {
    out += fmt::format("  {} = {}  [{}] {}\n", w.name, w.value, w.origin, w.meaning);
  }
  out += "values\n";
  for (const Derivation& d : model.derivations()) {
    if (explain) {
      out += FormatDerivation(d, 2);
      continue;
    }
    std::string value = d.error.empty() ? d.value : "(none: " + d.error + ")";
    std::string note = d.warnings.empty() ? "" : "  (rests on unconfirmed facts)";
    if (!d.measured.empty()) note = "  (measured; the model's own choice: " + d.model_value + ")";
    out += fmt::format("  {} = {}{}\n", d.quantity, value, note);
  }
  for (const auto& [name, r] : model.autotune()) {
    out += fmt::format("autotune {}: {} entries (enumerated {}, merged {}, valid {})\n", name,
                       r.selected.size(), r.enumerated, r.merged, r.valid.size());
    if (explain) {
      out += FormatDerivation(r.derivation, 2);
      continue;
    }
    for (const AutotuneCandidate& c : r.selected) {
      std::string fields;
      for (const auto& [k, v] : c.entry.fields)
        fields += (fields.empty() ? "" : ", ") + k + "=" + v;
      out += fmt::format("  {}\n", fields);
    }
  }
  return out;
}

}  // namespace muh
