#include "engine/base/colour.h"

#include <doctest/doctest.h>

namespace muh {

TEST_CASE("colour: --color, NO_COLOR, TERM and the terminal decide") {
  ColourMode m = ColourMode::kNever;
  CHECK(ParseColourMode("always", &m));
  CHECK(m == ColourMode::kAlways);
  CHECK_FALSE(ParseColourMode("yes", &m));
  CHECK(WantColour(ColourMode::kAuto, true, nullptr, "xterm"));
  CHECK_FALSE(WantColour(ColourMode::kAuto, false, nullptr, "xterm"));  // a pipe
  CHECK_FALSE(WantColour(ColourMode::kAuto, true, "1", "xterm"));
  CHECK(WantColour(ColourMode::kAuto, true, "", "xterm"));  // NO_COLOR empty: unset
  CHECK_FALSE(WantColour(ColourMode::kAuto, true, nullptr, "dumb"));
  CHECK(WantColour(ColourMode::kAlways, false, "1", "dumb"));
  CHECK_FALSE(WantColour(ColourMode::kNever, true, nullptr, nullptr));
}

TEST_CASE("colour: a unified diff as git colours it") {
  std::string diff =
      "muhpatch: rule r: rewrites\n"
      "diff --git a/x.py b/x.py\n"
      "--- a/x.py\n"
      "+++ b/x.py\n"
      "@@ -1,2 +1,2 @@\n"
      " keep\r\n"
      "-old\r\n"
      "+new\n"
      "--- not a header\n"
      "\\ No newline at end of file\n";
  CHECK(ColourUnifiedDiff(diff) ==
        "muhpatch: rule r: rewrites\n"
        "\x1b[1mdiff --git a/x.py b/x.py\x1b[m\n"
        "\x1b[1m--- a/x.py\x1b[m\n"
        "\x1b[1m+++ b/x.py\x1b[m\n"
        "\x1b[36m@@ -1,2 +1,2 @@\x1b[m\n"
        " keep\r\n"
        "\x1b[31m-old\x1b[m\r\n"
        "\x1b[32m+new\x1b[m\n"
        "\x1b[31m--- not a header\x1b[m\n"
        "\\ No newline at end of file\n");
  CHECK(ColourUnifiedDiff("+no newline") == "\x1b[32m+no newline\x1b[m");
  CHECK(ColourUnifiedDiff("").empty());
}

TEST_CASE("colour: a diagnostic's location and severity word") {
  CHECK(ColourDiagnosticLine("a.py:3:5: error: drift: x") ==
        "\x1b[1ma.py:3:5:\x1b[m \x1b[1;31merror:\x1b[m drift: x");
  CHECK(ColourDiagnosticLine("r.yaml: note: rule 'r' skipped: y: note: z") ==
        "\x1b[1mr.yaml:\x1b[m \x1b[1;36mnote:\x1b[m rule 'r' skipped: y: note: z");
  CHECK(ColourDiagnosticLine("a.py:1: warning: w") ==
        "\x1b[1ma.py:1:\x1b[m \x1b[1;35mwarning:\x1b[m w");
  CHECK(ColourDiagnosticLine("verify: drift: 1 file would change") ==
        "verify: drift: 1 file would change");
  CHECK(ColourDiagnosticLine("    input: x") == "    input: x");
}

}  // namespace muh
