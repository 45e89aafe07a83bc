// The rule file's `liveness:` section (muhpatch-rules(5)) read into
// LivenessFacts: the entry module, the platform, the facts declared for
// what lies behind binaries, and the deployment's assumptions: its
// environment (`environment:`), the plugins installed (`plugins:`) and
// what each dynamic import may load (`dynamic-imports:`).
#pragma once

#include <yaml-cpp/yaml.h>

#include "engine/liveness/liveness_types.h"
#include "engine/rules/yaml_reader.h"

namespace muh {

// Reads `node` into `out` (whose markers it sets to vLLM's); each problem
// is an error of `l` at its place.
void ReadLiveness(YamlReader* l, const YAML::Node& node, LivenessFacts* out);

}  // namespace muh
