#include "engine/base/quick_exit.h"

#include <atomic>
#include <cstdlib>
#include <iostream>
#include <string>

#include "engine/base/checked_output.h"
#include "engine/base/exit_codes.h"

namespace muh {

namespace {
std::atomic<bool> allowed{false};
}  // namespace

void AllowQuickExit() { allowed = true; }

bool QuickExitAllowed() { return allowed; }

int FinishOutput(int code) {
  std::string err;
  if (!FinishStdout(&err)) {
    std::cerr << "muhpatch: error: " << err << "\n";
    return kExitInternal;
  }
  return code;
}

void QuickExit(int code) {
  code = FinishOutput(code);
  std::cerr.flush();
  std::_Exit(code);
}

}  // namespace muh
