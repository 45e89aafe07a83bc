// The one exit-code table. README's table mirrors this file.
#pragma once

namespace muh {

enum ExitCode : int {
  kExitClean = 0,        // success; for verify: no drift
  kExitDrift = 1,        // verify found drift; test: a rule test failed, or none ran
  kExitBadInput = 2,     // bad rules, tree, arguments or usage; nothing was written
  kExitWriteFailed = 3,  // apply failed midway and could not roll back: the notes name
                         // exactly the files left rewritten
  kExitInternal = 4,     // a bug in muhpatch, or the system failed it (out of memory,
                         // output that cannot be written); nothing was written
  kExitBusy = 5,         // another muhpatch run holds the tree's lock
  kExitRulesFailed = 6,  // some rules failed to plan (their errors say why); diff printed
                         // the patch of the others, apply wrote nothing (or, with
                         // --keep-going, the files of the others)
  kExitUntested = 7,     // test: every test passed, but some rule has no test case
};

}  // namespace muh
