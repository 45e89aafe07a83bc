#include "engine/base/diagnostic.h"

#include <fmt/format.h>

namespace muh {

const char* SeverityName(Severity s) {
  switch (s) {
    case Severity::kError:
      return "error";
    case Severity::kWarning:
      return "warning";
    case Severity::kNote:
      return "note";
  }
  return "error";
}

std::string EscapeControls(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    unsigned char u = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if ((u < 0x20 && c != '\t') || u == 0x7f) {
      out += fmt::format("\\x{:02x}", u);
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::string Diagnostic::Format() const {
  // A diagnostic is one line: a newline or an escape sequence from a file
  // name, a rule file or the source (a helper probe of 3cee5a3: a file
  // named "c\n::warning file=...::x.py" printed a GitHub workflow command)
  // is shown escaped, as git shows such names.
  std::string where = EscapeControls(file);
  std::string said = EscapeControls(message);
  if (line > 0) {
    where += fmt::format(":{}", line);
    if (column > 0) where += fmt::format(":{}", column);
  }
  if (where.empty()) return fmt::format("{}: {}", SeverityName(severity), said);
  return fmt::format("{}: {}: {}", where, SeverityName(severity), said);
}

Diagnostic MakeError(std::string file, int line, int column, std::string message) {
  return Diagnostic{std::move(file), line, column, Severity::kError, std::move(message)};
}

Diagnostic MakeNote(std::string file, int line, int column, std::string message) {
  return Diagnostic{std::move(file), line, column, Severity::kNote, std::move(message)};
}

bool HasErrors(const std::vector<Diagnostic>& diags) {
  for (const Diagnostic& d : diags) {
    if (d.severity == Severity::kError) return true;
  }
  return false;
}

}  // namespace muh
