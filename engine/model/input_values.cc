#include "engine/model/input_values.h"

#include <fmt/format.h>

#include <optional>

#include "engine/model/derivation.h"
#include "engine/model/fact_domain.h"
#include "engine/python/py_literal.h"

namespace muh {

namespace {

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.size() > prefix.size() && s.substr(0, prefix.size()) == prefix;
}

// `value` as a number's text: its canonical literal, or a plain decimal
// (`7.5`) that CanonicalLiteral, which evaluates integers only, leaves.
std::optional<std::string> NumberText(const std::string& value) {
  if (std::optional<std::string> v = CanonicalLiteral(value)) return v;
  std::size_t b = value.find_first_not_of(" \t");
  std::size_t e = value.find_last_not_of(" \t");
  if (b == std::string::npos) return std::nullopt;
  std::string t = value.substr(b, e - b + 1);
  bool decimal = t.find_first_not_of("0123456789.") == std::string::npos &&
                 t.find('.') == t.rfind('.') && t.front() != '.';
  return decimal ? std::optional<std::string>(t) : std::nullopt;
}

Value Explained(const Derivation& d) {
  Value v;
  v.text = d.value;
  v.why = FormatDerivation(d, 0);
  v.warnings = d.warnings;
  return v;
}

}  // namespace

bool IsInputName(std::string_view name) {
  return StartsWith(name, kFactPrefix) || StartsWith(name, kWorkloadPrefix);
}

std::map<std::string, Value, std::less<>> InputValues(const Profile& profile,
                                                      const Workload& workload) {
  std::map<std::string, Value, std::less<>> out;
  for (const Fact& f : profile.facts()) {
    std::string name = std::string(kFactPrefix) + f.name;
    Derivation d = NewDerivation(name, "the hardware fact " + f.name);
    d.UseFact(f);
    d.value = FormatNumber(f.value);
    d.decided_by = f.user_given  ? "given by --hw or --set"
                   : f.from_tree ? "the tree's own value"
                                 : "the profile " + profile.name() + "'s value";
    out[name] = Explained(d);
  }
  for (const WorkloadItem& i : workload.items()) {
    std::string name = std::string(kWorkloadPrefix) + i.name;
    Derivation d = NewDerivation(name, "the workload entry " + i.name + ": " + i.meaning);
    d.UseInput(i.name, i.value, i.origin);
    d.value = std::to_string(i.value);
    out[name] = Explained(d);
  }
  return out;
}

std::string InputDomainProblem(std::string_view name, const std::string& value) {
  if (!IsInputName(name)) return "";
  std::optional<std::string> v = NumberText(value);
  if (!v) return "";  // a name or an expression: its value is not known here
  if (StartsWith(name, kFactPrefix)) {
    std::string_view fact = name.substr(kFactPrefix.size());
    double number = 0;
    bool parsed = !v->empty() && v->size() < 24;
    try {
      std::size_t used = 0;
      number = parsed ? std::stod(*v, &used) : 0;
      parsed = parsed && used == v->size();
    } catch (...) {
      parsed = false;
    }
    std::string outside = parsed ? FactDomainProblem(fact, number) : "it must be a number";
    if (outside.empty()) return "";
    return fmt::format("{} is no card's {}: {}", *v, fact, outside);
  }
  std::string_view entry = name.substr(kWorkloadPrefix.size());
  bool whole =
      !v->empty() && v->size() < 16 && v->find_first_not_of("0123456789") == std::string::npos;
  long long n = whole ? std::stoll(*v) : 0;
  if (entry == "dtype_bytes") {
    if (n == 2 || n == 4) return "";
    return fmt::format("{} is not a dtype's size: it must be 2 or 4 bytes", *v);
  }
  if (n >= 1 && n <= (1LL << 30)) return "";
  return fmt::format("{} is no workload's {}: it must be a whole number from 1 to {}", *v, entry,
                     1LL << 30);
}

}  // namespace muh
