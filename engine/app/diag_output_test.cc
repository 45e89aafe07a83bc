#include "engine/app/diag_output.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("diag output: everything passes when not quiet") {
  DiagFilter f(false, false);
  CHECK(f.Line("t/a.py:1:2: note: rule 'r' skipped", false) ==
        "t/a.py:1:2: note: rule 'r' skipped");
  CHECK(f.Line("    why", false) == "    why");
  CHECK(f.Line("verify: clean: ok", false) == "verify: clean: ok");
}

TEST_CASE("diag output: -q keeps errors and warnings with their details, drops notes and info") {
  DiagFilter f(true, false);
  CHECK_FALSE(f.Line("t/a.py:1:2: note: rule 'r' writes '4'", false));
  CHECK_FALSE(f.Line("    derivation of the note", false));
  CHECK(f.Line("t/a.py:3:1: error: drift: x", false) == "t/a.py:3:1: error: drift: x");
  CHECK(f.Line("    derivation of the error", false) == "    derivation of the error");
  CHECK(f.Line("t/a.py:4: warning: hand-tuned", false) == "t/a.py:4: warning: hand-tuned");
  CHECK_FALSE(f.Line("verify: clean: nothing left to change", false));
  CHECK(f.Line("verify: drift: 1 file would change", true) == "verify: drift: 1 file would change");
}

TEST_CASE("diag output: colour on diagnostic lines only") {
  DiagFilter f(false, true);
  CHECK(f.Line("a.py:1: error: x", false) == "\x1b[1ma.py:1:\x1b[m \x1b[1;31merror:\x1b[m x");
  CHECK(f.Line("    input: y", false) == "    input: y");
  CHECK(f.Line("verify: drift: z", true) == "verify: drift: z");
}

}  // namespace muh
