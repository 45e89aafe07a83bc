// The hardware facts the tree itself states. A rule whose template writes a
// quantity that reports a fact as it is (`{{smem_limit_kib}} * 1024` into
// get_max_shared_memory_per_block_device_attribute's return) finds the code
// that states that fact: the value its one site holds, as the engine's plan
// parsed it, or the value the rule pins there, is the tree's value of the
// fact. The model then takes it over its built-in default, below --hw and
// --set (InputOptions::tree_facts).
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/base/source_text.h"
#include "engine/liveness/liveness_types.h"
#include "engine/model/facts.h"
#include "engine/rules/rule.h"

namespace muh {

// The facts `files` state through the sites of `rules`. A rule with no
// site, several, or a value that is no constant states nothing (its own
// outcome in the plan says why). Nor does a site that is a function's
// return value its callers may not get (a decorator, a rebinding of the
// name after the def, `async`, a generator: multiplied_sites.h's
// ReturnedValueProblem, a helper probe of 1c9f191): a note in `notes`,
// at the line that decides, says why. Nor does one whose function another
// module may replace (`ops.NAME = other`), as `stored` finds it (unset:
// not looked for).
using StoredElsewhereFn =
    std::function<std::optional<Evidence>(const std::string& path, const std::string& name)>;
std::vector<TreeFact> ReadTreeFacts(const RuleSet& rules,
                                    const std::map<std::string, SourceText>& files,
                                    const std::vector<std::string>& tree_paths,
                                    std::vector<Diagnostic>* notes = nullptr,
                                    const StoredElsewhereFn& stored = {});

}  // namespace muh
