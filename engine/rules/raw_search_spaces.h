// The rule file's `search_spaces:` as read in step 1 (raw_rule_file.h):
// each space's kernel, dimensions, ignored fields and constraints, checked
// for shape and for names the constraints cannot know.
#pragma once

#include <vector>

#include "engine/model/workload.h"
#include "engine/rules/yaml_reader.h"

namespace muh {

// Reads `node`, the `search_spaces:` mapping, into `spaces`, with where each
// space's name stands in `locs` (parallel). Errors go to `l`.
void ReadSearchSpaces(YamlReader* l, const YAML::Node& node, std::vector<SearchSpace>* spaces,
                      std::vector<RuleLoc>* locs);

}  // namespace muh
