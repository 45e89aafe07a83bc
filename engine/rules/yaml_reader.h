// Reading YAML with locations: the helpers the rule file's first step
// (raw_rule_file.h) and its checks (rule_checker.h) share. Every error is
// `rules.yaml:LINE:COL: error: ...`; OffsetLoc maps a byte inside a scalar
// (plain, quoted or block) back to its line and column in the file, so that
// an error inside a query points at the offending character.
#pragma once

#include <yaml-cpp/yaml.h>

#include <string>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/rules/rule.h"

namespace muh {

// A scalar as written: its value and where its key and value are.
struct RawScalar {
  bool present = false;
  std::string value;
  YAML::Mark mark;      // of the value
  YAML::Mark key_mark;  // of the key
};

// A YAML scalar as Python source: true/false as True/False, a number as
// written, anything else as a double-quoted string.
std::string PythonLiteral(const std::string& yaml_scalar);

// Reports located errors about one YAML file into `errors`.
class YamlReader {
 public:
  YamlReader(const std::string& path, const std::string& text, std::vector<Diagnostic>* errors)
      : path_(path), text_(text), errors_(errors) {}

  // An error at `m` (yaml-cpp's marks are 0-based).
  void Error(const YAML::Mark& m, const std::string& msg);

  // An error at each key repeated in a mapping anywhere under `node`:
  // yaml-cpp keeps both entries, and a reader would take one in silence.
  void NoDuplicateKeys(const YAML::Node& node);

  // Location of byte `offset` inside the scalar that starts at `mark`.
  RuleLoc OffsetLoc(const YAML::Mark& mark, std::size_t offset) const;
  std::size_t LeadingSpaces(std::size_t at) const;

  // Reads `value` (of `key`) as a scalar; an error when it is not one.
  bool Scalar(const YAML::Node& key, const YAML::Node& value, RawScalar* out);
  // A scalar or a non-empty list of scalars.
  void ScalarList(const YAML::Node& key, const YAML::Node& value, std::vector<RawScalar>* out);
  // Reports unknown keys; returns the keys the typos most likely meant, so
  // that "rule has no 'query'" is not said on top of "did you mean 'query'".
  std::vector<std::string> CheckKeys(const YAML::Node& map, const std::vector<std::string>& allowed,
                                     const char* where);

  const std::string& path_;
  const std::string& text_;
  std::vector<Diagnostic>* errors_;
};

}  // namespace muh
