// Rule tests, as ast-grep has them: for each rule, snippets it must rewrite
// (with the expected result), snippets it must leave alone because it finds
// no site, and optional extra files (for preconditions). Pure: the test file
// and rule set are given as values.
//
//   tests:
//     - rule: custom-ops-smem-limit
//       match:
//         - code: |                 # put at the rule's first file path
//             def get_max_...(device: int) -> int:
//                 return 32 * 1024
//           fixed: |                # omitted: the rule must change nothing
//             ...
//           files: {vllm/x.py: "..."}   # optional extra files
//       no-match:
//         - code: |
//             def other(): return 32 * 1024
//       skipped:                    # an unmet precondition must skip the rule
//         - code: ...
#pragma once

#include <string>
#include <vector>

#include "engine/base/diagnostic.h"
#include "engine/rules/rule.h"

namespace muh {

struct RuleTestReport {
  int passed = 0;
  int failed = 0;
  std::vector<std::string> failures;  // one message per failed case
  // Errors in the test file (unknown keys included: a case is never
  // silently dropped); the run fails when there are any.
  std::vector<Diagnostic> load_errors;
  // Rule ids of `rules` that no test case covers.
  std::vector<std::string> untested;
};

// Runs every case in `tests_text` (the content of `tests_path`).
RuleTestReport RunRuleTests(const RuleSet& rules, const std::string& tests_path,
                            const std::string& tests_text);

}  // namespace muh
