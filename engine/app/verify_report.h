// What verify found, and how it is printed: text diagnostics on stderr (the
// verdict on stdout when clean), one JSON object, or GitHub workflow
// annotations. A finding is a value; checks (verify_checks.h) return them.
#pragma once

#include <string>
#include <vector>

#include "engine/base/diagnostic.h"

namespace muh {

struct Finding {
  // "load", "input", "plan", "foreign", "site", "patch", "patch-file"
  std::string kind;
  Diagnostic where;
  std::vector<std::string> details;  // derivation lines
};

// Prints `findings`, then the verdict line `verify: <verdict>: <summary>`,
// in `format` ("text", "json" or "github"), and returns `code`.
// `patch_diff` (committed -> regenerated) goes to stdout in text and JSON.
int PrintVerifyReport(const std::vector<Finding>& findings, const std::string& format, int code,
                      const std::string& summary, const std::string& patch_diff);

}  // namespace muh
