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

std::string Diagnostic::Format() const {
  std::string where = file;
  if (line > 0) {
    where += fmt::format(":{}", line);
    if (column > 0) where += fmt::format(":{}", column);
  }
  if (where.empty()) return fmt::format("{}: {}", SeverityName(severity), message);
  return fmt::format("{}: {}: {}", where, SeverityName(severity), message);
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
