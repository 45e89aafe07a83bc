// The text `muhpatch model` prints: the profile's facts, the workload, and
// every derived value, with full derivations under --explain. Pure.
#pragma once

#include <string>

#include "engine/model/model_values.h"

namespace muh {

std::string FormatModelReport(const ModelValues& model, bool explain);

}  // namespace muh
