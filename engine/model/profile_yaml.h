// Hardware profile files (`--hw PROFILE.yaml`): measured facts that replace
// the built-in ones.
//
//   profile: my-bi100            # a name for reports
//   facts:
//     smem_per_block: 32768      # a bare value: source "PROFILE.yaml"
//     compute_units:
//       value: 16
//       source: ixsmi -q on 2026-11-02
//       confidence: measured     # vendor | measured | claimed | assumed
#pragma once

#include <string>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/model/facts.h"

namespace muh {

// Applies the profile file `display_path` (content `text`) on top of
// `profile`. Errors are located in the file. Pure: no disk access.
bool ApplyProfileYaml(const std::string& display_path, const std::string& text, Profile* profile,
                      std::vector<Diagnostic>* errors);

}  // namespace muh
