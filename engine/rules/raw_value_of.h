// A rule's `value-of:` as written (muhpatch-rules(5)): the variable, the
// function it is read in, and the condition whose path the rule rewrites:
//
//   value-of:
//     name: BLOCK
//     in: context_attention_fwd
//     when-false: current_platform.has_device_capability(80)
//
// `key: K` names one key of the dict `name` instead.
// Step 1 of loading (raw_rule_file.h): shape only; rule_value_of.h checks it.
#pragma once

#include "engine/rules/yaml_reader.h"

namespace muh {

struct RawValueOf {
  bool present = false;
  YAML::Mark key_mark;  // of `value-of`
  YAML::Mark mark;      // of its mapping
  RawScalar name, key, in, when_false, when_true;
};

// Reads `node`, the value of the `value-of` key `key`.
void ReadValueOf(YamlReader* l, const YAML::Node& key, const YAML::Node& node, RawValueOf* out);

}  // namespace muh
