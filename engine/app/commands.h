// The subcommands. Each takes parsed options and returns an exit code from
// exit_codes.h; stdout carries only the product (a diff or a report).
#pragma once

#include <string>

#include "engine/app/session.h"

namespace muh {

struct CommandOptions {
  SessionOptions session;
  std::string patch_path;       // verify --patch
  std::string tests_path;       // test TESTS
  bool explain = false;         // --explain: say why each edit / value is what it is
  std::string format = "text";  // verify --format: text, json or github
  unsigned threads = 0;         // --threads: workers for the whole-tree search; 0 = one per core
};

int RunDiff(const CommandOptions& opts);
int RunApply(const CommandOptions& opts);
// RunVerify lives in verify.h.
// `test RULES TESTS`: the rule tests of TESTS against RULES.
int RunRuleTestsCommand(const CommandOptions& opts);
// `model [RULES]`: the profile, the workload and every derived value.
int RunModel(const CommandOptions& opts);

}  // namespace muh
