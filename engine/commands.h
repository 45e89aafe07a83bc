// The subcommands. Each takes parsed options and returns an exit code from
// exit_codes.h; stdout carries only the product (a diff or a report).
#pragma once

#include <string>

#include "engine/session.h"

namespace muh {

struct CommandOptions {
  SessionOptions session;
  std::string patch_path;  // verify --patch
};

int RunDiff(const CommandOptions& opts);
int RunApply(const CommandOptions& opts);
int RunVerify(const CommandOptions& opts);

}  // namespace muh
