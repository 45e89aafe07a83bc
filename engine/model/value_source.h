// Where a rule's named values come from. Rules refer to values by name
// (`{{smem_per_block}}`); a ValueSource answers them. The rule file's
// `values:` table is one source; the built-in tuning model is another. The
// rule syntax does not change with the source.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace muh {

// One entry of an autotune list: field name -> Python literal text,
// in the order the fields should be considered.
struct ConfigEntry {
  std::vector<std::pair<std::string, std::string>> fields;
  // Fields the backend ignores (a search space's `ignore:`): two entries
  // that differ only in these are the same entry.
  std::vector<std::string> ignored = {};
  const std::string* Get(std::string_view key) const;
};

struct Value {
  std::string text;                   // Python source text of a scalar value
  bool is_list = false;               // true for autotune entry lists
  std::vector<ConfigEntry> entries;   // when is_list
  std::string why;                    // the derivation, "" when not derived
  std::vector<std::string> warnings;  // shaky assumptions the value rests on
  std::string error;                  // set when no value can be given
};

class ValueSource {
 public:
  virtual ~ValueSource() = default;
  // The value called `name`, or nullptr when this source has no such value.
  virtual const Value* Find(std::string_view name) const = 0;
  // Every name this source answers, sorted, less its inputs.
  virtual std::vector<std::string> Names() const = 0;
  // The inputs it answers besides (input_values.h: `fact.NAME`,
  // `workload.NAME`), sorted.
  virtual std::vector<std::string> InputNames() const { return {}; }
  // Values that depend on the matched code: `{{name(@capture, ...)}}` calls
  // `name` with the captures' texts. nullopt when there is no such function.
  virtual std::optional<Value> Call(std::string_view name,
                                    const std::vector<std::string>& args) const;
  // Every function name Call answers, sorted.
  virtual std::vector<std::string> Functions() const { return {}; }
  // Why `value` is outside the domain of the knob that value or function
  // `name` sizes: the values its consuming kernel accepts. "" when inside,
  // or when the knob declares no domain.
  virtual std::string DomainProblem(std::string_view /*name*/, const std::string& /*value*/) const {
    return "";
  }
  // The transforms of the written value on its way to the kernel that the
  // knob's domain already accounts for ("// 2": the fork halves BLOCK for
  // fp32, and DomainProblem checks the half too), as SelfTransform::Key
  // names them (later_transforms.h). Any other transform the code makes
  // is checked by the value it yields.
  virtual std::vector<std::string> AccountedTransforms(std::string_view /*name*/) const {
    return {};
  }
};

// Values given literally in a table (the rule file's `values:` section).
class TableValues : public ValueSource {
 public:
  void Set(std::string name, Value v) { values_[std::move(name)] = std::move(v); }
  const Value* Find(std::string_view name) const override;
  std::vector<std::string> Names() const override;

 private:
  std::map<std::string, Value, std::less<>> values_;
};

}  // namespace muh
