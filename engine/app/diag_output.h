// How the "diag" logger's lines reach stderr: under -q, notes, their indented
// detail lines and plain info lines are dropped (errors, warnings and lines
// logged at warn or above stay); on a colour terminal (colour.h) each
// diagnostic's location and severity word are coloured. Every place that
// prints a diagnostic goes through this logger, so none of them needs to know.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "engine/base/logging.h"

namespace muh {

// Decides line by line, in order. A line `LOCATION: SEVERITY: message` has
// that severity; an indented line (a derivation, a detail) goes with the
// line before it; any other line counts as an error when `important` (it was
// logged at warn or above) and as information otherwise.
class DiagFilter {
 public:
  DiagFilter(bool quiet, bool colour) : quiet_(quiet), colour_(colour) {}

  // The text to print for `line` (without its newline), or nullopt to drop it.
  std::optional<std::string> Line(std::string_view line, bool important);

 private:
  bool quiet_;
  bool colour_;
  bool last_kept_ = true;
};

// The diagnostics stream's handler (logging::SetUp): each message's lines on
// stderr through one DiagFilter.
logging::DiagHandler DiagToStderr(bool quiet, bool colour);

}  // namespace muh

namespace muh {

// -v's count and -q, set once by the CLI for the report printers to consult
// (verify's GitHub annotations add notes at -v).
void SetVerbosity(int verbosity, bool quiet);
int Verbosity();
bool Quiet();

// --explain, set once by the CLI: derivations print only when it is given
// (verify's findings carry theirs; outcome_report.h).
void SetExplainDerivations(bool explain);
bool ExplainDerivations();

}  // namespace muh
