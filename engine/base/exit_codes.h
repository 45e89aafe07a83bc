// The one exit-code table. README's table mirrors this file.
#pragma once

namespace muh {

enum ExitCode : int {
  kExitClean = 0,        // success; for verify: no drift
  kExitDrift = 1,        // verify found drift
  kExitBadInput = 2,     // bad rules, tree, arguments or usage; nothing was written
  kExitWriteFailed = 3,  // apply could not write; see the notes for files already rewritten
  kExitInternal = 4,     // a bug in muhpatch: please report it
  kExitBusy = 5,         // another muhpatch run holds the tree's lock
};

}  // namespace muh
