// Preconditions as written (step 1 of loading, raw_rule_file.h): a rule's
// `preconditions:` lists inline entries and the names of lists that the
// file's top-level `preconditions:` map declares once, so that rules share
// a list and extend it without copying a YAML anchor by hand:
//
//   preconditions:
//     v2-implemented:
//       - { name: ..., files: ..., absent: QUERY }
//   rules:
//     - preconditions: [v2-implemented, { name: ..., present: QUERY }]
//
// Names are resolved when the rules are checked (rule_checker.h), where an
// unknown one is an error at the name.
#pragma once

#include <string>
#include <vector>

#include "engine/rules/yaml_reader.h"

namespace muh {

// One entry of a `preconditions:` list: a mapping, or (`ref.present`) the
// name of a list of the file's `preconditions:` map.
struct RawPrecondition {
  YAML::Mark mark;
  RawScalar ref;
  RawScalar name, present, absent, required;
  std::vector<RawScalar> files;
};

// One list of the top-level `preconditions:` map: its name (the key, with
// its mark) and its entries, mappings only.
struct NamedPreconditions {
  RawScalar name;
  std::vector<RawPrecondition> entries;
};

// A rule's `preconditions:`: a list of mappings and names, mixed.
void ReadRulePreconditions(YamlReader* l, const YAML::Node& node,
                           std::vector<RawPrecondition>* out);

// The top-level `preconditions:` map of names to lists of mappings. A name
// declared twice is an error at the second.
void ReadNamedPreconditions(YamlReader* l, const YAML::Node& node,
                            std::vector<NamedPreconditions>* out);

// The query texts of `entries` (their `present:` or `absent:`), in order,
// appended to `out`.
void PreconditionQueryTexts(const std::vector<RawPrecondition>& entries,
                            std::vector<std::string>* out);

}  // namespace muh
