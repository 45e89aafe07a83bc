// A located message: the one shape every error, warning and note takes on
// its way to the user. Formats as `file:line:col: severity: message`.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace muh {

enum class Severity { kError, kWarning, kNote };

// "error", "warning" or "note", as messages and reports spell it.
const char* SeverityName(Severity s);

struct Diagnostic {
  std::string file;  // as the user should see it: tree-relative or as given; empty: the run
  int line = 0;      // 1-based; 0 means "the whole file"
  int column = 0;    // 1-based byte column; 0 means "the whole line"
  Severity severity = Severity::kError;
  std::string message;
  // The rule the message is about, when one is (the plan's diagnostics):
  // what reports file it under, without reading the message.
  std::string rule_id = {};

  // `file:line:col: error: message`; line/col are omitted when 0, and the
  // whole place when `file` is empty (a message about the run itself).
  std::string Format() const;
};

// `text` with its control bytes but tab written as escapes (`\n`, `\r`,
// `\x1b`): what a one-line message may quote of untrusted text.
std::string EscapeControls(std::string_view text);

Diagnostic MakeError(std::string file, int line, int column, std::string message);
Diagnostic MakeNote(std::string file, int line, int column, std::string message);

bool HasErrors(const std::vector<Diagnostic>& diags);

}  // namespace muh
